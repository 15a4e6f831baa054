"""One report, three plain renderings (JSON, CSV, Markdown) from the same `Report` the page shows."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace

from ratings.record.reports.base import Cell, Report, Table

FORMATS = ("json", "csv", "md")


def cell_text(cell: Cell | str | None) -> str:
    """A cell as the page prints it: value [low–high] n=…; "—" when undefined."""
    if cell is None:
        return ""
    if isinstance(cell, str):
        return cell
    if cell.note.startswith("Lv"):  # BotzoneBench's (level, progress), in the paper's notation: "Lv2, 50%"
        if cell.value is None:
            return f"{cell.note} n={cell.n}"
        return f"{cell.note}, {cell_text(replace(cell, note=''))}"
    if cell.value is None:
        return f"— n={cell.n}"
    if cell.note.startswith(("unbounded above", "unbounded below")):
        # Only a bound is known (GameBench: an agent that won, or lost, every game): never a point value.
        text = f"≥ {_number(cell.low, cell.unit)}" if cell.high is None else f"≤ {_number(cell.high, cell.unit)}"
        return f"{text} n={cell.n} ({cell.note})"
    text = _number(cell.value, cell.unit)
    if cell.low is not None and cell.high is not None:
        text += f" [{_number(cell.low, cell.unit)}–{_number(cell.high, cell.unit)}]"
    text += f" n={cell.n}"
    return f"{text} ({cell.note})" if cell.note else text


def _number(value: float, unit: str) -> str:
    value = 0.0 if abs(value) < 1e-12 else value  # bootstrap bounds land a rounding error away from 0
    return f"{100 * value:.1f}%" if unit == "%" else f"{value:.3g}" if abs(value) < 1000 else f"{value:.0f}"


def as_json(report: Report) -> dict:
    """Plain data: every cell's value, interval, n and match ids."""
    return {
        "paper": report.paper,
        "title": report.title,
        "citation": report.citation,
        "filters": dict(report.filters.items()),
        "human_baseline": report.baseline,
        "notes": report.notes,
        "tables": [
            {
                "key": t.key,
                "title": t.title,
                "source": t.source,
                "level": t.level,
                "intervals": t.interval_text,
                "note": t.note,
                "columns": t.columns,
                "rows": [
                    {"label": label, "cells": [c.as_dict() if isinstance(c, Cell) else c for c in cells]}
                    for label, cells in t.rows
                ],
            }
            for t in report.tables
        ],
    }


def as_csv(report: Report) -> str:
    """One CSV of every table: table, row, column, value, low, high, n (text cells in value)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["table", "row", "column", "value", "low", "high", "n", "level"])
    for table in report.tables:
        for label, cells in table.rows:
            for column, cell in zip(table.columns, cells, strict=True):
                if isinstance(cell, Cell):
                    writer.writerow([table.key, label, column, cell.value, cell.low, cell.high, cell.n, table.level])
                elif cell is not None:
                    writer.writerow([table.key, label, column, cell, "", "", "", ""])
    return out.getvalue()


def _md_table(table: Table) -> list[str]:
    escape = str.maketrans({"|": "\\|"})
    lines = [f"## {table.title}", "", f"*{table.source}*; {table.interval_text}.", ""]
    lines.append("| | " + " | ".join(c.translate(escape) for c in table.columns) + " |")
    lines.append("|---" * (len(table.columns) + 1) + "|")
    for label, cells in table.rows:
        lines.append(f"| {label.translate(escape)} | " + " | ".join(cell_text(c) for c in cells) + " |")
    if not table.rows:
        lines.append("| (no matches fit) |" + " |" * len(table.columns))
    if table.note:
        lines += ["", table.note]
    return [*lines, ""]


def as_markdown(report: Report) -> str:
    lines = [f"# {report.title}", "", report.citation, "", report.baseline["text"] + ".", ""]
    if report.filters.items():
        lines += ["Filters: " + ", ".join(f"{k}={v}" for k, v in report.filters.items()), ""]
    for table in report.tables:
        lines += _md_table(table)
    lines += [f"- {note}" for note in report.notes]
    return "\n".join(lines).rstrip() + "\n"


def rendered(report: Report, fmt: str) -> str:
    """The report as text in `fmt` (json, csv or md)."""
    if fmt == "json":
        return json.dumps(as_json(report), indent=2, ensure_ascii=False) + "\n"
    if fmt == "csv":
        return as_csv(report)
    if fmt == "md":
        return as_markdown(report)
    raise ValueError(f"format must be one of {', '.join(FORMATS)}")
