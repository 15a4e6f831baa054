"""The one error the record's writers raise for a request they turn down, and the field check that raises it."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Model


class ServiceError(Exception):
    """A request the record cannot accept; the message says why."""


def checked_field(model: type[Model], name: str, value: Any) -> Any:
    """`value` as `model`'s field `name` accepts it (its own validators: a slug's letters, a name's length, the
    same checks a form of that model makes); ServiceError naming the field otherwise."""
    try:
        return model._meta.get_field(name).clean(value, None)
    except ValidationError as error:
        shown = repr(value)[:60]
        raise ServiceError(f"{name} {shown}: {' '.join(error.messages)}") from None
