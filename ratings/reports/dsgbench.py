"""DSGBench: Werewolf's IRP and KSR, grounding accuracy (GA), win rate, and Eq. 3's weighted capability score over
the games we share with it (Werewolf, Stratego). Weights and normalisation bounds are settings
(`ARENA_DSGBENCH_SCORE`); definitions in docs/metrics.md, "Reports → DSGBench".
"""

from __future__ import annotations

from collections import Counter, defaultdict

import numpy as np
from django.conf import settings

from arena.models import Attempt, Decision
from games.stratego.pieces import COLONEL, COUNTS, GENERAL, MARSHAL, SPY, owner_of, rank_of
from ratings import process_metrics as pm
from ratings.metrics import bootstrap_mean, proportion
from ratings.reports.base import Cell, Report, ReportFilters, Table, finished_matches
from ratings.reports.record import Result, results, seat_labels

TITLE = "DSGBench: capability dimensions and Werewolf's social measures"
CITATION = "DSGBench §3 Eq. 3, Table 2 (dimension → metrics), Tables 17 and 19 (Werewolf, Stratego), GA."
GAMES = ("werewolf", "stratego")

#: Eq. 3's parameters. W (dimension weights) are the ones that reproduce the paper's Table 6 overall column
#: (0.25/0.20/0.20/0.15/0.20); β = 1 and the [0, 1] bounds are our choice (the paper publishes neither).
#: Each metric: (within-dimension weight w_j, theoretical minimum, theoretical maximum).
DEFAULT_SCORE = {
    "Strategic Planning": {"W": 0.25, "beta": 1.0, "metrics": {"CPR": (0.5, 0.0, 1.0), "TPCV": (0.5, 0.0, 148.0)}},
    "Real-Time Decision-Making": {"W": 0.20, "beta": 1.0, "metrics": {}},
    "Social Reasoning": {"W": 0.20, "beta": 1.0, "metrics": {"IRP": (1.0, 0.0, 1.0)}},
    "Team Collaboration": {"W": 0.15, "beta": 1.0, "metrics": {"KSR": (0.5, 0.0, 1.0), "VSS": (0.5, 0.0, 1.0)}},
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


#: Werewolf roles whose survival KSR counts (DSGBench: "e.g. Seer and Werewolf").
KEY_ROLES = ("seer", "werewolf")
#: Stratego's "critical" pieces for CPR (the paper does not say; its trace shows four a side): our choice,
#: the four highest ranks — Marshal, General and the two Colonels.
CRITICAL = (MARSHAL, GENERAL, COLONEL)
#: TPCV's value per rank (Table 19): Marshal 10 … Spy 1; Bombs and the Flag 0. The full army is worth 148.
TPCV_VALUE = {rank: rank for rank in range(SPY, MARSHAL + 1)}
#: Key decisions tracked per agent: Werewolf's action types, by stage (night: kill, inspect, protect; day: …).
ACTIONS = ("kill", "inspect", "protect", "vote", "abstain", "say")
#: Stratego's key decisions are its moves of play (setups are not tracked). Types: its §G.2 action space (move,
#: attack), with a scout's move of more than one square split out as a scout run (Table 18's "scout
#: reconnaissance"); an attack is any move onto an enemy piece, a scout's included.
STRATEGO_TYPES = ("move", "scout-run", "attack")
#: Stages (its Table 7 stages early / mid / late; the paper stages by step, Stratego games vary too much in
#: length): by material off the board before the move, of 80 pieces — early under 10, mid under 40, late after.
STRATEGO_STAGES = (("early", 10), ("mid", 40), ("late", 81))
STRATEGO_DECISIONS = tuple(f"{stage}: {kind}" for stage, _ in STRATEGO_STAGES for kind in STRATEGO_TYPES)


def stratego_decision(state_before: dict, action: object) -> str | None:
    """A Stratego decision as "stage: type" (STRATEGO_DECISIONS) from its recorded state before and action;
    None for a setup."""
    if not isinstance(action, list | tuple):
        return None
    frm, to = action
    kind = "attack" if state_before["board"][to] else "move" if abs(to - frm) in (1, 10) else "scout-run"
    removed = sum(len(lost) for lost in state_before["captured"])
    stage = next(name for name, below in STRATEGO_STAGES if removed < below)
    return f"{stage}: {kind}"


def stratego_decision_cells(decisions: list[tuple[int, str, dict, object]]) -> dict[str, dict[str, Cell]]:
    """Per agent label, the share of its Stratego moves of each "stage: type" (Wilson 95%, n = its moves), from
    (match, agent label, state before, action) per decision."""
    counts: dict[str, Counter] = defaultdict(Counter)
    ids: dict[str, set[int]] = defaultdict(set)
    for match, label, state_before, action in decisions:
        if decision := stratego_decision(state_before, action):
            counts[label][decision] += 1
            ids[label].add(match)
    out: dict[str, dict[str, Cell]] = {}
    for label, c in counts.items():
        total = sum(c.values())
        out[label] = {
            f"stratego:{d}": Cell.of(proportion(c[d], total), ids[label], unit="%") for d in STRATEGO_DECISIONS
        }
    return out


def werewolf_counts(r: Result) -> dict[str, Counter]:
    """Per agent label in one finished Werewolf game: IRP, KSR and VSS counts and its key decisions by type.

    VSS (our reading of "successful votes / critical votes"): a critical vote is a day vote naming a player
    by a villager-side player; it succeeds when that day's exile removed the named player and that player
    was a werewolf."""
    roles, alive, events = r.state["roles"], r.state["alive"], r.state["events"]
    exiled = {number: target for kind, number, _, target, _ in events if kind == "exile"}
    out: dict[str, Counter] = defaultdict(Counter)
    for kind, number, actor, target, _ in events:
        if actor < 0:
            continue
        mine = out[r.labels[actor]]
        mine["abstain" if kind == "vote" and target < 0 else kind] += 1
        if kind == "vote" and target >= 0 and roles[actor] != "werewolf":
            wolf = roles[target] == "werewolf"
            mine["irp_n"] += 1
            mine["irp"] += wolf
            mine["vss_n"] += 1
            mine["vss"] += wolf and exiled.get(number) == target
    for seat, role in enumerate(roles):
        if role in KEY_ROLES:
            out[r.labels[seat]]["ksr_n"] += 1
            out[r.labels[seat]]["ksr"] += bool(alive[seat])
    return out


def stratego_counts(r: Result) -> dict[str, Counter]:
    """Per agent label at the end of one Stratego game: critical pieces alive (of 4) and TPCV of its live pieces."""
    out: dict[str, Counter] = defaultdict(Counter)
    for seat, label in enumerate(r.labels):
        live = [rank_of(c) for c in r.state["board"] if c and owner_of(c) == seat]
        out[label]["cpr"] += sum(rank in CRITICAL for rank in live)
        out[label]["cpr_n"] += sum(COUNTS[rank] for rank in CRITICAL)
        out[label]["tpcv"] += sum(TPCV_VALUE.get(rank, 0) for rank in live)
        out[label]["games"] += 1
    return out


def game_measures(rows: list[Result], rng: np.random.Generator) -> dict[str, dict[str, Cell]]:
    """IRP, KSR, VSS (Werewolf), CPR, TPCV (Stratego) and the decision-type shares per agent label."""
    counts: dict[str, Counter] = defaultdict(Counter)
    ids: dict[tuple[str, str], list[int]] = defaultdict(list)
    tpcv: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        per = werewolf_counts(r) if r.game == "werewolf" else stratego_counts(r) if r.game == "stratego" else {}
        for label, c in per.items():
            counts[label].update(c)
            ids[(label, r.game)].append(r.match)
            if r.game == "stratego":
                tpcv[label].append(c["tpcv"] / c["games"])
    out: dict[str, dict[str, Cell]] = defaultdict(dict)
    for label, c in counts.items():
        wolf, strat = ids.get((label, "werewolf"), []), ids.get((label, "stratego"), [])
        for name in ("irp", "ksr", "vss"):
            if c[f"{name}_n"]:
                out[label][name.upper()] = Cell.of(proportion(c[name], c[f"{name}_n"]), wolf, unit="%")
        if c["cpr_n"]:
            out[label]["CPR"] = Cell.of(proportion(c["cpr"], c["cpr_n"]), strat, unit="%")
            out[label]["TPCV"] = Cell.of(bootstrap_mean(tpcv[label], rng=rng, rounds=500), strat)
        decisions = sum(c[a] for a in ACTIONS)
        if decisions:
            for action in ACTIONS:
                out[label][f"decisions:{action}"] = Cell.of(proportion(c[action], decisions), wolf, unit="%")
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
    metric_names = ["IRP", "KSR", "VSS", "CPR", "TPCV", "WR", "GA"]
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
            title="Fine-grained metrics (Werewolf IRP, KSR, VSS; Stratego CPR, TPCV; WR and GA over both)",
            source="DSGBench Tables 17 and 19, §3 (GA)",
            columns=metric_names,
            rows=[(label, [cells.get(m) for m in metric_names]) for label, cells in rows],
            note="IRP: a villager-side player's votes naming a werewolf / its votes. KSR: key-role (seer, werewolf) "
            "games survived / key-role games. VSS: its votes that named a werewolf exiled that day / its votes "
            "naming a player. CPR: Marshal, General and Colonels alive at the end / fielded. TPCV: value of its "
            "live pieces at the end (Marshal 10 … Spy 1; 148 at the start), 95% bootstrap. GA: valid replies / "
            "replies judged. Proportions Wilson 95%.",
        ),
        Table(
            key="decisions",
            title="Decision tracking: key decisions by type and stage (Werewolf)",
            source="DSGBench §3 (decision tracking)",
            columns=[f"{'night' if a in ('kill', 'inspect', 'protect') else 'day'}: {a}" for a in ACTIONS],
            rows=[
                (label, [cells.get(f"decisions:{a}") for a in ACTIONS])
                for label, cells in rows
                if any(k.startswith("decisions:") for k in cells)
            ],
            note="Share of the agent's Werewolf decisions of each type; n = its decisions. Wilson 95%.",
        ),
        Table(
            key="decisions-stratego",
            title="Decision tracking: key decisions by type and stage (Stratego)",
            source="DSGBench §3 (decision tracking), §G.2 (Stratego's actions)",
            columns=list(STRATEGO_DECISIONS),
            rows=[
                (label, [cells.get(f"stratego:{d}") for d in STRATEGO_DECISIONS])
                for label, cells in rows
                if any(k.startswith("stratego:") for k in cells)
            ],
            note="Share of the agent's Stratego moves of each stage and type; n = its moves. A scout run is a move "
            "of more than one square; an attack is a move onto an enemy piece. Stage by pieces off the board "
            "before the move: early under 10 of 80, mid under 40, late after. Wilson 95%.",
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
    rows = results(matches, with_state=True)
    measures: dict[str, dict[str, Cell]] = defaultdict(dict)
    for label, cell in win_rates(rows).items():
        measures[label]["WR"] = cell
    for label, cells in game_measures(rows, np.random.default_rng(0)).items():
        measures[label].update(cells)
    labels = seat_labels(matches)
    moves = Decision.objects.filter(match__in=matches, match__game="stratego").order_by("match_id", "ply")
    decisions = [
        (match_id, label, state_before, action)
        for match_id, seat, state_before, action in moves.values_list("match_id", "seat", "state_before", "action")
        if (label := labels.get(match_id, {}).get(seat))
    ]
    for label, cells in stratego_decision_cells(decisions).items():
        measures[label].update(cells)
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
