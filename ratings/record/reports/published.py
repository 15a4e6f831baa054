"""The papers' own published numbers, transcribed from their tables (ratings/record/reports/published/<paper>.json).

They are shown as separate tables beside ours, each row labelled "published (paper, Table N)", and are never
read by any rating or metric: they are text cells, not estimates.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from ratings.record.reports.base import Table

DIRECTORY = Path(__file__).resolve().parent / "published"


@cache
def published_document(paper: str) -> dict:
    """The transcribed tables of `paper` ({"paper", "tables": [...]}), or no tables when none were transcribed."""
    path = DIRECTORY / f"{paper}.json"
    return json.loads(path.read_text()) if path.exists() else {"paper": paper, "tables": []}


def published_tables(paper: str) -> list[tuple[str, Table]]:
    """(key of our table it goes after, the published table) for each of the paper's transcribed tables."""
    document = published_document(paper)
    out = []
    for spec in document["tables"]:
        tag = f"published ({document['paper']}, {spec['table']})"
        rows = [(f"{row['label']} — {tag}", list(row["cells"])) for row in spec["rows"]]
        table = Table(
            key=f"published-{spec['table'].lower().replace(' ', '-')}",
            title=f"Published: {spec['title']}",
            source=f"{spec['citation']}; transcribed from the paper, not computed by Arena",
            columns=list(spec["columns"]),
            rows=rows,
            level=None,
            intervals="as printed in the paper (± is the paper's own spread)",
        )
        out.append((spec["after"], table))
    return out


def with_published(paper: str, tables: list[Table]) -> list[Table]:
    """`tables` with the paper's published tables, each right after ours it mirrors (or at the end)."""
    out = list(tables)
    for after, table in published_tables(paper):
        keys = [t.key for t in out]
        out.insert(keys.index(after) + 1 if after in keys else len(out), table)
    return out
