"""DSGBench: its fine-grained metrics and Eq. 3's weighted capability score over the games we share with it
(Diplomacy, Werewolf, Stratego), each metric read from the game Table 2 maps it to. Weights and normalisation
bounds are settings (`ARENA_DSGBENCH_SCORE`); definitions in docs/metrics.md, "Reports → DSGBench".
"""

from __future__ import annotations

from collections import Counter, defaultdict

import numpy as np
from django.conf import settings

from arena.models import Attempt, Decision
from games.stratego.pieces import COLONEL, COUNTS, GENERAL, MARSHAL, SPY, owner_of, rank_of
from ratings.maths import process_metrics as pm
from ratings.maths.metrics import proportion
from ratings.record.game_metrics import diplomacy_metrics
from ratings.record.report_record import Result, results, seat_labels
from ratings.record.reports.base import Cell, Report, ReportFilters, Table, finished_matches, with_departures
from ratings.record.reports.gamebench import min_games
from ratings.record.reports.published import with_published

TITLE = "DSGBench: capability dimensions and Werewolf's social measures"
CITATION = "DSGBench §3 Eq. 3, Table 2 (dimension → metrics), Tables 15, 17 and 19 (Diplomacy, Werewolf, Stratego), GA."
GAMES = ("diplomacy", "werewolf", "stratego")
#: Table 2 over our games: each Eq. 3 metric and the game it is read from (WR and GA: Stratego, the one game of
#: ours Table 2 lists under Adaptive Learning).
METRIC_GAME = {
    "CCC": "diplomacy",
    "WS": "diplomacy",
    "BIR": "diplomacy",
    "ASR": "diplomacy",
    "AD": "diplomacy",
    "IRP": "werewolf",
    "KSR": "werewolf",
    "VSS": "werewolf",
    "CPR": "stratego",
    "TPCV": "stratego",
    "WR": "stratego",
    "GA": "stratego",
}
#: Metrics that are proportions of counted trials (Wilson intervals); the others are means per game (per power in
#: Diplomacy), with bootstrap intervals over the agent's matches.
PROPORTIONS = frozenset({"IRP", "KSR", "VSS", "CPR", "WR", "GA"})
#: The Diplomacy horizon: movement phases from S1901 to F1910 (games.diplomacy.rules.DEFAULT_MAX_YEAR).
DIPLOMACY_PHASES = 20

#: Eq. 3's parameters. W (dimension weights) are the ones that reproduce the paper's Table 6 overall column
#: (0.25/0.20/0.20/0.15/0.20); β = 1 and the [0, 1] bounds are our choice (the paper publishes neither).
#: Each metric: (within-dimension weight w_j, theoretical minimum, theoretical maximum).
DEFAULT_SCORE = {
    "Strategic Planning": {
        "W": 0.25,
        "beta": 1.0,
        "metrics": {
            "CCC": (0.25, 0.0, 34.0),
            "WS": (0.25, 0.0, 1.0),
            "CPR": (0.25, 0.0, 1.0),
            "TPCV": (0.25, 0.0, 148.0),
        },
    },
    "Real-Time Decision-Making": {"W": 0.20, "beta": 1.0, "metrics": {}},
    "Social Reasoning": {"W": 0.20, "beta": 1.0, "metrics": {"BIR": (0.5, 0.0, 1.0), "IRP": (0.5, 0.0, 1.0)}},
    "Team Collaboration": {
        "W": 0.15,
        "beta": 1.0,
        "metrics": {
            "ASR": (0.25, 0.0, 1.0),
            "AD": (0.25, 0.0, float(DIPLOMACY_PHASES)),
            "KSR": (0.25, 0.0, 1.0),
            "VSS": (0.25, 0.0, 1.0),
        },
    },
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


#: Table 2 reads Stratego's metrics from one scenario each: CPR and TPCV (Strategic Planning) from random
#: placement, WR and GA (Adaptive Learning) from fixed placement. A game under the setup phase ("chosen") counts
#: for all four.
SCENARIO_METRICS = {"random": ("cpr", "tpcv"), "fixed": ("wr", "ga"), "chosen": ("cpr", "tpcv", "wr", "ga")}


def stratego_counts(r: Result) -> dict[str, Counter]:
    """Per agent label at the end of one Stratego game: critical pieces alive (of 4), TPCV of its live pieces
    (summed over its seats, `tpcv_n` games) and its win (`wr` of `wr_n`), each where its scenario counts it
    (`SCENARIO_METRICS`)."""
    counted = SCENARIO_METRICS[(r.options or {}).get("placement", "chosen")]
    out: dict[str, Counter] = defaultdict(Counter)
    for seat, label in enumerate(r.labels):
        live = [rank_of(c) for c in r.state["board"] if c and owner_of(c) == seat]
        found = {
            "cpr": (sum(rank in CRITICAL for rank in live), sum(COUNTS[rank] for rank in CRITICAL)),
            "tpcv": (sum(TPCV_VALUE.get(rank, 0) for rank in live), 1),
            "wr": (r.scores[seat] == 1.0, 1),
        }
        for name, (value, trials) in found.items():
            if name in counted:
                out[label][name] += value
                out[label][f"{name}_n"] += trials
    return out


def diplomacy_counts(r: Result) -> dict[str, Counter]:
    """Per agent label in one finished Diplomacy game: CCC, WS, BIR, ASR and AD summed over the powers it played
    (`<metric>_n` powers with the metric defined), from `ratings.record.game_metrics.diplomacy_metrics`."""
    out: dict[str, Counter] = defaultdict(Counter)
    for seat, metrics in enumerate(diplomacy_metrics(r.state)):
        mine = out[r.labels[seat]]
        for name in ("ccc", "ws", "bir", "asr", "ad"):
            if metrics[name] is not None:
                mine[name] += metrics[name]
                mine[f"{name}_n"] += 1
    return out


def match_counts(r: Result) -> dict[str, Counter]:
    """One finished game's counts per agent label: `<metric>` and `<metric>_n` (successes and trials for a
    proportion, sum and games for a mean), and Werewolf's decisions by type."""
    counts = {"werewolf": werewolf_counts, "stratego": stratego_counts, "diplomacy": diplomacy_counts}.get(r.game)
    return counts(r) if counts else {}


def metric_value(counts: Counter, metric: str) -> float | None:
    """A metric from summed counts: Σ`<metric>` / Σ`<metric>_n`; None when nothing was counted."""
    key = metric.lower()
    return counts[key] / counts[f"{key}_n"] if counts[f"{key}_n"] else None


def per_match(rows: list[Result]) -> dict[str, dict[int, Counter]]:
    """Per agent label, per match it played, that match's counts."""
    out: dict[str, dict[int, Counter]] = defaultdict(dict)
    for r in rows:
        for label, c in match_counts(r).items():
            out[label][r.match] = c
    return dict(out)


def metric_cell(mine: dict[int, Counter], metric: str, rng: np.random.Generator, rounds: int = 500) -> Cell | None:
    """One agent's metric over its matches of the metric's game: Wilson 95% for a proportion, else the mean per
    game with a 95% bootstrap interval resampling matches; None when the agent has no count of it."""
    key = metric.lower()
    used = {m: c for m, c in mine.items() if c[f"{key}_n"]}
    if not used:
        return None
    total = sum(used.values(), Counter())
    if metric in PROPORTIONS:
        return Cell.of(proportion(round(total[key]), int(total[f"{key}_n"])), used, unit="%")
    ids = list(used)
    sums = np.array([[used[m][key], used[m][f"{key}_n"]] for m in ids], dtype=float)
    picks = rng.integers(0, len(ids), size=(rounds, len(ids)))
    samples = sums[picks, 0].sum(axis=1) / sums[picks, 1].sum(axis=1)
    low, high = np.quantile(samples, [0.025, 0.975])
    return Cell(float(total[key] / total[f"{key}_n"]), float(low), float(high), len(ids), tuple(sorted(ids)))


def game_measures(rows: list[Result], rng: np.random.Generator) -> dict[str, dict[str, Cell]]:
    """Every Table 2 metric of ours (but GA, from attempts) and the Werewolf decision shares, per agent label."""
    out: dict[str, dict[str, Cell]] = defaultdict(dict)
    for label, mine in per_match(rows).items():
        for metric in METRIC_GAME:
            if metric != "GA" and (cell := metric_cell(mine, metric, rng)) is not None:
                out[label][metric] = cell
        wolf = {m: c for m, c in mine.items() if any(c[a] for a in ACTIONS)}
        decisions = sum(c[a] for c in wolf.values() for a in ACTIONS)
        if decisions:
            for action in ACTIONS:
                count = sum(c[action] for c in wolf.values())
                out[label][f"decisions:{action}"] = Cell.of(proportion(count, decisions), wolf, unit="%")
    return dict(out)


def grounding_counts(attempts: list[pm.AttemptRecord]) -> dict[int, Counter]:
    """Per match, GA's counts (`ga` valid replies of `ga_n` judged) from one agent's attempts."""
    by_match: dict[int, list[pm.AttemptRecord]] = defaultdict(list)
    for a in attempts:
        by_match[a.match].append(a)
    out = {}
    for match, mine in by_match.items():
        ga = pm.grounding_accuracy(mine)
        if ga.n:
            out[match] = Counter({"ga": round(ga.value * ga.n), "ga_n": ga.n})
    return out


def scored_on(mine: dict[int, Counter], config: dict) -> list[str]:
    """The Eq. 3 dimensions an agent has at least one metric for."""
    total = sum(mine.values(), Counter())
    return [name for name, dim in config.items() if any(total[f"{m.lower()}_n"] for m in dim["metrics"])]


def score_cells(
    mine: dict[int, Counter], config: dict, rng: np.random.Generator, *, rounds: int, minimum: int
) -> list[Cell]:
    """One agent's Eq. 3 scores (each dimension and Overall) with a 95% bootstrap interval resampling its matches
    (all its games together), n = its matches. Overall is marked "partial" when scored on fewer dimensions than
    our games measure, and "thin" under `minimum` matches."""
    dims = [*config, "Overall"]
    metrics = [m for d in config.values() for m in d["metrics"]]

    def scores(counts: Counter) -> dict[str, float | None]:
        return dimension_scores({m: metric_value(counts, m) for m in metrics}, config)

    ids = sorted(mine)
    point = scores(sum(mine.values(), Counter()))
    # Each resample's summed counts at once: multiplicities (rounds × matches) @ counts (matches × keys).
    keys = sorted({k for c in mine.values() for k in c})
    table = np.array([[mine[m][k] for k in keys] for m in ids], dtype=float)
    drawn = rng.multinomial(len(ids), np.full(len(ids), 1.0 / len(ids)), size=rounds) @ table
    samples: dict[str, list[float]] = defaultdict(list)
    for sums in drawn:
        for dim, value in scores(Counter(dict(zip(keys, sums, strict=True)))).items():
            if value is not None:
                samples[dim].append(value)
    measurable = [name for name, dim in config.items() if dim["metrics"]]
    notes = []
    if len(ids) < minimum:
        notes.append(f"thin: {len(ids)} matches")
    if (got := len(scored_on(mine, config))) < len(measurable):
        notes.append(f"partial: {got} of {len(measurable)} dimensions")
    cells = []
    for dim in dims:
        low, high = (float(x) for x in np.quantile(samples[dim], [0.025, 0.975])) if samples[dim] else (None, None)
        note = "; ".join(notes) if dim == "Overall" else ("thin" if len(ids) < minimum else "")
        cells.append(Cell(point[dim], low, high, len(ids), tuple(ids), note=note))
    return cells


#: The metrics table's columns, grouped by game.
METRIC_COLUMNS = ["CCC", "WS", "BIR", "ASR", "AD", "IRP", "KSR", "VSS", "CPR", "TPCV", "WR", "GA"]


def tables(
    measures: dict[str, dict[str, Cell]],
    *,
    config: dict,
    counts: dict[str, dict[int, Counter]] | None = None,
    minimum: int = 10,
    rounds: int = 200,
    seed: int = 0,
) -> list[Table]:
    """The per-agent metrics table, decision tracking, and the Eq. 3 score table from each agent's per-match
    `counts` (its score cells link to all the agent's matches)."""
    rng = np.random.default_rng(seed)
    rows = sorted(measures.items())
    dims = [*config, "Overall"]
    scored = []
    for label, mine in sorted((counts or {}).items()):
        if not mine:
            continue
        games = ", ".join(
            sorted({METRIC_GAME[m] for m in METRIC_GAME if sum(c[f"{m.lower()}_n"] for c in mine.values())})
        )
        cells = score_cells(mine, config, rng, rounds=rounds, minimum=minimum)
        scored.append((label, [*cells, f"{len(scored_on(mine, config))} dims: {games}"]))
    measurable = [name for name, dim in config.items() if dim["metrics"]]
    return [
        Table(
            key="metrics",
            title="Fine-grained metrics (Diplomacy CCC, WS, BIR, ASR, AD; Werewolf IRP, KSR, VSS; Stratego CPR, "
            "TPCV, WR, GA)",
            source="DSGBench Table 2 (which game each metric is read from), Tables 15, 17 and 19, §3 (GA)",
            columns=METRIC_COLUMNS,
            rows=[(label, [cells.get(m) for m in METRIC_COLUMNS]) for label, cells in rows],
            note="Diplomacy, per power and averaged over the powers the agent played: CCC centres held at the end; "
            "WS its share of the welfare points; BIR betrayals / orders; ASR movement phases allied / played; AD "
            "phases allied. Werewolf: IRP a villager-side player's votes naming a werewolf / its votes; KSR "
            "key-role (seer, werewolf) games survived / key-role games; VSS its votes that named a werewolf exiled "
            "that day / its votes naming a player. Stratego: CPR Marshal, General and Colonels alive at the end / "
            "fielded; TPCV value of its live pieces at the end (Marshal 10 … Spy 1; 148 at the start); WR games "
            "won; GA valid replies / replies judged (WR and GA over Stratego, as Table 2 maps them).",
            intervals="proportions (IRP, KSR, VSS, CPR, WR, GA): Wilson 95% intervals; means (CCC, WS, BIR, ASR, "
            "AD, TPCV): 95% bootstrap intervals resampling the agent's matches",
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
            intervals="Wilson 95% intervals",
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
            intervals="Wilson 95% intervals",
        ),
        Table(
            key="eq-3",
            title="Eq. 3: capability dimensions and weighted score (×100)",
            source="DSGBench §3, Eq. 3, Table 2",
            columns=[*dims, "Scored on"],
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
            + ". Set ARENA_DSGBENCH_SCORE to change them. Each metric is read from the game Table 2 maps it to; a "
            "dimension without any measured metric is left out and Overall renormalises W over the rest, so an "
            f"Overall over fewer than the {len(measurable)} dimensions our games measure is marked partial and is "
            'not comparable with a full row ("Scored on" says which dimensions and games). Under '
            f"{minimum} matches a row is marked thin. n = the agent's matches over all three games.",
            level=None,
            intervals="95% bootstrap intervals resampling the agent's matches (all its games together)",
        ),
    ]


def build(filters: ReportFilters) -> Report:
    matches = finished_matches(GAMES, filters)
    rows = results(matches, with_state=True, baseline=filters.baseline)
    rng = np.random.default_rng(0)
    counts = per_match(rows)
    measures: dict[str, dict[str, Cell]] = defaultdict(dict)
    for label, cells in game_measures(rows, rng).items():
        measures[label].update(cells)
    labels = seat_labels(matches, filters.baseline)
    moves = Decision.objects.filter(match__in=matches, match__game="stratego").order_by("match_id", "ply")
    decisions = [
        (match_id, label, state_before, action)
        for match_id, seat, state_before, action in moves.values_list("match_id", "seat", "state_before", "action")
        if (label := labels.get(match_id, {}).get(seat))
    ]
    for label, cells in stratego_decision_cells(decisions).items():
        measures[label].update(cells)
    attempts: dict[str, list[pm.AttemptRecord]] = defaultdict(list)
    judged = Attempt.objects.filter(match__in=matches, match__game=METRIC_GAME["GA"]).exclude(
        match__options__placement="random"  # GA is read from the fixed-placement scenario (Table 2)
    )
    for match_id, ply, seat, number, verdict, transient in judged.values_list(
        "match_id", "ply", "seat", "number", "verdict", "transient"
    ):
        if label := labels.get(match_id, {}).get(seat):
            attempts[label].append(pm.AttemptRecord((match_id, ply, seat), match_id, number, verdict, transient))
    for label, mine in attempts.items():
        ga = grounding_counts(mine)
        for match_id, c in ga.items():
            counts.setdefault(label, {}).setdefault(match_id, Counter()).update(c)
        if cell := metric_cell(ga, "GA", rng):
            measures[label]["GA"] = cell
    shown = {label: cells for label, cells in measures.items() if filters.shows(label)}
    counted = {label: mine for label, mine in counts.items() if filters.shows(label)}
    out = tables(shown, config=score_config(), counts=counted, minimum=min_games())
    return Report("dsgbench", TITLE, with_departures("dsgbench", CITATION), with_published("dsgbench", out), filters)
