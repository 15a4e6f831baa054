"""AdvGameBench's process metrics read from finished plan-game matches (tower defense, battle card, attribute).

Each plan game's `records(state)` gives one row per seat and leg; rounds are counted per role, so a
revision is always compared with the previous plan for the same role (docs/metrics.md).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict

import numpy as np

from arena.models import Agent, Match, Seat
from games import get_game
from games.registry import GAMES
from ratings.maths import process_metrics as pm
from ratings.maths.metrics import pearson
from ratings.record.report_record import HUMAN_BASELINE, POOLED, Baseline, seat_labels

RADAR_AXES = ["WR", "CSR", "improvement slope", "1 − ORR", "1 − OBR"]


def plan_games() -> list[str]:
    """Slugs of the registered games whose states carry per-round plan records."""
    return [slug for slug in GAMES if hasattr(get_game(slug), "records")]


def round_records(
    *, people_only_consenting: bool = True, matches=None, by_scaffold: bool = False, baseline: Baseline = POOLED
) -> list[pm.RoundRecord]:
    """Every seat's plan in every round of every finished plan-game match (or of the plan-game `matches` given).

    Records are labelled by agent slug (the analysis and profile pages), or with `by_scaffold` as the reports
    label rows: an agent version × scaffold ("slug (cot)", "slug v3 (cot)"; ratings/record/report_record.py). People
    count when they are part of `baseline` (by default: those who agreed to baseline use)."""
    if matches is None:
        matches = Match.objects.filter(game__in=plan_games(), status=Match.Status.FINISHED)
    # One read of the matches, then their seats: a match finishing between the reads is not in the list, and every
    # listed match's seats exist (they are written when it starts), so no listed match lacks a seat.
    finished = list(matches.values_list("pk", "game", "state"))
    seats: dict[int, dict[int, Agent]] = defaultdict(dict)
    for seat in Seat.objects.filter(match__in=matches).select_related("agent_version__agent"):
        seats[seat.match_id][seat.index] = seat.agent_version.agent
    labels = seat_labels(matches, baseline) if by_scaffold else {}
    records = []
    for match_id, slug, state in finished:
        game = get_game(slug)
        for row in game.records(game.from_json(state)):
            agent = seats[match_id][row["seat"]]
            if (
                agent.kind == Agent.Kind.HUMAN
                and people_only_consenting
                and not baseline.counts(agent.pk, agent.baseline_consent)
            ):
                continue
            label = agent.slug if agent.kind != Agent.Kind.HUMAN else HUMAN_BASELINE
            if by_scaffold:
                label = labels[match_id][row["seat"]] or HUMAN_BASELINE
            records.append(
                pm.RoundRecord(
                    agent=label,
                    match=(match_id, row["role"]),
                    round=row["round"],
                    won=row["won"],
                    first_mover=row["first_mover"],
                    role=row["role"],
                    revised=row["revised"],
                    over_budget=row["over_budget"],
                    rule_violation=row["rule_violation"],
                    value=row["value"],
                    similarity=row["similarity"],
                    items=frozenset(row.get("items", ())),
                    functions=game.strategic_functions(frozenset(row.get("items", ()))),
                )
            )
    return records


def process_table(records: list[pm.RoundRecord], seed: int = 0) -> list[dict]:
    """Per agent: every Appendix B metric with its 95% interval (plain dicts for pages and downloads)."""
    rng = np.random.default_rng(seed)
    rows = []
    for agent, mine in pm.by_agent(records).items():
        metrics = {
            "WR": pm.win_rate(mine),
            "initial WR": pm.initial_win_rate(mine),
            "ORR": pm.over_correction_risk_rate(mine),
            "CSR": pm.correction_success_rate(mine),
            "improvement slope": pm.improvement_slope(mine, rng=rng, rounds=300),
            "OBR": pm.over_budget_rate(mine),
            "RVR": pm.rule_violation_rate(mine),
            "constructive rate": pm.constructive_rate(mine),
            "revision similarity": pm.strategy_similarity(mine, rng=rng, rounds=300),
            "FMA (WR)": pm.first_mover_advantage(mine, "win_rate", rng=rng, rounds=300),
            "FMA (ORR)": pm.first_mover_advantage(mine, "over_correction_risk_rate", rng=rng, rounds=300),
            "FMA (CSR)": pm.first_mover_advantage(mine, "correction_success_rate", rng=rng, rounds=300),
        }
        rows.append({"agent": agent, "rounds": len(mine), "metrics": {k: asdict(v) for k, v in metrics.items()}})
    return sorted(rows, key=lambda r: str(r["agent"]))


def radar_values(table: list[dict]) -> dict[str, list[float | None]]:
    """The five radar axes per agent, scaled to [0, 1]: proportions as they are, the slope min–max across agents."""
    slopes = [r["metrics"]["improvement slope"]["value"] for r in table]
    known = [s for s in slopes if s is not None]
    low, high = (min(known), max(known)) if known else (0.0, 0.0)

    def scaled_slope(value: float | None) -> float | None:
        if value is None:
            return None
        return 0.5 if high == low else (value - low) / (high - low)

    out = {}
    for row in table:
        m = row["metrics"]
        orr, obr = m["ORR"]["value"], m["OBR"]["value"]
        out[row["agent"]] = [
            m["WR"]["value"],
            m["CSR"]["value"],
            scaled_slope(m["improvement slope"]["value"]),
            None if orr is None else 1 - orr,
            None if obr is None else 1 - obr,
        ]
    return out


#: Below this many agents a Pearson r is shown with a warning: around r = 0 its 95% range is then wider than ±0.44.
FEW_AGENTS_FOR_CORRELATION = 20


def correlations(table: list[dict]) -> list[dict]:
    """AdvGameBench §4.4: ORR against WR, CSR, slope and OBR across agents, Pearson r and p."""
    rows = []
    for other in ("WR", "CSR", "improvement slope", "OBR"):
        pairs = [
            (r["metrics"]["ORR"]["value"], r["metrics"][other]["value"])
            for r in table
            if r["metrics"]["ORR"]["value"] is not None and r["metrics"][other]["value"] is not None
        ]
        r_value, p_value = pearson([a for a, _ in pairs], [b for _, b in pairs]) if len(pairs) >= 3 else (None, None)
        rows.append({"x": "ORR", "y": other, "n": len(pairs), "r": r_value, "p": p_value})
    return rows
