"""Santorini ladder: random, one-move heuristics that add win / block / climb, then alpha-beta at growing depth.

Climbing is so strong against a random mover that the heuristics come in three steps, each winning
70–90% of decisive games against the one below. The search works on raw (heights, workers) tuples
rather than game states: it is the hot loop.
"""

from __future__ import annotations

import random

from games.bots.base import Bot, random_chooser
from games.santorini import DOME, NEIGHBOURS, NO_BUILD, Action, Santorini, SantoriniState, can_move, turns

WIN = 1_000_000
CENTRE = (6, 7, 8, 11, 12, 13, 16, 17, 18)  # the inner 3×3, where workers reach most cells
# Worth of standing on level 0–3 (3 is a win, handled by the search).
HEIGHT_VALUE = (0, 40, 120, 0, 0)


def _place(game: Santorini, state: SantoriniState, rng: random.Random) -> Action:
    """Setup for the non-random levels: a free centre cell, else any free cell."""
    free = [c for c in CENTRE if c not in state.workers]
    return (rng.choice(free),) if free else game.random_action(state, rng)


def _apply(heights: tuple[int, ...], workers: tuple[int, ...], action: Action) -> tuple[tuple, tuple]:
    w, m, b = action
    moved = tuple(m if c == w else c for c in workers)
    if b == NO_BUILD:
        return heights, moved
    return (*heights[:b], heights[b] + 1, *heights[b + 1 :]), moved


def can_win_now(heights: tuple[int, ...], workers: tuple[int, ...], seat: int) -> bool:
    """Whether `seat` has a worker on level 2 next to a free level-3 cell."""
    for cell in workers[2 * seat : 2 * seat + 2]:
        if heights[cell] == 2:
            for n in NEIGHBOURS[cell]:
                if heights[n] == 3 and n not in workers:
                    return True
    return False


def evaluate(heights: tuple[int, ...], workers: tuple[int, ...], seat: int) -> int:
    """Height and mobility of `seat`'s workers minus the opponent's, from `seat`'s view."""
    score = 0
    for index, cell in enumerate(workers):
        h = heights[cell]
        value = HEIGHT_VALUE[h]
        for n in NEIGHBOURS[cell]:
            hn = heights[n]
            if hn <= h + 1 and hn != DOME and n not in workers:
                value += 4 + 6 * hn  # a cell to step to, worth more the higher it is
                if h == 2 and hn == 3:
                    value += 60  # a threat to climb next turn
        score += value if index // 2 == seat else -value
    return score


def _order(heights: tuple[int, ...], actions: list[Action]) -> list[Action]:
    """Climbs first (highest destination), then builds away from level 3 to not hand out wins."""
    return sorted(actions, key=lambda a: -heights[a[1]])


def _negamax(heights: tuple, workers: tuple, mover: int, depth: int, alpha: int, beta: int) -> int:
    """Value for `mover`, who is to move, searched `depth` more turns."""
    if can_win_now(heights, workers, mover):
        return WIN + depth  # sooner wins score higher
    if depth <= 0:
        if not can_move(heights, workers, mover):
            return -WIN - depth
        return evaluate(heights, workers, mover)
    actions = turns(heights, workers, mover)
    if not actions:
        return -WIN - depth
    best = -WIN * 2
    for action in _order(heights, actions):
        child_heights, child_workers = _apply(heights, workers, action)
        value = -_negamax(child_heights, child_workers, 1 - mover, depth - 1, -beta, -alpha)
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best


def search_turn(state: SantoriniState, depth: int, rng: random.Random) -> Action:
    """Alpha-beta over `depth` turns (1 = this turn, scored after the opponent's immediate win check)."""
    mover = state.ply % 2
    actions = turns(state.heights, state.workers, mover)
    wins = [a for a in actions if a[2] == NO_BUILD]
    if wins:
        return rng.choice(wins)
    rng.shuffle(actions)
    best, best_actions = -WIN * 3, []
    for action in _order(state.heights, actions):
        heights, workers = _apply(state.heights, state.workers, action)
        # Window (best - 1, +inf) keeps ties with the best exact, so they can be drawn at random.
        value = -_negamax(heights, workers, 1 - mover, depth - 1, -WIN * 3, -(best - 1))
        if value > best:
            best, best_actions = value, [action]
        elif value == best:
            best_actions.append(action)
    return rng.choice(best_actions)


def _heuristic(block: bool, climb: bool, lazy: float = 0.0):
    """A one-move heuristic: win in one if possible, else a random turn among those kept by the filters.

    `block` keeps turns after which the opponent cannot win at once; `climb` keeps those moving highest,
    except on a `lazy` share of turns, chosen at random, when it does not bother to climb.
    """

    def choose(game: Santorini, state: SantoriniState, rng: random.Random) -> Action:
        if game.placing(state):
            return _place(game, state, rng)
        mover = state.ply % 2
        actions = game.legal_actions(state)
        wins = [a for a in actions if a[2] == NO_BUILD]
        if wins:
            return rng.choice(wins)
        pool = actions
        if block:
            pool = [a for a in actions if not can_win_now(*_apply(state.heights, state.workers, a), 1 - mover)]
            pool = pool or actions
        if climb and not (lazy and rng.random() < lazy):
            top = max(state.heights[a[1]] for a in pool)
            pool = [a for a in pool if state.heights[a[1]] == top]
        return rng.choice(pool)

    return choose


def _searcher(depth: int):
    def choose(game: Santorini, state: SantoriniState, rng: random.Random) -> Action:
        if game.placing(state):
            return _place(game, state, rng)
        return search_turn(state, depth, rng)

    return choose


LADDER = [
    Bot("santorini", 0, "uniform random legal move", random_chooser),
    Bot("santorini", 1, "wins in one when it can, else a random turn", _heuristic(block=False, climb=False)),
    Bot(
        "santorini",
        2,
        "wins in one, blocks the opponent's win in one, and moves as high as it can on a quarter of its turns",
        _heuristic(block=True, climb=True, lazy=0.75),
    ),
    Bot(
        "santorini",
        3,
        "wins in one, blocks the opponent's win in one, and moves as high as it can",
        _heuristic(block=True, climb=True),
    ),
    Bot("santorini", 4, "1-turn search on height and mobility (sees the opponent's immediate wins)", _searcher(1)),
    Bot("santorini", 5, "2-turn alpha-beta on height and mobility", _searcher(2)),
]
