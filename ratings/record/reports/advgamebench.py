"""AdvGameBench: Table 1 per game and overall, Fig. 3 (WR by round), §4.3–4.4 correlations, Fig. 6 (first mover),
§4.6 radar, over the plan games (tower defense, battle card, attribute battle). Definitions in docs/metrics.md.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
from django.conf import settings

from ratings.maths import process_metrics as pm
from ratings.maths.metrics import pearson
from ratings.record.plan_metrics import FEW_AGENTS_FOR_CORRELATION, RADAR_AXES, plan_games, round_records
from ratings.record.report_record import label_kinds
from ratings.record.reports.base import (
    Cell,
    Report,
    ReportFilters,
    Table,
    across_agents,
    finished_matches,
    with_departures,
)
from ratings.record.reports.published import with_published

TITLE = "AdvGameBench: plan, revise, and stay within the rules"
CITATION = "AdvGameBench §3.3, §4.2–4.6, Table 1, Figs. 3 and 6, Appendix B (B.1–B.4)."
BOOTSTRAP = 300
#: Table 1's columns: (heading, metric over one agent's records, shown as a percentage?).
TABLE_1 = [
    ("WR", pm.win_rate, True),
    ("Init-win", pm.initial_win_rate, True),
    ("ORR", pm.over_correction_risk_rate, True),
    ("CSR", pm.correction_success_rate, True),
    ("β (improvement slope)", None, False),
    ("OBR", pm.over_budget_rate, True),
    ("RVR", pm.rule_violation_rate, True),
    ("CnstrR", pm.constructive_rate, True),
    ("SIM", None, False),
]
FMA = [("FMA (WR)", "win_rate"), ("FMA (ORR)", "over_correction_risk_rate"), ("FMA (CSR)", "correction_success_rate")]


def _ids(records: list[pm.RoundRecord]) -> list[int]:
    return [r.match[0] for r in records]


def table_1_row(records: list[pm.RoundRecord], seed: int = 0) -> list[Cell]:
    """One agent's Table 1 cells over `records` (one game, or all of them); the same records give the same row."""
    rng = np.random.default_rng(seed)
    ids = _ids(records)
    cells = []
    for _, metric, percent in TABLE_1:
        if metric is not None:
            cells.append(Cell.of(metric(records), ids, unit="%" if percent else ""))
    cells[4:4] = [Cell.of(pm.improvement_slope(records, rng=rng, rounds=BOOTSTRAP), ids)]
    sim = pm.multi_aspect_strategy_similarity(records, sim_weights(), rng=rng, rounds=BOOTSTRAP)
    cells.append(Cell.of(sim, ids))
    return cells


def sim_weights() -> tuple[float, float, float]:
    """SIM's (structural, semantic, functional) weights: equal unless ARENA_ADVGAMEBENCH_SIM_WEIGHTS says otherwise."""
    return tuple(getattr(settings, "ARENA_ADVGAMEBENCH_SIM_WEIGHTS", (1 / 3, 1 / 3, 1 / 3)))


def tables(
    records: list[pm.RoundRecord],
    games: dict[int, str],
    *,
    filters: ReportFilters,
    kinds: dict[str, str] | None = None,
    seed: int = 0,
) -> list[Table]:
    """Every AdvGameBench table over the round records; `games` maps a match id to its game, `kinds` a row label
    to its agent's kind (a label missing there counts as a model)."""
    kinds = kinds or {}
    rng = np.random.default_rng(seed)
    records = [r for r in records if filters.shows(str(r.agent))]
    agents = pm.by_agent(records)
    per_game: list[tuple[str, list[Cell]]] = []
    overall: dict[str, list[Cell]] = {}
    for agent, mine in sorted(agents.items(), key=lambda kv: str(kv[0])):
        by_game: dict[str, list[pm.RoundRecord]] = defaultdict(list)
        for r in mine:
            by_game[games[r.match[0]]].append(r)
        for game in sorted(by_game):
            per_game.append((f"{agent} · {game}", table_1_row(by_game[game], seed)))
        overall[str(agent)] = table_1_row(mine, seed)
    columns = [heading for heading, _, _ in TABLE_1]
    out = [
        Table(
            key="table-1",
            title="Table 1: per game",
            source="AdvGameBench Table 1, §3.3, Appendix B.1–B.3",
            columns=columns,
            rows=per_game,
            note="Proportions with Wilson 95% intervals; β and SIM with 95% bootstrap intervals resampling matches "
            "(β) or corrections (SIM). Rounds are counted per role. CnstrR (B.2): corrections whose game value "
            "V rose / corrections with both values known. SIM is B.3's multi-aspect similarity "
            f"(structural, semantic, functional; weights {', '.join(f'{w:.2f}' for w in sim_weights())}). "
            "A row is an agent and scaffold (a model's direct and chain-of-thought versions apart).",
            intervals="proportions: Wilson 95% intervals; β and SIM: 95% bootstrap intervals",
        ),
        Table(
            key="table-1-overall",
            title="Table 1: overall (all plan games pooled)",
            source="AdvGameBench Table 1",
            columns=columns,
            rows=sorted(overall.items()),
            intervals="proportions: Wilson 95% intervals; β and SIM: 95% bootstrap intervals",
        ),
    ]
    rounds = sorted({r.round for r in records})
    out.append(
        Table(
            key="figure-3",
            title="Figure 3: win rate by round",
            source="AdvGameBench §4.2, Figure 3",
            columns=[f"round {n}" for n in rounds],
            rows=[
                (
                    str(agent),
                    [Cell.of(pm.win_rate(rs := [r for r in mine if r.round == n]), _ids(rs), unit="%") for n in rounds],
                )
                for agent, mine in sorted(agents.items(), key=lambda kv: str(kv[0]))
            ],
            intervals="Wilson 95% intervals",
        )
    )
    counted = across_agents(overall, kinds, filters, people=False)
    out.append(
        correlation_table(
            {a: overall[a] for a in counted}, bots=filters.with_bots, left_out=len(overall) - len(counted)
        )
    )
    out.append(
        Table(
            key="figure-6",
            title="Figure 6: first-mover advantage (first − second)",
            source="AdvGameBench §4.5, Figure 6, Appendix B.4",
            columns=[heading for heading, _ in FMA],
            rows=[
                (
                    str(agent),
                    [
                        Cell.of(pm.first_mover_advantage(mine, name, rng=rng, rounds=BOOTSTRAP), _ids(mine))
                        for _, name in FMA
                    ],
                )
                for agent, mine in sorted(agents.items(), key=lambda kv: str(kv[0]))
            ],
            note="Difference of mean per-instance metric moving first minus moving second; 95% bootstrap interval.",
            intervals="95% bootstrap intervals",
        )
    )
    shown = across_agents(overall, kinds, filters)
    out.append(radar_table({a: overall[a] for a in shown}, bots=filters.with_bots))
    return out


#: §4.3 relates OBR to WR; §4.4 relates ORR to WR, CSR, β and OBR.
CORRELATIONS = [
    ("OBR", "WR", "§4.3"),
    ("ORR", "WR", "§4.4"),
    ("ORR", "CSR", "§4.4"),
    ("ORR", "β (improvement slope)", "§4.4"),
    ("ORR", "OBR", "§4.4"),
]


def thin_reason(n: int, r: float | None) -> str:
    """Why a correlation cell is not to be leaned on ("" when it can be): too few agents, or a constant series."""
    if n < 3:
        return f"undefined: {n} agents, r needs 3"
    if r is None:
        return "undefined: one of the two is the same for every agent"
    if n < FEW_AGENTS_FOR_CORRELATION:
        return f"thin: {n} agents, fewer than {FEW_AGENTS_FOR_CORRELATION}"
    return ""


def correlation_table(overall: dict[str, list[Cell]], *, bots: bool = False, left_out: int = 0) -> Table:
    """Pearson r across the agents given (each agent's overall value), with its two-sided p and the agents counted.

    The paper correlates across its models; scripted bots are passed in only on request (`bots`), and the
    rows then say so (12 bots with OBR = 0 made ORR ~ OBR "significant" on their own)."""
    column = {heading: i for i, (heading, _, _) in enumerate(TABLE_1)}
    rows = []
    for x, y, section in CORRELATIONS:
        pairs = [
            (c[column[x]], c[column[y]])
            for c in overall.values()
            if c[column[x]].value is not None and c[column[y]].value is not None
        ]
        r, p = pearson([a.value for a, _ in pairs], [b.value for _, b in pairs])
        ids = tuple(sorted({m for a, b in pairs for m in a.matches + b.matches}))
        why = thin_reason(len(pairs), r)
        cells = [Cell(r, None, None, len(pairs), ids, note=why), Cell(p, None, None, len(pairs), ids, note=why)]
        rows.append((f"{x} ~ {y} ({section}){', bots included' if bots else ''}", cells))
    who = (
        "models, the human baseline left out, scripted bots included (bots=show)"
        if bots
        else f"models only, as the paper's (scripted bots and the human baseline left out: {left_out}; add "
        "bots=show to count bots)"
    )
    return Table(
        key="correlations",
        title="Correlations across agents",
        source="AdvGameBench §4.3 (OBR–WR), §4.4 (ORR)",
        columns=["Pearson r", "p (two-sided)"],
        rows=rows,
        note=f"Agents counted: {who}. n is the number of agents with both values; r needs at least three, and "
        f"below {FEW_AGENTS_FOR_CORRELATION} it is marked thin: with so few agents a strong r often arises by "
        "chance. Each cell's note says why it is thin or undefined.",
        level=None,
        intervals="no intervals: r with its two-sided p (t test on n − 2 degrees of freedom)",
    )


def radar_table(overall: dict[str, list[Cell]], *, bots: bool = False) -> Table:
    """§4.6's five axes scaled to [0, 1]: WR, CSR, β min–max across the agents shown, 1 − ORR, 1 − OBR."""
    slopes = [c[4].value for c in overall.values() if c[4].value is not None]
    low, high = (min(slopes), max(slopes)) if slopes else (0.0, 0.0)
    rows = []
    for agent, c in sorted(overall.items()):
        wr, csr, slope, orr, obr = c[0], c[3], c[4], c[2], c[5]
        scaled = None if slope.value is None else 0.5 if high == low else (slope.value - low) / (high - low)
        values = [
            wr.value,
            csr.value,
            scaled,
            None if orr.value is None else 1 - orr.value,
            None if obr.value is None else 1 - obr.value,
        ]
        sources = [wr, csr, slope, orr, obr]
        rows.append((agent, [Cell(v, None, None, s.n, s.matches) for v, s in zip(values, sources, strict=True)]))
    return Table(
        key="radar",
        title="§4.6 radar",
        source="AdvGameBench §4.6",
        columns=RADAR_AXES,
        rows=rows,
        radar=True,
        note="Models and the human baseline"
        + (", scripted bots included (bots=show)" if bots else " (add bots=show for scripted bots)")
        + "; β is scaled min–max over the agents shown.",
        level=None,
        intervals="no intervals: the axes are Table 1's values rescaled",
    )


def build(filters: ReportFilters) -> Report:
    matches = finished_matches(plan_games(), filters)
    games = dict(matches.values_list("pk", "game"))
    records = round_records(matches=matches, by_scaffold=True, baseline=filters.baseline)
    out = tables(records, games, filters=filters, kinds=label_kinds(matches, filters.baseline))
    return Report(
        "advgamebench", TITLE, with_departures("advgamebench", CITATION), with_published("advgamebench", out), filters
    )
