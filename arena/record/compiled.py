"""Reads and writes whose SQL is built once: on the hot path, building a statement costs about as much as running it."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from django.db import connections, router
from django.db.models import Model, QuerySet


class ByPrimaryKey[M: Model]:
    """`queryset.get(pk=…)` with its SQL compiled once per database: each call binds only the primary key, and
    gives the same instance, fields and annotations (converted as the ORM converts them)."""

    #: A primary key no row has: it marks where each call's goes among the compiled statement's parameters.
    SLOT = -7_301_946_285_017

    def __init__(self, queryset: QuerySet[M]) -> None:
        self.queryset = queryset
        self.compiled: dict[str, tuple[str, list, int]] = {}

    def get(self, pk: int) -> M:
        """The row; `model.DoesNotExist` if there is none. Inside a transaction if the queryset locks."""
        alias = self.queryset.db
        if alias not in self.compiled:
            sql, params = self.queryset.filter(pk=self.SLOT).query.get_compiler(alias).as_sql()
            self.compiled[alias] = (sql, list(params), list(params).index(self.SLOT))
        sql, params, slot = self.compiled[alias]
        params = [*params[:slot], pk, *params[slot + 1 :]]
        model = self.queryset.model
        found = list(model._default_manager.db_manager(alias).raw(sql, params))
        if not found:
            raise model.DoesNotExist(f"{model._meta.object_name} matching query does not exist.")
        row, connection = found[0], connections[alias]
        for name, expression in self.queryset.query.annotations.items():
            value = getattr(row, name)
            for convert in [*connection.ops.get_db_converters(expression), *expression.get_db_converters(connection)]:
                value = convert(value, expression, connection)
            setattr(row, name, value)
        return row


def rows_update(model: type[Model], *, where: dict[str, Any], values: dict[str, Any]) -> int:
    """`model.objects.filter(**where).update(**values)` for equalities on concrete fields, as one statement written
    here (the ORM's building of its filter and update cost more than the write); the number of rows changed."""
    connection = connections[router.db_for_write(model)]
    sql, set_fields, where_fields = _update_parts(model, connection.alias, tuple(values), tuple(where))
    params = [
        field.get_db_prep_save(value, connection) for field, value in zip(set_fields, values.values(), strict=True)
    ]
    params += [
        field.get_db_prep_value(value, connection) for field, value in zip(where_fields, where.values(), strict=True)
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


@functools.cache
def _update_parts(
    model: type[Model], alias: str, set_names: tuple[str, ...], where_names: tuple[str, ...]
) -> tuple[str, list, list]:
    """The UPDATE statement and the fields its parameters bind (those set, then those matched), built once per
    model, database and the names set and matched."""
    quote, fields = connections[alias].ops.quote_name, {field.name: field for field in model._meta.concrete_fields}
    fields["pk"] = model._meta.pk
    assignments = ", ".join(f"{quote(fields[name].column)} = %s" for name in set_names)
    conditions = " AND ".join(f"{quote(fields[name].column)} = %s" for name in where_names)
    sql = f"UPDATE {quote(model._meta.db_table)} SET {assignments} WHERE {conditions}"
    return sql, [fields[name] for name in set_names], [fields[name] for name in where_names]


def rows_insert(objs: Sequence[Model]) -> None:
    """`Model.objects.bulk_create(objs)` for new rows of one model whose key the database assigns, as one statement
    written here (INSERT … RETURNING, which SQLite and PostgreSQL both take): each object gets its key, as from
    bulk_create; an IntegrityError comes as Django's."""
    model = type(objs[0])
    connection = connections[router.db_for_write(model)]
    head, row, returning, fields = _insert_parts(model, connection.alias)
    params = [field.get_db_prep_save(field.pre_save(obj, add=True), connection) for obj in objs for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(f"{head}{', '.join([row] * len(objs))}{returning}", params)
        keys = [found for (found,) in cursor.fetchall()]
    for obj, found in zip(objs, keys, strict=True):
        obj.pk = found
        obj._state.adding, obj._state.db = False, connection.alias


@functools.cache
def _insert_parts(model: type[Model], alias: str) -> tuple[str, str, str, list]:
    """The INSERT's head (table and columns), one row's placeholders, its RETURNING clause and the fields, built
    once per model and database: building them (a quoted name a column) cost as much as binding the row."""
    quote, pk = connections[alias].ops.quote_name, model._meta.pk
    fields = [field for field in model._meta.concrete_fields if field is not pk]
    columns = ", ".join(quote(field.column) for field in fields)
    return (
        f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ",
        f"({', '.join(['%s'] * len(fields))})",
        f" RETURNING {quote(pk.column)}",
        fields,
    )
