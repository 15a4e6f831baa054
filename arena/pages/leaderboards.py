"""Leaderboards and analysis pages. They read snapshots and cheap aggregates; they never fit per request."""

from __future__ import annotations

import csv

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from arena.pages.ratelimit import limited
from arena.pages.refusal import refusal
from arena.record.selectors import first_run_progress
from arena.studies.selectors import leaderboard_baseline, studies_for_leaderboard
from games import UnknownGame, all_games, get_game
from ratings.record import charts
from ratings.record.analysis import analysis_tables, head_to_head_table
from ratings.record.filters import FORMATS, FilterError, choice, leaderboard_query
from ratings.record.glossary import TERMS
from ratings.record.plan_metrics import FEW_AGENTS_FOR_CORRELATION
from ratings.record.replay import MIN_PEOPLE_FOR_BANDS
from ratings.record.selectors import (
    LEADERBOARD_COLUMNS,
    grouped,
    leaderboard_rows,
    prompt_versions,
    snapshot_for,
)
from ratings.record.services import SnapshotsBusy, snapshot_touch
from ratings.record.tasks import snapshot_open_and_queue


def _game_or_404(slug: str) -> str:
    if not slug:
        return ""
    try:
        return get_game(slug).slug
    except UnknownGame:
        raise Http404(f"No game called {slug!r}.") from None


#: Columns the leaderboard sorts by (?sort=elo descending, ?sort=-elo ascending), with their headings.
SORT_COLUMNS = [
    ("rating", "Rating (95% CI)"),
    ("elo", "Elo"),
    ("pwer", "PWER"),
    ("matches", "n"),
    ("win_rate", "Win %"),
    ("invalid_rate", "Invalid %"),
    ("latency_ms_p50", "p50 time"),
    ("cost_per_match", "Cost / match"),
]
SORTABLE = {key for key, _ in SORT_COLUMNS}


def _rating_key_or_404(game: str, variant: str) -> str:
    """The snapshot scope of a game page: the game, or "game:variant" (each variant is rated apart)."""
    if not variant:
        return game
    if not game or variant not in get_game(game).variants:
        raise Http404(f"No variant {variant!r} of {game or 'all games'}.")
    return f"{game}:{variant}"


def leaderboard(request: HttpRequest, game: str = "") -> HttpResponse:
    """The main leaderboard (Bradley–Terry, Elo, PWER), overall or for one game (or variant); CSV, JSON."""
    game = _game_or_404(game)
    variant = request.GET.get("variant", "")
    scope = _rating_key_or_404(game, variant)
    try:
        query = leaderboard_query(request.GET, prompt_versions=prompt_versions, sortable=SORTABLE)
    except FilterError as error:
        return refusal(request, status=400, message=str(error))
    filters, kinds, scaffold, sort = query.fit, query.kinds, query.scaffold, query.sort
    snapshot = snapshot_for(game=scope, filters=filters)
    if snapshot is None:
        if wait := limited(request, "refit"):
            message = "You asked for too many new leaderboard filters; wait, or use filters already computed."
            return refusal(request, status=429, message=message, retry_after=wait)
        try:
            snapshot = snapshot_open_and_queue(game=scope, filters=filters)
        except SnapshotsBusy as busy:
            return refusal(request, status=503, message=str(busy), retry_after=60)
    else:
        snapshot_touch(snapshot=snapshot)
    ready = "rows" in snapshot.data
    rows = leaderboard_rows(snapshot, kinds=kinds, scaffold=scaffold) if ready else []
    column = sort.lstrip("-")
    if column:
        present = [r for r in rows if r[column] is not None]
        present.sort(key=lambda r: r[column], reverse=not sort.startswith("-"))
        rows = present + [r for r in rows if r[column] is None]  # missing values last either way
    baseline = snapshot.data.get("baseline") if "human" in kinds else None
    staff = request.user.is_staff
    # A study's baseline is fitted on every match of the game: shown beside an unfiltered leaderboard only.
    studies = studies_for_leaderboard(scope, staff=staff) if scope and not variant and not filters else []
    chosen = request.GET.get("study", "")
    study_baseline = leaderboard_baseline(chosen, scope, staff=staff) if chosen and studies else None
    if query.format == "json":
        return JsonResponse(
            {
                "game": scope or "all",
                "filters": filters,
                "computed_at": snapshot.computed_at.isoformat(),
                "ready": ready,
                "error": snapshot.error or None,
                "rows": rows,
                "human_baseline": baseline,
                "study_baseline": study_baseline,
                "first_move_advantage": snapshot.data.get("first_move_advantage"),
                "first_move_interval": snapshot.data.get("first_move_interval"),
                "components": snapshot.data.get("components", []),
            }
        )
    if query.format == "csv":
        return _csv(rows, baseline, f"leaderboard-{(scope or 'all').replace(':', '-')}.csv")
    context = {
        "game": game,
        "variant": variant,
        "variants": list(get_game(game).variants) if game else [],
        "games": all_games(),
        "snapshot": snapshot,
        "components": snapshot.data.get("components", []),
        "ready": ready,
        "rows": rows if column else grouped(rows),  # in board order, a heading over each group
        "baseline": baseline,
        "studies": studies,
        "study_baseline": study_baseline,
        "kinds": kinds,
        "kind_names": charts.KIND_NAMES.items(),
        "scaffold": scaffold,
        "filters": filters,
        "query": request.GET.urlencode(),
        "filter_query": "&".join(f"{k}={v}" for k, v in request.GET.items() if k not in ("sort", "format")),
        "sort": sort,
        "sort_columns": SORT_COLUMNS,
        "chart": charts.rating_intervals(ranked, baseline) if (ranked := [r for r in rows if r["ranked"]]) else None,
        "rank_min_games": settings.ARENA_RANK_MIN_GAMES,
        "baseline_min_people": MIN_PEOPLE_FOR_BANDS,
        "seeding": first_run_progress(),
    }
    template = "ratings/partials/leaderboard-body.html" if request.htmx else "ratings/leaderboard.html"
    return render(request, template, context)


def _csv(rows: list[dict], baseline: dict | None, filename: str) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.DictWriter(response, fieldnames=LEADERBOARD_COLUMNS, extrasaction="ignore")
    writer.writeheader()
    writer.writerows(rows)
    if baseline:
        writer.writerow({k: baseline.get(k) for k in LEADERBOARD_COLUMNS})
    return response


PROCESS_COLUMNS = [
    "WR",
    "initial WR",
    "ORR",
    "CSR",
    "improvement slope",
    "OBR",
    "RVR",
    "constructive rate",
    "revision similarity",
    "FMA (WR)",
    "FMA (ORR)",
    "FMA (CSR)",
]


def _table_csv(rows: list[dict], filename: str) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    columns = list(dict.fromkeys(key for row in rows for key in row))
    writer = csv.DictWriter(response, fieldnames=columns)
    writer.writeheader()
    writer.writerows(rows)
    return response


def _head_to_head_csv(h2h: dict) -> list[dict]:
    """One row per agent: its score fraction against each other agent of the game."""
    return [
        {"agent": a, **{b: h2h["fractions"][i][j] for j, b in enumerate(h2h["labels"])}}
        for i, a in enumerate(h2h["labels"])
    ]


def _ladder_csv(ladder: dict) -> list[dict]:
    """One row per candidate: its (level, progress) on each game's ladder."""
    return [{"agent": r["slug"], **r["cells"]} for r in ladder["rows"]]


def _process_csv(process: list[dict]) -> list[dict]:
    """One row per agent: its rounds and each plan-and-revise metric's value."""
    return [
        {"agent": r["agent"], "rounds": r["rounds"], **{k: v["value"] for k, v in r["metrics"].items()}}
        for r in process
    ]


def _star_errors_csv(star: list[dict]) -> list[dict]:
    """One row per agent: its skirmish commands, actions per game and failed and spatial error rates."""
    return [
        {
            "agent": r["agent"],
            "commands": r["commands"],
            "actions_per_game": r["actions_per_game"],
            "failed": r["failed"]["value"],
            "spatial": r["spatial"]["value"],
        }
        for r in star
    ]


def _analysis_csv(request: HttpRequest, tables: dict, h2h: dict, process: list[dict]) -> HttpResponse:
    """The one table `?table=` names as CSV (the first-mover table when none is named)."""
    csv_tables = {
        "first-mover": lambda: tables["first_mover"],
        "head-to-head": lambda: _head_to_head_csv(h2h),
        "ladder": lambda: _ladder_csv(tables["ladder"]),
        "process": lambda: _process_csv(process),
        "star-errors": lambda: _star_errors_csv(tables["star_errors"]),
    }
    name = request.GET.get("table", "first-mover")
    if name not in csv_tables:
        message = f"table={name[:40]!r} is not known; choose one of {', '.join(csv_tables)}."
        return refusal(request, status=400, message=message)
    return _table_csv(csv_tables[name](), f"{name}.csv")


def _first_mover_chart(first_mover: list[dict]) -> dict | None:
    overall = [r for r in first_mover if r["pairing"] == "all"]
    return charts.first_mover_bars(overall) if overall else None


def _head_to_head_chart(h2h: dict) -> dict | None:
    return charts.heatmap(h2h["labels"], h2h["fractions"], h2h["counts"]) if h2h["labels"] else None


def _latency_chart(rows: list[dict], baseline: dict | None) -> dict | None:
    if not rows:
        return None
    title = "Strength against thinking time"
    return charts.scatter(
        rows, "latency_ms_p50", "median decision time (ms, log)", title, log_x=True, baseline=baseline
    )


def _cost_chart(rows: list[dict], baseline: dict | None) -> dict | None:
    if not any(r.get("cost_per_match") for r in rows):
        return None
    return charts.scatter(rows, "cost_per_match", "cost per match ($)", "Strength against cost", baseline=baseline)


def analysis(request: HttpRequest) -> HttpResponse:
    """First-mover analysis, head to head, strategy vs execution, and the ladder table."""
    games = all_games()
    slugs = [g.slug for g in games]
    try:
        game = choice("game", request.GET.get("game", ""), ["", *slugs]) or slugs[0]
        output = choice("format", request.GET.get("format", ""), FORMATS)
    except FilterError as error:
        return refusal(request, status=400, message=str(error))
    tables = analysis_tables()
    variant = request.GET.get("variant", "")
    h2h = head_to_head_table(_rating_key_or_404(game, variant))
    snapshot = snapshot_for(game="", filters={})
    fitted = snapshot.data if snapshot else {}
    rows, baseline, process = fitted.get("rows", []), fitted.get("baseline"), fitted.get("process", [])
    if output == "csv":
        return _analysis_csv(request, tables, h2h, process)
    if output == "json":
        return JsonResponse(
            {
                "first_mover": tables["first_mover"],
                "head_to_head": {"game": game, **h2h},
                "ladder": tables["ladder"],
                "star_errors": tables["star_errors"],
                "werewolf": tables["werewolf"],
            }
        )
    context = {
        "games": games,
        "game": game,
        "variant": variant,
        "variants": list(get_game(game).variants),
        "first_mover": tables["first_mover"],
        "first_mover_chart": _first_mover_chart(tables["first_mover"]),
        "h2h_chart": _head_to_head_chart(h2h),
        "latency_chart": _latency_chart(rows, baseline),
        "cost_chart": _cost_chart(rows, baseline),
        "ladder": tables["ladder"],
        "star_errors": tables["star_errors"],
        "werewolf": tables["werewolf"],
        "process": process,
        "correlations": fitted.get("correlations", []),
        "process_columns": PROCESS_COLUMNS,
        "correlation_few": FEW_AGENTS_FOR_CORRELATION,
    }
    return render(request, "ratings/analysis.html", context)


def glossary(request: HttpRequest) -> HttpResponse:
    """Every metric and acronym the pages show, defined for people; the pages' <abbr> links land here."""
    return render(request, "ratings/glossary.html", {"terms": TERMS, "rank_min_games": settings.ARENA_RANK_MIN_GAMES})
