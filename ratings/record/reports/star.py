"""STAR (Li et al. 2026): Tables 1–2 (SER, PWER with STAR's ±, win rate per mode), Table 3 (TCE, SAE) and the
strategy–execution gap (rating against decision time, per mode). Definitions in docs/metrics.md, "Reports → STAR".
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
from django.db.models import QuerySet

from arena.models import Decision, Match
from ratings.maths import elo
from ratings.maths.metrics import Estimate, bootstrap_quantile, proportion
from ratings.record.game_metrics import star_error_rates, star_performance
from ratings.record.report_record import Result, results
from ratings.record.reports.base import Cell, Report, ReportFilters, Table, finished_matches, with_departures
from ratings.record.reports.published import with_published

TITLE = "STAR: strategic reasoning and rapid decisions (skirmish)"
CITATION = "Li et al., Beyond Scaling (STAR, 2026), §4.1 eqs. (2)–(4), Tables 1–3, §4.3 (strategy–execution gap)."
MODES = ("turn-based", "real-time")
SHUFFLES = 1000


def mode_of(result: Result) -> str:
    return result.state.get("mode", "turn-based") if result.state else "turn-based"


def leaderboard(rows: list[Result], *, rng: np.random.Generator, shuffles: int = SHUFFLES) -> dict[str, list[Cell]]:
    """Per agent label over two-seat skirmish results of one mode: [PWER ± sd, SER ± sd, win rate], as Tables 1–2.

    ± is the standard deviation of the final rating over `shuffles` random match orders (STAR's code); the
    value is the mean over those orders. Win rate counts a draw as not won."""
    labels = sorted({label for r in rows for label in r.labels})
    index = {label: i for i, label in enumerate(labels)}
    a, b, score, perf, matches = [], [], [], [], defaultdict(list)
    for r in rows:
        if len(r.labels) != 2 or r.labels[0] == r.labels[1]:
            continue
        a.append(index[r.labels[0]])
        b.append(index[r.labels[1]])
        score.append(r.scores[0])
        star = star_performance(r.state) if r.state else None
        perf.append(star or (np.nan,) * 4)
        for label in r.labels:
            matches[label].append(r)
    if not a:
        return {}
    p = np.asarray(perf, dtype=float)
    multiplier = elo.performance_multiplier(score, p[:, 0], p[:, 1], p[:, 2], p[:, 3])
    pwer_mean, pwer_sd = elo.order_spread(
        a, b, score, n_agents=len(labels), rng=rng, shuffles=shuffles, multiplier=multiplier
    )
    ser_mean, ser_sd = elo.order_spread(a, b, score, n_agents=len(labels), rng=rng, shuffles=shuffles)
    out = {}
    for label, played in matches.items():
        i, ids = index[label], [r.match for r in played]
        wins = sum(r.scores[r.labels.index(label)] == 1.0 for r in played)
        out[label] = [
            Cell(
                float(pwer_mean[i]),
                float(pwer_mean[i] - pwer_sd[i]),
                float(pwer_mean[i] + pwer_sd[i]),
                len(ids),
                tuple(ids),
            ),
            Cell(
                float(ser_mean[i]), float(ser_mean[i] - ser_sd[i]), float(ser_mean[i] + ser_sd[i]), len(ids), tuple(ids)
            ),
            Cell.of(proportion(wins, len(played)), ids, unit="%"),
        ]
    return out


def row_key(label: str, mode: str) -> str:
    """A per-mode row: "agent · mode" (the agent label carries its scaffold)."""
    return f"{label} · {mode}"


def mode_labels(rows: list[Result]) -> dict[int, dict[int, str]]:
    """Per match, per seat, its per-mode row key: agent, scaffold and the match's mode."""
    return {r.match: {seat: row_key(label, mode_of(r)) for seat, label in enumerate(r.labels)} for r in rows}


def decision_times(matches: QuerySet[Match], labels: dict[int, dict[int, str]]) -> dict[str, list[tuple[int, int]]]:
    """Per row key (`labels[match][seat]`): (match, elapsed ms) of every decision made in that seat."""
    times: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for match_id, seat, elapsed in Decision.objects.filter(match__in=matches).values_list(
        "match_id", "seat", "elapsed_ms"
    ):
        label = labels.get(match_id, {}).get(seat)
        if label is not None:
            times[label].append((match_id, elapsed))
    return times


def gap_cells(
    board: dict[str, list[Cell]], times: dict[str, list[tuple[int, int]]], mode: str, rng
) -> dict[str, list[Cell]]:
    """The strategy–execution gap per agent in one mode: its PWER in that mode beside the median time of the
    decisions it made in that mode's matches (bootstrap 95% interval); `times` is keyed by `row_key`."""
    out = {}
    for label, cells in board.items():
        mine = times.get(row_key(label, mode), [])
        median = (
            bootstrap_quantile([ms for _, ms in mine], 0.5, rng=rng, rounds=500)
            if mine
            else Estimate(None, None, None, 0)
        )
        out[label] = [cells[0], Cell.of(median, [m for m, _ in mine])]
    return out


SD_NOTE = (
    "PWER and SER: mean ± one standard deviation over 1,000 random match orders "
    "(STAR's ±, order sensitivity, not a confidence interval)"
)


def tables(
    by_mode: dict[str, list[Result]],
    errors: list[dict],
    times: dict[str, list[tuple[int, int]]],
    *,
    filters: ReportFilters,
    seed: int = 0,
) -> list[Table]:
    """Tables 1–2 per mode, Table 3 per agent and mode, and the gap; `errors` rows and `times` are keyed by
    `row_key` (agent label · mode)."""
    rng = np.random.default_rng(seed)
    out = []
    gap_rows = []
    for number, mode in enumerate(MODES, start=1):
        board = {k: v for k, v in leaderboard(by_mode.get(mode, []), rng=rng).items() if filters.shows(k)}
        order = sorted(board, key=lambda label: -board[label][0].value)
        out.append(
            Table(
                key=f"table-{number}",
                title=f"Table {number}: {mode} leaderboard",
                source=f"STAR Table {number}, §4.1 eqs. (2)–(4)",
                columns=["PWER", "SER", "Win rate"],
                rows=[(label, board[label]) for label in order],
                note="PWER and SER: mean over 1,000 random match orders, the interval is ± one standard deviation "
                "over those orders (STAR's ±: order sensitivity, not sampling error). Win rate: Wilson 95%.",
                level=None,
                intervals=f"{SD_NOTE}; win rate: Wilson 95% interval",
            )
        )
        gap = gap_cells(board, times, mode, rng)
        gap_rows += [(row_key(label, mode), gap[label]) for label in order]
    errors = [e for e in errors if filters.shows(e["agent"].rpartition(" · ")[0])]
    out.append(
        Table(
            key="table-3",
            title="Table 3: tool-call and spatial errors, per agent and mode",
            source="STAR §4.4, Table 3",
            columns=["Actions per game", "TCE", "SAE", "Fog halts"],
            rows=[
                (
                    e["agent"],
                    [
                        Cell(e["actions_per_game"], None, None, e["games"], tuple(e["matches"])),
                        Cell(**{**e["failed"], "matches": tuple(e["matches"]), "unit": "%"}),
                        Cell(**{**e["spatial"], "matches": tuple(e["matches"]), "unit": "%"}),
                        Cell(e["halts"], None, None, e["games"], tuple(e["matches"])),
                    ],
                )
                for e in errors
            ],
            note="TCE = failed commands / commands; SAE = spatial failures / failed commands, a spatial failure "
            "being a rejected command that broke a spatial constraint (off the map, water, out of range, occupied). "
            "Fog halts (a march stopped by an enemy it could not see) count as failed commands in TCE but not as "
            "spatial errors: the command broke no constraint the agent could see. Actions per game and fog "
            "halts are counts (n = games).",
            intervals="TCE and SAE: Wilson 95% intervals; actions per game and fog halts: counts, no interval",
        )
    )
    out.append(
        Table(
            key="gap",
            title="Strategy–execution gap: rating against decision time, per mode",
            source="STAR §4.3",
            columns=["PWER", "Median decision time (ms)"],
            rows=gap_rows,
            note="Each row pairs the agent's PWER in one mode with the median time of its decisions in that "
            "mode's matches only (n = those decisions), with a 95% bootstrap interval.",
            chart=(1, 0, True),
            level=None,
            intervals="PWER: mean ± one standard deviation over 1,000 match orders; "
            "median time: 95% bootstrap interval",
        )
    )
    return out


def build(filters: ReportFilters) -> Report:
    matches = finished_matches(["skirmish"], filters)
    rows = results(matches, with_state=True, baseline=filters.baseline)
    by_mode: dict[str, list[Result]] = defaultdict(list)
    for r in rows:
        by_mode[mode_of(r)].append(r)
    labels = mode_labels(rows)
    errors = star_error_rates(matches, labels=labels)
    return Report(
        "star",
        TITLE,
        with_departures("star", CITATION),
        with_published("star", tables(by_mode, errors, decision_times(matches, labels), filters=filters)),
        filters,
    )
