"""GameBench (Costarelli et al. 2024): Figure 1's Bradley–Terry ratings per game and overall, and Table 3's radar.

Definitions in docs/metrics.md, "Reports → GameBench".
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

import numpy as np
from django.conf import settings

from ratings import bradley_terry as bt
from ratings.metrics import Estimate
from ratings.models import ReferenceRecord
from ratings.refit import bootstrap_rounds
from ratings.reports.base import Cell, Report, ReportFilters, Table, finished_matches
from ratings.reports.record import Result, results

TITLE = "GameBench: Bradley–Terry ratings per game and reasoning category"
CITATION = "Costarelli et al., GameBench (2024), §3.3 (rating), Figure 1, Table 3 (categories)."
#: GameBench's intervals are 90% (§3.3, Figure 1 whiskers).
LEVEL = 0.90

#: Table 3's reasoning categories over the games we have (our choice of membership for games GameBench lacks).
CATEGORIES: dict[str, tuple[str, ...]] = {
    "Abstract Strategy": (
        "air-land-sea",
        "arctic-scavengers",
        "tic-tac-toe",
        "connect-four",
        "gomoku",
        "reversi",
        "ataxx",
        "chess",
        "santorini",
        "hive",
        "sea-battle",
        "codenames",  # as Table 3, which puts CN here and not under Hidden Information
    ),
    "Non-Deterministic": (
        "kuhn-poker",
        "leduc-holdem",
        "holdem",
        "battle-card",
        "tower-defense",
        "sea-battle",
        "arctic-scavengers",
        "two-rooms-and-a-boom",
    ),
    "Hidden Information": (
        "kuhn-poker",
        "leduc-holdem",
        "holdem",
        "stratego",
        "werewolf",
        "are-you-the-traitor",
        "arctic-scavengers",  # ARC is in Abstract Strategy, Non-Deterministic and Hidden Information (Table 3)
        "two-rooms-and-a-boom",
    ),
    # Pit and Two Rooms and a Boom: as GameBench's Table 3
    "Language Communication": ("codenames", "werewolf", "are-you-the-traitor", "pit", "two-rooms-and-a-boom"),
    "Social Deduction": ("werewolf", "are-you-the-traitor", "two-rooms-and-a-boom"),
    "Cooperation": ("codenames", "werewolf", "sea-battle", "are-you-the-traitor", "two-rooms-and-a-boom"),
}
GAMES = tuple(sorted({g for games in CATEGORIES.values() for g in games}))


def min_games() -> int:
    """Fewer matches than this in a cell marks it thin: shown, never ranked on (GameBench ranks "human" on 13)."""
    return int(getattr(settings, "ARENA_REPORT_MIN_GAMES", 10))


def ratings(rows: list[Result], *, rounds: int, rng: np.random.Generator, minimum: int) -> dict[str, dict[str, Cell]]:
    """Per agent label: one cell per game played and "overall", BT strength (nats, mean 0) with its 90% interval.

    Overall weights each match N / (G · n_game) so every game counts equally, as GameBench's bootstrap does."""
    labels = sorted({label for r in rows for label in r.labels})
    index = {label: i for i, label in enumerate(labels)}
    table: dict[str, dict[str, Cell]] = defaultdict(dict)
    scopes = {game: [r for r in rows if r.game == game] for game in sorted({r.game for r in rows})}
    if len(scopes) > 1:
        scopes["overall"] = rows
    for scope, scoped in scopes.items():
        a, b, score, weight, games, match_of = [], [], [], [], [], []
        for r in scoped:
            for pair in r.pairs():
                a.append(index[pair.a])
                b.append(index[pair.b])
                score.append(pair.score_a)
                weight.append(pair.weight)
                games.append(r.game)
                match_of.append(r.match)
        if not a:
            continue
        weights = np.asarray(weight) * (bt.game_weights(games) if scope == "overall" else 1.0)
        fit = bt.fit(a, b, score, n_agents=len(labels), weights=weights)
        boot = bt.bootstrap(
            a, b, score, n_agents=len(labels), weights=weights, rounds=rounds, rng=rng, level=LEVEL, draws=len(scoped)
        )
        played: dict[int, set[int]] = defaultdict(set)
        for i, j, m in zip(a, b, match_of, strict=True):
            played[i].add(m)
            played[j].add(m)
        for i, matches in played.items():
            low, high = (float(x) if np.isfinite(x) else None for x in (boot.lower[i], boot.upper[i]))
            estimate = Estimate(float(fit.strengths[i]), low, high, len(matches))
            note = "thin" if len(matches) < minimum else ""
            table[labels[i]][scope] = Cell.of(estimate, matches, note=note)
    return dict(table)


def category_means(cells: dict[str, Cell]) -> dict[str, Cell]:
    """Table 3 radar: per category, the mean strength over its games the agent played enough (thin cells left out)."""
    out = {}
    for category, games in CATEGORIES.items():
        counted = [cells[g] for g in games if g in cells and not cells[g].note]
        if counted:
            value = float(np.mean([c.value for c in counted]))
            matches = [m for c in counted for m in c.matches]
            out[category] = Cell(value, None, None, len(set(matches)), tuple(sorted(set(matches))))
    return out


def tables(rows: list[Result], *, filters: ReportFilters, rounds: int, seed: int = 0) -> list[Table]:
    """Figure 1 (a: per game, b: overall) and the Table 3 category radar."""
    cells = ratings(rows, rounds=rounds, rng=np.random.default_rng(seed), minimum=min_games())
    shown = {label: c for label, c in cells.items() if filters.shows(label)}
    games = sorted({g for c in shown.values() for g in c if g != "overall"})
    columns = [*games, "overall"] if len(games) > 1 else games
    order = sorted(shown, key=lambda label: -(shown[label].get("overall") or next(iter(shown[label].values()))).value)
    figure = Table(
        key="figure-1",
        title="Figure 1: rating per game and overall",
        source="GameBench §3.3, Figure 1 (a, b)",
        columns=columns,
        rows=[(label, [shown[label].get(c) for c in columns]) for label in order],
        note=f"Bradley–Terry strength in nats (mean 0 over agents); 90% bootstrap intervals over {rounds} resamples. "
        f"A cell with fewer than {min_games()} matches is marked thin and is not used to rank. "
        "Models appear once per scaffold; consenting people are pooled as human-baseline.",
        level=LEVEL,
        dot_plot=True,
    )
    radar = {label: category_means(c) for label, c in shown.items()}
    categories = [c for c in CATEGORIES if any(c in r for r in radar.values())]
    table3 = Table(
        key="table-3-radar",
        title="Table 3 categories: mean rating over each category's games (nats, 0 = average agent)",
        source="GameBench Table 3 (reasoning categories); radar proposed in §5",
        columns=categories,
        rows=[(label, [radar[label].get(c) for c in categories]) for label in order],
        note="Each category averages the agent's per-game strengths over the games of the category it played "
        "enough; our games' category membership is our choice (docs/metrics.md).",
        level=LEVEL,
        radar=True,
    )
    return [figure, table3]


def reference_table(records: list[ReferenceRecord], *, rounds: int, seed: int = 0) -> Table | None:
    """Figure 1 recomputed from GameBench's own published matches (imported), by the same code; no links:
    these are not our matches. Draws are kept (GameBench's script drops ties: our choice, stated)."""
    if not records:
        return None
    rows = [Result(-r.pk, r.game, tuple(r.agents), (0, 1), tuple(r.scores)) for r in records]
    cells = ratings(rows, rounds=rounds, rng=np.random.default_rng(seed), minimum=min_games())
    games = sorted({r.game for r in records})
    columns = [*games, "overall"]
    plain = {label: {k: replace(c, matches=()) for k, c in cs.items()} for label, cs in cells.items()}
    order = sorted(plain, key=lambda label: -plain[label]["overall"].value if "overall" in plain[label] else 0)
    first = records[0]
    return Table(
        key="reference-figure-1",
        title="Reference: Figure 1 from GameBench's published matches (imported)",
        source=f"imported from {first.repository}@{first.commit} {first.path}; not arena matches",
        columns=columns,
        rows=[(label, [plain[label].get(c) for c in columns]) for label in order],
        note="The paper's own match results, rated by our Bradley–Terry code at 90%; shown apart from the "
        "arena's matches and never pooled with them.",
        level=LEVEL,
    )


def build(filters: ReportFilters) -> Report:
    rows = results(finished_matches(GAMES, filters))
    out = tables(rows, filters=filters, rounds=bootstrap_rounds())
    reference = reference_table(list(ReferenceRecord.objects.filter(source="gamebench")), rounds=bootstrap_rounds())
    return Report("gamebench", TITLE, CITATION, out + ([reference] if reference else []), filters)
