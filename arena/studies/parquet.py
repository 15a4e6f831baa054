"""A study's tables as Parquet: the CSV's columns, in its order, each with its type (numbers, booleans, instants),
and null where the JSON lines hold null."""

from __future__ import annotations

import io
from collections.abc import Iterable
from datetime import datetime

from arena.studies.exports import TABLES

#: Each column's Arrow type by name (the same name means the same thing in every table); text otherwise.
TYPES = {
    "consent_version": "int64",
    "attention_failed": "int64",
    "excluded": "bool",
    "position": "int64",
    "seat": "int64",
    "match_id": "int64",
    "score": "float64",
    "abandoned": "bool",
    "short": "bool",
    "started_at": "timestamp",
    "finished_at": "timestamp",
    "decided_at": "timestamp",
    "duration_s": "float64",
    "plies": "int64",
    "void": "bool",
    "ply": "int64",
    "time_to_decide_ms": "int64",
    "passed": "bool",
}
INSTANTS = {name for name, kind in TYPES.items() if kind == "timestamp"}


def as_parquet(rows: Iterable[dict], table: str) -> bytes:
    """`rows` of one of the study's tables (`exports.TABLES`) as a Parquet file."""
    # Imported here: pyarrow takes a third of a second to load, and only this staff download needs it.
    import pyarrow as pa
    import pyarrow.parquet as pq

    def arrow_type(name: str) -> pa.DataType:
        kind = TYPES.get(name, "string")
        return pa.timestamp("us", tz="UTC") if kind == "timestamp" else pa.type_for_alias(kind)

    columns = TABLES[table]
    schema = pa.schema([(name, arrow_type(name)) for name in columns])
    typed = [
        {name: datetime.fromisoformat(row[name]) if name in INSTANTS and row.get(name) else row.get(name)
         for name in columns}
        for row in rows
    ]  # fmt: skip
    out = io.BytesIO()
    pq.write_table(pa.Table.from_pylist(typed, schema=schema), out)
    return out.getvalue()
