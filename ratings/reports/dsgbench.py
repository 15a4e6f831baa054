"""DSGBench: Werewolf's IRP and KSR, grounding accuracy (GA), win rate, and Eq. 3's weighted capability score over
the games we share with it (Werewolf, Stratego). Weights and normalisation bounds are settings
(`ARENA_DSGBENCH_SCORE`); definitions in docs/metrics.md, "Reports → DSGBench".
"""

from __future__ import annotations

from collections import defaultdict

from django.conf import settings

from arena.models import Attempt
from ratings import process_metrics as pm
from ratings.game_metrics import werewolf_social
from ratings.metrics import proportion
from ratings.reports.base import Cell, Report, ReportFilters, Table, finished_matches
from ratings.reports.record import Result, results, seat_labels

TITLE = "DSGBench: capability dimensions and Werewolf's social measures"
CITATION = "DSGBench §3 Eq. 3, Table 2 (dimension → metrics), Tables 17 and 19 (Werewolf, Stratego), GA."
GAMES = ("werewolf", "stratego")

#: Eq. 3's parameters. W (dimension weights) are the ones that reproduce the paper's Table 6 overall column
#: (0.25/0.20/0.20/0.15/0.20); β = 1 and the [0, 1] bounds are our choice (the paper publishes neither).
#: Each metric: (within-dimension weight w_j, theoretical minimum, theoretical maximum).
DEFAULT_SCORE = {
    "Strategic Planning": {"W": 0.25, "beta": 1.0, "metrics": {}},
    "Real-Time Decision-Making": {"W": 0.20, "beta": 1.0, "metrics": {}},
    "Social Reasoning": {"W": 0.20, "beta": 1.0, "metrics": {"IRP": (1.0, 0.0, 1.0)}},
    "Team Collaboration": {"W": 0.15, "beta": 1.0, "metrics": {"KSR": (1.0, 0.0, 1.0)}},
    "Adaptive Learning": {"W": 0.20, "beta": 1.0, "metrics": {"WR": (0.5, 0.0, 1.0), "GA": (0.5, 0.0, 1.0)}},
}


def score_config() -> dict:
    return getattr(settings, "ARENA_DSGBENCH_SCORE", DEFAULT_SCORE)


def dimension_scores(metrics: dict[str, float | None], config: dict) -> dict[str, float | None]:
    """Eq. 3 per dimension (×100) and "Overall": Σ_j w_j·(R_j − min_j)/(max_j − min_j), times β_i; Overall Σ_i W_i·….

    A dimension with no metric measured is None, and Overall renormalises W over the dimensions measured
    (our choice: the paper scores every dimension on every model)."""
    out: dict[str, float | None] = {}
    total = weight = 0.0
    for name, dim in config.items():
        parts = [
            (w, (metrics[m] - lo) / (hi - lo))
            for m, (w, lo, hi) in dim["metrics"].items()
            if metrics.get(m) is not None
        ]
        if not parts:
            out[name] = None
            continue
        value = dim["beta"] * sum(w * x for w, x in parts) / sum(w for w, _ in parts)
        out[name] = 100 * value
        total += dim["W"] * value
        weight += dim["W"]
    out["Overall"] = 100 * total / weight if weight else None
    return out


def win_rates(rows: list[Result]) -> dict[str, Cell]:
    """Per agent label: share of its matches won (a side's score of 1), Wilson 95%."""
    played: dict[str, list[tuple[int, bool]]] = defaultdict(list)
    for r in rows:
        for label in dict.fromkeys(r.labels):
            won = any(s == 1.0 for lab, s in zip(r.labels, r.scores, strict=True) if lab == label)
            played[label].append((r.match, won))
    return {
        label: Cell.of(proportion(sum(w for _, w in p), len(p)), [m for m, _ in p], unit="%")
        for label, p in played.items()
    }


def tables(measures: dict[str, dict[str, Cell]], *, config: dict) -> list[Table]:
    """The per-agent metrics table and the Eq. 3 score table (each score cell links to all the agent's matches)."""
    metric_names = ["IRP", "KSR", "WR", "GA"]
    rows = sorted(measures.items())
    dims = [*config, "Overall"]
    scored = []
    for label, cells in rows:
        values = dimension_scores({m: c.value for m, c in cells.items()}, config)
        ids = tuple(sorted({m for c in cells.values() for m in c.matches}))
        n = len(ids)
        scored.append((label, [Cell(values[d], None, None, n, ids) for d in dims]))
    return [
        Table(
            key="metrics",
            title="Fine-grained metrics (Werewolf IRP and KSR; WR and GA over Werewolf and Stratego)",
            source="DSGBench Tables 17 and 19, §3 (GA)",
            columns=metric_names,
            rows=[(label, [cells.get(m) for m in metric_names]) for label, cells in rows],
            note="IRP: a villager-side player's votes naming a werewolf / its votes. KSR: key-role (seer, werewolf) "
            "games survived / key-role games. GA: valid replies / replies judged. Wilson 95%. "
            "VSS, CPR and TPCV are not yet computed.",
        ),
        Table(
            key="eq-3",
            title="Eq. 3: capability dimensions and weighted score (×100)",
            source="DSGBench §3, Eq. 3, Table 2",
            columns=dims,
            rows=scored,
            note="Weights W, β and per-metric (w, min, max): "
            + "; ".join(
                f"{name} W={d['W']} β={d['beta']} "
                + (
                    ", ".join(f"{m} w={w} [{lo}, {hi}]" for m, (w, lo, hi) in d["metrics"].items())
                    or "no metric on our games"
                )
                for name, d in config.items()
            )
            + ". Set ARENA_DSGBENCH_SCORE to change them. No interval: Eq. 3 is a point score.",
        ),
    ]


def build(filters: ReportFilters) -> Report:
    matches = finished_matches(GAMES, filters)
    rows = results(matches)
    measures: dict[str, dict[str, Cell]] = defaultdict(dict)
    for label, cell in win_rates(rows).items():
        measures[label]["WR"] = cell
    by_agent: dict[str, set[int]] = defaultdict(set)
    for r in rows:
        if r.game == "werewolf":
            for label in r.labels:
                by_agent[label.partition(" (")[0]].add(r.match)
    for row in werewolf_social(matches.filter(game="werewolf")):
        for name in ("irp", "ksr"):
            if row[name]:
                for label in [lab for lab in measures if lab.partition(" (")[0] == row["agent"]] or [row["agent"]]:
                    measures[label][name.upper()] = Cell(
                        **row[name], matches=tuple(sorted(by_agent[row["agent"]])), unit="%"
                    )
    labels = seat_labels(matches)
    attempts: dict[str, list[pm.AttemptRecord]] = defaultdict(list)
    for match_id, ply, seat, number, verdict, transient in Attempt.objects.filter(match__in=matches).values_list(
        "match_id", "ply", "seat", "number", "verdict", "transient"
    ):
        if label := labels.get(match_id, {}).get(seat):
            attempts[label].append(pm.AttemptRecord((match_id, ply, seat), match_id, number, verdict, transient))
    for label, mine in attempts.items():
        measures[label]["GA"] = Cell.of(pm.grounding_accuracy(mine), [a.match for a in mine], unit="%")
    shown = {label: cells for label, cells in measures.items() if filters.shows(label)}
    return Report("dsgbench", TITLE, CITATION, tables(shown, config=score_config()), filters)
