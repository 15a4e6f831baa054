"""GameBench (Costarelli et al. 2024): Figure 1's Bradley–Terry ratings per game and overall, and Table 3's radar.

Definitions in docs/metrics.md, "Reports → GameBench".
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

import numpy as np
from django.conf import settings

from arena.evaluate.protocols import GAMEBENCH
from ratings.maths import bradley_terry as bt
from ratings.maths.metrics import Estimate, bootstrap_mean
from ratings.record.models import ReferenceRecord
from ratings.record.refit import bootstrap_rounds
from ratings.record.report_record import Result, label_kinds, results
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
        # AdvGameBench's plan games: deterministic simulations (not Non-Deterministic), but each side seals its
        # plan without seeing the other's.
        "tower-defense",
        "battle-card",
        "attribute-battle",
    ),
    # Pit and Two Rooms and a Boom: as GameBench's Table 3
    "Language Communication": ("codenames", "werewolf", "are-you-the-traitor", "pit", "two-rooms-and-a-boom"),
    "Social Deduction": ("werewolf", "are-you-the-traitor", "two-rooms-and-a-boom"),
    "Cooperation": ("codenames", "werewolf", "sea-battle", "are-you-the-traitor", "two-rooms-and-a-boom"),
}
GAMES = tuple(sorted({g for games in CATEGORIES.values() for g in games}))
#: The nine games GameBench rated (App. J): its Overall pools these only, whatever else was played.
PAPER_GAMES = frozenset(GAMEBENCH.games)


def min_games() -> int:
    """Fewer matches than this in a cell marks it thin: shown, never ranked on (GameBench ranks "human" on 13)."""
    return int(getattr(settings, "ARENA_REPORT_MIN_GAMES", 10))


def one_sided(level: float, wins: float) -> float:
    """The log-odds a player who won all of `wins` games is at least this likely to win, at the lower tail of a
    `level` interval: P(win) ≥ ((1 − level)/2)^(1/wins) (the zero-failure Clopper–Pearson bound)."""
    p = ((1.0 - level) / 2.0) ** (1.0 / wins)
    return float(np.log(p / (1.0 - p)))


def bounded_group(reach: np.ndarray, played: dict[int, set[int]]) -> list[int]:
    """The agents whose strengths the data bound against each other (reachable both ways): the largest such
    group among the agents who played (ties: the most matches, then the first)."""
    groups: list[list[int]] = []
    for i in sorted(played):
        if not any(i in g for g in groups):
            groups.append([j for j in sorted(played) if reach[i, j] and reach[j, i]])
    return max(groups, key=lambda g: (len(g), len(set().union(*(played[j] for j in g)))))


def ratings(rows: list[Result], *, rounds: int, rng: np.random.Generator, minimum: int) -> dict[str, dict[str, Cell]]:
    """Per agent label: one cell per game played and "overall", BT strength (nats) with its 90% interval.

    Overall pools GameBench's nine games only (`PAPER_GAMES`), weighting each match N / (G · n_game) so every game
    counts equally, as GameBench's bootstrap does; other games get their own cells and stay out of it.
    Strengths are centred on the mean of the agents the data bound against each other (`bounded_group`). An agent
    the data cannot bound above against them (it won every game it played: its MLE is infinite) gets no point
    value: its cell holds a lower bound only, noted "unbounded above": the larger of (its opponents' mean
    strength, by games) + the zero-failure one-sided log-odds (`one_sided`) and the strongest opponent it beat
    (the data rank it above every agent it beat, so it is never placed below one); likewise "unbounded below",
    ≤ the weakest agent it lost to, for an agent that never scored. Agents the data do not connect to that group
    at all are no bound of it: a group of them bound against each other (`separate_groups`) is centred on its
    own mean, noted "separate group: 0 = its own mean"; a lone one is noted "not connected", with no value."""
    labels = sorted({label for r in rows for label in r.labels})
    index = {label: i for i, label in enumerate(labels)}
    table: dict[str, dict[str, Cell]] = defaultdict(dict)
    scopes = {game: [r for r in rows if r.game == game] for game in sorted({r.game for r in rows})}
    paper = [r for r in rows if r.game in PAPER_GAMES]
    if len({r.game for r in paper}) > 1:
        scopes["overall"] = paper
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
        reach = bt.reachability(a, b, score, n_agents=len(labels), weights=weights)
        core = bounded_group(reach, played)
        centre = float(np.mean(fit.strengths[core]))
        tail = 50.0 * (1.0 - LEVEL)
        samples = boot.samples - boot.samples[:, core].mean(axis=1, keepdims=True)
        low_all, high_all = np.percentile(samples, [tail, 100.0 - tail], axis=0)
        strength = fit.strengths - centre
        faced: dict[int, list[tuple[int, float]]] = defaultdict(list)
        for i, j, w in zip(a, b, np.asarray(weight, dtype=float), strict=True):
            faced[i].append((j, w))
            faced[j].append((i, w))
        apart = separate_groups(reach, played, core)
        for i, matches in played.items():
            note = "thin" if len(matches) < minimum else ""
            group = core if i in core else apart.get(i)
            if group is not None:
                own = group is not core
                centred = fit.strengths - float(np.mean(fit.strengths[group])) if own else strength
                spread = boot.samples - boot.samples[:, group].mean(axis=1, keepdims=True) if own else samples
                low, high = np.percentile(spread[:, i], [tail, 100.0 - tail]) if own else (low_all[i], high_all[i])
                note = "; ".join(x for x in ("separate group: 0 = its own mean" if own else "", note) if x)
                estimate = Estimate(float(centred[i]), float(low), float(high), len(matches))
                table[labels[i]][scope] = Cell.of(estimate, matches, note=note)
                continue
            up, down = not reach[core[0], i], not reach[i, core[0]]
            side = "unbounded above" if up and not down else "unbounded below" if down and not up else "not connected"
            note = "; ".join(x for x in (side, note) if x)
            rivals = [(j, w) for j, w in faced[i] if j in core]
            if not rivals or side == "not connected":
                table[labels[i]][scope] = Cell.of(Estimate(None, None, None, len(matches)), matches, note=note)
                continue
            bound = one_sided_bound([(float(strength[j]), w) for j, w in rivals], above=up)
            low, high = (bound, None) if up else (None, bound)
            table[labels[i]][scope] = Cell.of(Estimate(bound, low, high, len(matches)), matches, note=note)
    return dict(table)


def one_sided_bound(rivals: list[tuple[float, float]], *, above: bool) -> float:
    """The bound of an agent that beat (`above`) or lost to every one of `rivals` (strength, games): their mean
    strength by games ± the zero-failure one-sided log-odds, but never short of the strongest rival it beat (the
    weakest it lost to): the data rank it beyond each of them."""
    games = sum(w for _, w in rivals)
    mean = sum(value * w for value, w in rivals) / games
    if above:
        return max(mean + one_sided(LEVEL, games), max(value for value, _ in rivals))
    return min(mean - one_sided(LEVEL, games), min(value for value, _ in rivals))


def separate_groups(reach: np.ndarray, played: dict[int, set[int]], core: list[int]) -> dict[int, list[int]]:
    """The agents connected to `core` neither way, by the group of two or more they are bound in among themselves
    (reachable both ways): each such group is anchored on its own mean."""
    groups: dict[int, list[int]] = {}
    for i in sorted(played):
        if i in core or i in groups or reach[core[0], i] or reach[i, core[0]]:
            continue
        group = [j for j in sorted(played) if reach[i, j] and reach[j, i]]
        if len(group) > 1:
            groups.update(dict.fromkeys(group, group))
    return groups


def category_means(cells: dict[str, Cell]) -> dict[str, Cell]:
    """Table 3 radar: per category, the mean strength over its games the agent played enough (thin and unbounded
    cells left out: a mean with an unbounded term is unbounded)."""
    out = {}
    for category, games in CATEGORIES.items():
        counted = [cells[g] for g in games if g in cells and not cells[g].note]
        if counted:
            value = float(np.mean([c.value for c in counted]))
            matches = [m for c in counted for m in c.matches]
            out[category] = Cell(value, None, None, len(set(matches)), tuple(sorted(set(matches))))
    return out


def sort_key(cell: Cell | None) -> float:
    """Figure 1's order: by the value, an unbounded cell by its bound (the most the data say), none last."""
    return -cell.value if cell is not None and cell.value is not None else np.inf


def average_scores(rows: list[Result], labels: list[str], rng: np.random.Generator, rounds: int) -> dict[str, dict]:
    """GameBench Table 2: per agent and game (and overall, its games of GameBench's nine pooled), its total score /
    games played,
    each seat it held counting as a game played; 90% bootstrap interval over those games."""
    scores: dict[str, dict[str, list[tuple[int, float]]]] = defaultdict(lambda: defaultdict(list))
    for r in rows:
        for label, value in zip(r.labels, r.scores, strict=True):
            scores[label][r.game].append((r.match, value))
            if r.game in PAPER_GAMES:
                scores[label]["overall"].append((r.match, value))
    out: dict[str, dict[str, Cell]] = {}
    for label in labels:
        out[label] = {}
        for game, played in scores.get(label, {}).items():
            estimate = bootstrap_mean([v for _, v in played], rng=rng, rounds=rounds, level=LEVEL)
            out[label][game] = Cell.of(estimate, [m for m, _ in played])
    return out


def tables(
    rows: list[Result],
    *,
    filters: ReportFilters,
    rounds: int,
    seed: int = 0,
    kinds: dict[str, str] | None = None,
) -> list[Table]:
    """Figure 1 (a: per game, b: overall), Table 2 (average scores) and the Table 3 category radar; models and the
    human baseline, scripted agents too with `bots=show` (`kinds`: label → agent kind; unknown counts as a model)."""
    cells = ratings(rows, rounds=rounds, rng=np.random.default_rng(seed), minimum=min_games())
    asked = [label for label in cells if filters.shows(label)]
    kept = across_agents(asked, kinds or {}, filters)
    shown = {label: cells[label] for label in kept}
    hidden = len(asked) - len(kept)
    games = sorted({g for c in shown.values() for g in c if g != "overall"})
    columns = [*games, "overall"] if len(PAPER_GAMES.intersection(games)) > 1 else games
    order = sorted(
        shown, key=lambda label: (sort_key(shown[label].get("overall") or shown[label].get(columns[0])), label)
    )
    who = (
        "Scripted agents included (bots=show)."
        if filters.with_bots
        else f"Models and the human baseline; {hidden} scripted agents were rated with them (they stay in the fit) "
        "but are not shown: add bots=show."
    )
    figure = Table(
        key="figure-1",
        title="Figure 1: rating per game and overall",
        source="GameBench §3.3, Figure 1 (a, b)",
        columns=columns,
        rows=[(label, [shown[label].get(c) for c in columns]) for label in order],
        note=f"Bradley–Terry strength in nats, 0 = the mean of the agents the data bound; overall pools GameBench's "
        "nine games only (App. J), each weighted equally; other games have their own columns. 90% bootstrap intervals "
        f"over {rounds} resamples. An agent that won (or lost) every game it played has no finite strength: its "
        "cell shows only a bound (≥ or ≤), never short of an agent it beat (lost to), noted unbounded, sorted by "
        "that bound and drawn as a one-sided interval. Agents the data do not connect to the others are not given "
        "their scale: a group of them is centred on its own mean (noted separate group), a lone one is noted not "
        f"connected. A cell with fewer than {min_games()} matches is marked thin and is not used to rank. "
        "Models appear once per scaffold; the people of the report's human baseline (everyone who agreed to "
        f"baseline use, or the chosen study's participants) are pooled as human-baseline. {who}",
        level=LEVEL,
        intervals="90% bootstrap intervals (GameBench's level); an unbounded cell: a one-sided 95% bound",
        dot_plot=True,
    )
    scores = average_scores(rows, kept, np.random.default_rng(seed), rounds)
    table2 = Table(
        key="table-2",
        title="Table 2: average score per game",
        source="GameBench Table 2",
        columns=columns,
        rows=[(label, [scores[label].get(c) for c in columns]) for label in order],
        note="Total score the agent achieved in a game / games it played there (a win 1, a draw ½ in two-seat "
        "games; each seat it held is a game played); overall pools its games of GameBench's nine. — where it played "
        "none.",
        level=LEVEL,
        intervals="90% bootstrap intervals over the agent's games",
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
        "enough (thin and unbounded cells left out); our games' category membership is our choice "
        f"(docs/metrics.md). {who}",
        level=None,
        intervals="no intervals: means of Figure 1's values",
        radar=True,
    )
    return [figure, table2, table3]


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
    order = sorted(plain, key=lambda label: (sort_key(plain[label].get("overall")), label))
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
        intervals="90% bootstrap intervals (GameBench's level); an unbounded cell: a one-sided 95% bound",
    )


def build(filters: ReportFilters) -> Report:
    matches = finished_matches(GAMES, filters)
    rows = results(matches, baseline=filters.baseline)
    out = tables(rows, filters=filters, rounds=bootstrap_rounds(), kinds=label_kinds(matches, filters.baseline))
    reference = reference_table(list(ReferenceRecord.objects.filter(source="gamebench")), rounds=bootstrap_rounds())
    shown = with_published("gamebench", out + ([reference] if reference else []))
    return Report("gamebench", TITLE, with_departures("gamebench", CITATION), shown, filters)
