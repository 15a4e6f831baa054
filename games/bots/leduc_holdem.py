"""Leduc hold'em ladder: random, a per-round hand-strength rule, then a CFR+ Nash equilibrium.

Every bot decides from `player_view` of its own seat only: its card, the board card once dealt,
and the public betting (never the opponent's card).
"""

from __future__ import annotations

import random
from functools import cache

from games.bots.base import Bot, random_chooser
from games.bots.cfr import Solver, Strategy, info_set_key
from games.leduc_holdem import LEDUC, LeducHoldem
from games.limit_poker import LimitPoker, LimitPokerState

SOLVER_ITERATIONS = 200  # exploitability about 0.005 chips per hand; about 2 s, once per process


@cache
def equilibrium() -> Strategy:
    """The CFR+ average strategy of Leduc hold'em, computed once per process."""
    return Solver(LEDUC).run(SOLVER_ITERATIONS).strategy_table()


def seen(game: LimitPoker, state: LimitPokerState) -> tuple[str, str, str]:
    """(own card, board card or '', this hand's actions) as the seat to act sees them."""
    seat = game.current_player(state)
    hand = game.player_view(state, seat)["current"]
    return hand["cards"][seat], hand["board"], hand["codes"]


def table_player(table_of):
    """A chooser that samples its action from a strategy table (a function returning it, so it loads lazily)."""

    def choose(game: LimitPoker, state: LimitPokerState, rng: random.Random) -> str:
        own, board, actions = seen(game, state)
        probabilities = table_of()[info_set_key(own, board, actions)]
        return rng.choices(game.legal_actions(state), weights=probabilities)[0]

    return choose


def strength(own: str, board: str) -> int:
    """0 (J, no pair) … 2 (K, no pair), 3 for a pair with the board."""
    if board and own[0] == board[0]:
        return 3
    return "JQK".index(own[0])


def _by_strength(aggressive_from: tuple[int, int], call_from: tuple[int, int]):
    """Per round: bet or raise with strength ≥ `aggressive_from`, call with ≥ `call_from`, else check or fold."""

    def choose(game: LimitPoker, state: LimitPokerState, rng: random.Random) -> str:
        own, board, _ = seen(game, state)
        legal = game.legal_actions(state)
        power = strength(own, board)
        second = 1 if board else 0
        if power >= aggressive_from[second]:
            return next((a for a in ("raise", "bet") if a in legal), "call")
        if "check" in legal:
            return "check"
        return "call" if power >= call_from[second] else "fold"

    return choose


LADDER = [
    Bot("leduc-holdem", 0, "uniform random legal action", random_chooser),
    Bot(
        "leduc-holdem",
        1,
        "never folds; only checks and calls in round 1, bets and raises with a queen or better in round 2",
        _by_strength((3, 1), (0, 0)),
    ),
    Bot(
        "leduc-holdem",
        2,
        "Nash equilibrium by CFR+ (exploitability about 0.005 chips a hand)",
        table_player(equilibrium),
    ),
]

__all__ = ["LADDER", "LeducHoldem", "equilibrium", "seen", "table_player"]
