"""Kuhn poker ladder: random, a loose rule, then the CFR+ Nash equilibrium (an exactly known anchor).

The equilibrium does not exploit: an honest "bet kings, call with queens" bot is a best response to it
and draws. The Lv1 rule (never fold, bet whenever allowed except when opening a jack) is the pure
strategy that both beats random and loses most to the equilibrium (docs/games.md).

Every bot decides from `player_view` of its own seat only: its card and the public betting.
"""

from __future__ import annotations

import random
from functools import cache

from games.bots.base import Bot, random_chooser
from games.bots.cfr import Solver, Strategy
from games.bots.leduc_holdem import seen, table_player
from games.kuhn_poker import KUHN, KuhnPoker
from games.limit_poker import LimitPokerState

SOLVER_ITERATIONS = 500  # exploitability below 1e-4 chips per hand, in well under a second


@cache
def equilibrium() -> Strategy:
    """The CFR+ average strategy of Kuhn poker, computed once per process."""
    return Solver(KUHN).run(SOLVER_ITERATIONS).strategy_table()


def _never_folds(game: KuhnPoker, state: LimitPokerState, rng: random.Random) -> str:
    """Bets whenever it may except when opening with a jack, and calls every bet."""
    own, _, actions = seen(game, state)
    legal = game.legal_actions(state)
    if "bet" in legal:
        return "check" if own == "J" and actions == "" else "bet"
    return "call"


LADDER = [
    Bot("kuhn-poker", 0, "uniform random legal action", random_chooser),
    Bot("kuhn-poker", 1, "never folds; bets whenever it may, except when it opens with a jack", _never_folds),
    Bot("kuhn-poker", 2, "Nash equilibrium by CFR+ (game value −1/18 for the opener)", table_player(equilibrium)),
]
