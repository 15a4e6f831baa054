"""The Reports pages: an index, and one page per paper rendering the same `Report` as `manage.py report`."""

from __future__ import annotations

import hashlib
from urllib.parse import urlencode

from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from arena.pages.people import page_viewer
from arena.pages.ratelimit import limited
from arena.pages.refusal import refusal
from arena.record.selectors import match_list
from arena.studies.selectors import studies_shown
from ratings.record import charts
from ratings.record.filters import FilterError, choice
from ratings.record.reports import PAPERS, UnknownPaper, paper
from ratings.record.reports.base import Cell, Report, Table, report_filters
from ratings.record.reports.render import FORMATS, cell_text, rendered
from ratings.record.selectors import prompt_versions

#: A computed report is reused this long (seconds) for the same paper and filters: a visitor's work is bounded.
CACHE_SECONDS = 300
#: Cell notes that grey a cell out: too little data to lean on, or no value at all.
THIN_NOTES = ("thin", "undefined", "unbounded", "partial", "not connected", "separate group")
CONTENT_TYPES = {"json": "application/json", "csv": "text/csv; charset=utf-8", "md": "text/markdown; charset=utf-8"}


def index(request: HttpRequest) -> HttpResponse:
    papers = [(slug, paper(slug)) for slug in PAPERS]
    return render(request, "ratings/reports/index.html", {"papers": papers})


def report_cached(slug: str, request: HttpRequest) -> Report | HttpResponse:
    """The report for the request's filters: from the cache, else computed if the visitor's budget allows."""
    staff = request.user.is_staff
    try:
        filters = report_filters(
            request.GET, prompt_versions=prompt_versions, studies=lambda: [s.slug for s in studies_shown(staff=staff)]
        )
    except FilterError as error:
        return refusal(request, status=400, message=str(error))
    key = f"report:{slug}:{urlencode(filters.items())}"
    if filters.study:  # excluding or including a participant again changes the report at once
        people = ",".join(str(pk) for pk in sorted(filters.baseline.people))
        key += ":" + hashlib.sha256(people.encode()).hexdigest()[:16]
    report = cache.get(key)
    if report is None:
        if wait := limited(request, "report"):
            message = "You asked for too many new report filters; wait, or use filters already computed."
            return refusal(request, status=429, message=message, retry_after=wait)
        report = paper(slug).build(filters)
        cache.set(key, report, CACHE_SECONDS)
    return report


def report_page(request: HttpRequest, paper_slug: str) -> HttpResponse:
    """One paper's tables (HTML, or ?format=json|csv|md, the same text as `manage.py report`)."""
    try:
        paper(paper_slug)
        fmt = choice("format", request.GET.get("format", ""), ("", *FORMATS))
    except UnknownPaper as error:
        raise Http404(str(error)) from None
    except FilterError as error:
        return refusal(request, status=400, message=str(error))
    report = report_cached(paper_slug, request)
    if isinstance(report, HttpResponse):
        return report
    if fmt:
        response = HttpResponse(rendered(report, fmt), content_type=CONTENT_TYPES[fmt])
        if fmt != "json":
            response["Content-Disposition"] = f'attachment; filename="report-{paper_slug}.{fmt}"'
        return response
    query = urlencode(report.filters.items())
    context = {
        "report": report,
        "tables": linked_tables(report, query),
        "filters": report.filters,
        "query": query,
        "studies": studies_shown(staff=request.user.is_staff),
    }
    return render(request, "ratings/reports/paper.html", context)


def cell_matches(request: HttpRequest, paper_slug: str) -> HttpResponse:
    """The matches behind one cell (?table=key&row=i&col=j and the report's filters), each linking to its decisions."""
    try:
        paper(paper_slug)
    except UnknownPaper as error:
        raise Http404(str(error)) from None
    report = report_cached(paper_slug, request)
    if isinstance(report, HttpResponse):
        return report
    table = next((t for t in report.tables if t.key == request.GET.get("table")), None)
    try:
        row, col = int(request.GET.get("row", "")), int(request.GET.get("col", ""))
        label, cells = table.rows[row]
        cell = cells[col]
        column = table.columns[col]
    except (AttributeError, ValueError, IndexError):
        return refusal(request, status=400, message="No such cell: give table, row and col of a cell of this report.")
    ids = list(cell.matches) if isinstance(cell, Cell) else []
    page = Paginator(match_list(page_viewer(request)).filter(pk__in=ids), 50).get_page(request.GET.get("page"))
    context = {
        "report": report,
        "table": table,
        "label": label,
        "column": column,
        "cell": cell_text(cell),
        "page": page,
    }
    return render(request, "ratings/reports/cell.html", context)


def dot_plot(table: Table) -> dict | None:
    """GameBench's Figure 1 as a plotly figure, a panel per column (each game, then overall) stacked top to bottom,
    agents on the y axis of each, strength on x with the interval as whiskers. An unbounded cell is drawn at its
    bound as an open triangle pointing the way the data cannot bound, a one-sided interval: its whisker runs from
    the bound to the panel's edge that way, none the other."""
    panels = []
    for k, column in enumerate(table.columns):
        points = [(label, cells[k]) for label, cells in table.rows if isinstance(cells[k], Cell)]
        points = [(label, cell) for label, cell in points if cell.value is not None]
        if points:
            panels.append((column, points[::-1]))  # the best on top
    if not panels:
        return None
    heights = [len(points) + 1.5 for _, points in panels]
    total, gap = sum(heights), 0.04
    data, layout, top = [], {}, 1.0
    for number, ((column, points), height) in enumerate(zip(panels, heights, strict=True), start=1):
        share = (1.0 - gap * (len(panels) - 1)) * height / total
        suffix = "" if number == 1 else str(number)

        ends = [x for _, cell in points for x in (cell.low, cell.value, cell.high) if x is not None]
        right, left = max(ends) + 0.5, min(ends) - 0.5  # an open side's whisker runs to the panel's edge

        def upper(cell: Cell, right: float = right) -> float:
            if cell.note.startswith("unbounded above"):
                return right - cell.value
            return (cell.high if cell.high is not None else cell.value) - cell.value

        def lower(cell: Cell, left: float = left) -> float:
            if cell.note.startswith("unbounded below"):
                return cell.value - left
            return cell.value - (cell.low if cell.low is not None else cell.value)

        def symbol(cell: Cell) -> str:
            if cell.note.startswith("unbounded above"):
                return "triangle-right-open"
            return "triangle-left-open" if cell.note.startswith("unbounded below") else "circle"

        data.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": column,
                "showlegend": False,
                "xaxis": f"x{suffix}",
                "yaxis": f"y{suffix}",
                "y": [label for label, _ in points],
                "x": [cell.value for _, cell in points],
                "marker": {"symbol": [symbol(cell) for _, cell in points], "size": 9},
                "error_x": {
                    "type": "data",
                    "symmetric": False,
                    "array": [upper(cell) for _, cell in points],
                    "arrayminus": [lower(cell) for _, cell in points],
                },
                "text": [f"n={cell.n}{f' ({cell.note})' if cell.note else ''}" for _, cell in points],
                "hovertemplate": f"%{{y}} on {column}: %{{x:.2f}}, %{{text}}<extra></extra>",
            }
        )
        layout[f"xaxis{suffix}"] = {
            "anchor": f"y{suffix}",
            "zeroline": True,
            "title": {"text": f"{column}: strength (nats)"},
        }
        layout[f"yaxis{suffix}"] = {
            "anchor": f"x{suffix}",
            "domain": [max(0.0, top - share), top],
            "type": "category",
            "automargin": True,
        }
        top -= share + gap
    layout.update(
        {
            "title": {"text": f"{table.title} (whiskers: 90% interval; ▷— ≥ a bound, unbounded above)"},
            "margin": {"l": 140, "r": 20, "t": 50, "b": 40},
            "height": int(120 + 22 * total + 60 * len(panels)),
            "hovermode": "closest",
        }
    )
    return {"data": data, "layout": layout}


def radar(table: Table) -> dict | None:
    """A table as a radar: one outline per row over the columns, autoscaled (GameBench's nats can be negative);
    a cell left undefined (thin games only) is left out of its outline."""
    series = {label: [cell.value if isinstance(cell, Cell) else None for cell in cells] for label, cells in table.rows}
    if not any(v is not None for values in series.values() for v in values):
        return None
    return charts.radar(table.columns, series, title=table.title, radial_range=None)


def figure(table: Table) -> dict | None:
    """A table's chart as a plotly figure: one series per mode (the label after " · "), points with their intervals."""
    if table.dot_plot:
        return dot_plot(table)
    if table.radar:
        return radar(table)
    if table.chart is None:
        return None
    x, y, log_x = table.chart
    series: dict[str, list[tuple[str, Cell, Cell]]] = {}
    for label, cells in table.rows:
        cx, cy = cells[x], cells[y]
        if isinstance(cx, Cell) and isinstance(cy, Cell) and cx.value is not None and cy.value is not None:
            agent, _, name = label.partition(" · ")
            series.setdefault(name or "all", []).append((agent, cx, cy))
    if not series:
        return None

    def bar(points: list[tuple[str, Cell, Cell]], axis: str) -> dict:
        index = 1 if axis == "x" else 2
        upper = [(p[index].high or p[index].value) - p[index].value for p in points]
        lower = [p[index].value - (p[index].low or p[index].value) for p in points]
        return {"type": "data", "symmetric": False, "array": upper, "arrayminus": lower}

    data = [
        {
            "type": "scatter",
            "mode": "markers",
            "name": name,
            "x": [p[1].value for p in points],
            "y": [p[2].value for p in points],
            "error_x": bar(points, "x"),
            "error_y": bar(points, "y"),
            "text": [f"{p[0]} (n={p[1].n})" for p in points],
            "hovertemplate": "%{text}: %{y:.0f} at %{x:.0f}<extra></extra>",
        }
        for name, points in series.items()
    ]
    layout = {
        "title": {"text": table.title},
        "margin": {"l": 60, "r": 20, "t": 50, "b": 50},
        "hovermode": "closest",
        "xaxis": {"title": {"text": table.columns[x]}, "type": "log" if log_x else "linear"},
        "yaxis": {"title": {"text": table.columns[y]}},
    }
    return {"data": data, "layout": layout}


def linked_tables(report: Report, query: str) -> list[dict]:
    """The report's tables with each cell's text and the link to its matches."""
    out = []
    for table in report.tables:
        rows = []
        for i, (label, cells) in enumerate(table.rows):
            linked = []
            for j, cell in enumerate(cells):
                href = ""
                if isinstance(cell, Cell) and cell.matches:
                    href = f"cell/?table={table.key}&row={i}&col={j}" + (f"&{query}" if query else "")
                linked.append(
                    {
                        "text": cell_text(cell),
                        "href": href,
                        "thin": isinstance(cell, Cell) and cell.note.startswith(THIN_NOTES),
                    }
                )
            rows.append({"label": label, "cells": linked})
        out.append({"table": table, "rows": rows, "figure": figure(table), "figure_id": f"{table.key}-figure"})
    return out
