"""The Bradley–Terry part of a leaderboard, fitted from the rating cells (never the matches themselves)."""

from __future__ import annotations

from datetime import date

import numpy as np
from django.conf import settings
from django.db.models import Sum

from arena.models import Agent
from games import get_game
from ratings.maths.leaderboard import Cells, fit_cells
from ratings.record.models import RatingCell, RatingCount


def bootstrap_rounds() -> int:
    return int(getattr(settings, "ARENA_BOOTSTRAP_ROUNDS", 1000))


def _agent_row(agent: Agent) -> dict:
    return {
        "slug": agent.slug,
        "name": agent.name,
        "kind": agent.kind,
        "game": agent.game,
        "scaffold": agent.current_version().config.get("scaffold", "") if agent.kind == Agent.Kind.LLM else "",
        "consent": agent.baseline_consent,
    }


def _anchors(agents: dict[int, Agent], index: dict[int, int]) -> list[int]:
    """The Lv0 bots (uniform-random players), each at 1000 on every leaderboard."""
    return [i for pk, i in index.items() if agents[pk].kind == Agent.Kind.BOT and agents[pk].slug.endswith("-lv0")]


# Bradley–Terry from the cells: a refit reads one row per (pair, first mover, score, rating key, filter keys).


def _scoped(rows, game: str, filters: dict[str, str]):
    """Cells or counts of the scope ("" all, a game, or game:variant) under the fit-changing filters."""
    if game:
        rows = rows.filter(key=game)
    if filters.get("prompt"):
        rows = rows.filter(prompt=filters["prompt"])
    if filters.get("since"):
        rows = rows.filter(day__gte=date.fromisoformat(filters["since"]))
    if filters.get("until"):
        rows = rows.filter(day__lt=date.fromisoformat(filters["until"]))
    return rows


def scope_cells(*, game: str, filters: dict[str, str]) -> tuple[Cells, list[int], int]:
    """The scope's cells as Bradley–Terry input (agent indices into the returned agent pks, ascending), each
    weighted by N / (G · its game's matches) so every game counts equally, and N, the number of rated matches."""
    counts = dict(_scoped(RatingCount.objects, game, filters).values_list("key").annotate(n=Sum("matches")))
    counts = {key: n for key, n in counts.items() if n}
    grouped = _scoped(RatingCell.objects, game, filters).values_list("key", "a", "b", "first_mover", "score")
    cells = list(grouped.annotate(weight=Sum("weight")).order_by())
    total = sum(counts.values())
    order = sorted({c[1] for c in cells} | {c[2] for c in cells})
    index = {pk: i for i, pk in enumerate(order)}
    game_weight = {key: total / (len(counts) * n) for key, n in counts.items()}
    arrays = Cells(
        first=np.array([index[c[1]] for c in cells], dtype=np.int64),
        second=np.array([index[c[2]] for c in cells], dtype=np.int64),
        score_first=np.array([c[4] for c in cells], dtype=float),
        weight=np.array([c[5] * game_weight[c[0]] for c in cells], dtype=float),
        first_mover=np.array([c[3] for c in cells], dtype=float),
    )
    return arrays, order, total


def components(first: np.ndarray, second: np.ndarray, n_agents: int) -> list[list[int]]:
    """The agents linked by chains of matches, largest first (ties: lowest index first); each sorted."""
    parent = list(range(n_agents))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b in zip(first.tolist(), second.tolist(), strict=True):
        parent[root(a)] = root(b)
    groups: dict[int, list[int]] = {}
    for i in range(n_agents):
        groups.setdefault(root(i), []).append(i)
    return sorted(groups.values(), key=lambda group: (-len(group), group[0]))


def game_name(key: str) -> str:
    """A rating key as people read it: "Skirmish (real-time)" for skirmish:real-time."""
    slug, _, variant = key.partition(":")
    return get_game(slug).name + (f" ({variant})" if variant else "")


def pair_matches(*, game: str, filters: dict[str, str]) -> list[tuple[int, int, str, float]]:
    """(agent pk a, agent pk b, rating key, matches) per pair and game in the scope: the pairs of a match weigh 1
    in all, so their summed weights count matches."""
    pairs = _scoped(RatingCell.objects, game, filters).values_list("a", "b", "key").annotate(n=Sum("weight"))
    return list(pairs.order_by())


def agent_games(pairs: list[tuple[int, int, str, float]]) -> dict[int, list[str]]:
    """Per agent pk, the names of the games (rating keys) of its rated results, sorted."""
    games: dict[int, set[str]] = {}
    for a, b, key, _ in pairs:
        games.setdefault(a, set()).add(key)
        games.setdefault(b, set()).add(key)
    return {pk: sorted(game_name(key) for key in keys) for pk, keys in games.items()}


def component_label(games: list[str]) -> str:
    """A component's name on the board: its game, or the games it links ("Chess, Reversi and 5 more games")."""
    if len(games) <= 3:
        return " + ".join(games) if len(games) > 1 else (games[0] if games else "")
    return f"{games[0]}, {games[1]} and {len(games) - 2} more games"


def fit_compute(*, game: str = "", filters: dict[str, str] | None = None) -> dict:
    """The Bradley–Terry part of a scope's leaderboard from the rating cells: per agent its rating, interval,
    rank range, provisional flag and the games it played (sorted best first); the components, each with its
    first-move term; the first-move term of the one with most matches; the number of rated matches. Every game
    counts equally on the all-games board: a cell's weight is scaled by N / (G · its game's matches).

    Agents the record does not link by chains of matches are not compared: each connected component is fitted on
    its own, every Lv0 bot in it at 1000 (`fit_cells`), and ranked within itself; a row names its `component`
    (0 = the largest) and the component's label (its game, or the games it links)."""
    filters = filters or {}
    arrays, order, total = scope_cells(game=game, filters=filters)
    agents = Agent.objects.in_bulk(order)
    pairs = pair_matches(game=game, filters=filters)
    played_in = agent_games(pairs)
    rounds = bootstrap_rounds()
    table, summaries = [], []
    for number, members in enumerate(components(arrays.first, arrays.second, len(order))):
        local = {agent: i for i, agent in enumerate(members)}
        mask = np.isin(arrays.first, members)
        sub = Cells(
            first=np.array([local[i] for i in arrays.first[mask].tolist()], dtype=np.int64),
            second=np.array([local[i] for i in arrays.second[mask].tolist()], dtype=np.int64),
            score_first=arrays.score_first[mask],
            weight=arrays.weight[mask],
            first_mover=arrays.first_mover[mask],
        )
        # Each match's pairs weigh 1 in all (times its game's weight, mean 1): the component's share of the draws.
        draws = max(1, round(float(sub.weight.sum())))
        component_agents = {i: agents[order[agent]] for agent, i in local.items()}
        anchors = [i for i, a in component_agents.items() if a.kind == Agent.Kind.BOT and a.slug.endswith("-lv0")]
        fitted = fit_cells(sub, n_agents=len(members), anchors=anchors, rounds=rounds, draws=draws)
        games = sorted({name for a in component_agents.values() for name in played_in.get(a.pk, [])})
        pks = {a.pk for a in component_agents.values()}
        label = component_label(games)
        for i, agent in component_agents.items():
            row = _agent_row(agent) | {column: fitted[column][i] for column in FIT_COLUMNS}
            table.append(row | {"component": number, "component_label": label, "games": played_in.get(agent.pk, [])})
        summaries.append(
            {
                "number": number,
                "label": label,
                "games": games,
                "agents": len(members),
                "matches": round(sum(n for a, _, _, n in pairs if a in pks)),
                "anchored": bool(anchors),
                "first_move_advantage": fitted["first_move_advantage"],
                "first_move_interval": fitted["first_move_interval"],
            }
        )
    table.sort(key=lambda r: (r["component"], -(r["rating"] if r["rating"] is not None else -1e9)))
    largest = max(summaries, key=lambda c: c["matches"], default={})  # its first-move term heads the board
    return {
        "rows": table,
        "components": summaries,
        "first_move_advantage": largest.get("first_move_advantage"),
        "first_move_interval": largest.get("first_move_interval"),
        "matches": total,
    }


#: The per-agent columns the Bradley–Terry refit writes (the others come from the replay of the record).
FIT_COLUMNS = ("rating", "lower", "upper", "rank", "provisional")
