"""Kuhn poker (Kuhn 1950): three cards, one private card each, one betting round with a fixed bet of 1.

The engine, the deal and the match format are the fixed-limit engine's (games.limit_poker): seat 0 gets the
first card of each hand's shuffled deck and seat 1 the second, and seat `hand % 2` acts first in
that hand. A match is `hands` hands, 30 by default: Kuhn hands are small, and with fewer the
equilibrium bot's edge over the rule-based level drowns in card luck (docs/games.md).
"""

from __future__ import annotations

from games.limit_poker import LimitPoker, LimitSpec

KUHN = LimitSpec(ranks="JQK", suits="", bets=(1,), max_bets=1)


class KuhnPoker(LimitPoker):
    slug = "kuhn-poker"
    name = "Kuhn poker"
    spec = KUHN
    default_hands = 30

    def rules_text(self) -> str:
        return (
            "Kuhn poker, a match of several hands between the same two players (Player 1 and Player 2). "
            "The deck has three cards: J < Q < K. Each hand both players put in an ante of 1 chip and get one "
            "private card; the third card stays unseen. The player who opens the hand may check or bet 1 chip. "
            "After a check the other player may check (showdown for the 2-chip pot) or bet 1. "
            "Facing a bet a player may call (showdown) or fold (the bettor takes the pot). Only one bet is "
            "allowed per hand (no raises). At the showdown the higher card wins the pot. "
            "The players take turns opening hands. The match winner is the player who won more chips over all "
            "hands; equal totals are a draw.\n"
            "Answer with one word: check, bet, call or fold."
        )
