"""Game-independent search used by the bot ladders: alpha-beta and UCT Monte-Carlo tree search."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable
from typing import Any

from games.base import Game

WIN = 1_000_000.0

#: evaluate(state, player) -> score of a non-terminal state from `player`'s point of view.
Evaluator = Callable[[Any, int], float]


def terminal_value(game: Game, state: Any, player: int) -> float:
    """+WIN / 0 / -WIN for a finished game, from `player`'s point of view."""
    outcome = game.outcome(state)
    assert outcome is not None  # callers only pass terminal states
    return (outcome.scores[player] - 0.5) * 2 * WIN


def alpha_beta(
    game: Game,
    state: Any,
    depth: int,
    evaluate: Evaluator,
    rng: random.Random,
    order: Callable[[Any, list[Any]], list[Any]] | None = None,
) -> Any:
    """The best action at `depth` plies for the player to move; ties broken by `rng`.

    Works for two-player zero-sum games whose turns may repeat (passes, multi-step turns):
    each node maximises for its own mover.
    """
    me = game.current_player(state)
    actions = game.legal_actions(state)
    rng.shuffle(actions)
    if order is not None:
        actions = order(state, actions)
    best_value, best_actions = -math.inf, []
    alpha = -math.inf
    for action in actions:
        child = game.apply(state, action)
        value = _search(game, child, depth - 1, alpha, math.inf, me, evaluate, order)
        if value > best_value:
            best_value, best_actions = value, [action]
        elif value == best_value:
            best_actions.append(action)
        alpha = max(alpha, value)
    return best_actions[0]


def _search(
    game: Game,
    state: Any,
    depth: int,
    alpha: float,
    beta: float,
    me: int,
    evaluate: Evaluator,
    order: Callable[[Any, list[Any]], list[Any]] | None,
) -> float:
    """Value of `state` for `me`, searched `depth` more plies (max nodes for `me`, min otherwise)."""
    mover = game.current_player(state)
    if mover is None:
        # Prefer quick wins and slow losses.
        return terminal_value(game, state, me) * (1 + depth / 1000)
    if depth <= 0:
        return evaluate(state, me)
    actions = game.legal_actions(state)
    if order is not None:
        actions = order(state, actions)
    if mover == me:
        value = -math.inf
        for action in actions:
            value = max(value, _search(game, game.apply(state, action), depth - 1, alpha, beta, me, evaluate, order))
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return value
    value = math.inf
    for action in actions:
        value = min(value, _search(game, game.apply(state, action), depth - 1, alpha, beta, me, evaluate, order))
        beta = min(beta, value)
        if alpha >= beta:
            break
    return value


class _Node:
    __slots__ = ("action", "children", "mover", "state", "untried", "visits", "wins")

    def __init__(self, game: Game, state: Any, action: Any, rng: random.Random) -> None:
        self.state = state
        self.action = action
        self.mover = game.current_player(state)
        self.untried = game.legal_actions(state) if self.mover is not None else []
        rng.shuffle(self.untried)
        self.children: list[_Node] = []
        self.visits = 0
        self.wins = 0.0  # from the point of view of the player who moved INTO this node


def mcts(
    game: Game,
    state: Any,
    iterations: int,
    rng: random.Random,
    rollout: Callable[[Game, Any, random.Random], Any] | None = None,
    exploration: float = 1.4,
) -> Any:
    """UCT search with `iterations` playouts; returns the most visited action.

    `rollout(game, state, rng)` picks playout moves (default: uniformly random).
    """
    pick = rollout or (lambda g, s, r: g.random_action(s, r))
    root = _Node(game, state, None, rng)
    for _ in range(iterations):
        node, path = root, [root]
        while not node.untried and node.children:
            log_n = math.log(node.visits)
            node = max(
                node.children,
                key=lambda c: c.wins / c.visits + exploration * math.sqrt(log_n / c.visits),
            )
            path.append(node)
        if node.untried:
            action = node.untried.pop()
            child = _Node(game, game.apply(node.state, action), action, rng)
            node.children.append(child)
            node = child
            path.append(node)
        rollout_state = node.state
        while game.current_player(rollout_state) is not None:
            rollout_state = game.apply(rollout_state, pick(game, rollout_state, rng))
        scores = game.outcome(rollout_state).scores
        for parent, visited in itertools.pairwise(path):
            visited.visits += 1
            visited.wins += scores[parent.mover]
        root.visits += 1
    return max(root.children, key=lambda c: c.visits).action
