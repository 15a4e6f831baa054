"""Leduc hold'em (Southey et al. 2005): six cards, one private card each, a public board card, two betting rounds.

The engine, the deal and the match format are the fixed-limit engine's (games.limit_poker), which Kuhn poker
shares.
"""

from __future__ import annotations

from games.limit_poker import LimitPoker, LimitSpec

LEDUC = LimitSpec(ranks="JQK", suits="sh", bets=(2, 4), max_bets=2)


class LeducHoldem(LimitPoker):
    slug = "leduc-holdem"
    name = "Leduc hold'em"
    spec = LEDUC

    def rules_text(self) -> str:
        return (
            "Leduc hold'em, a match of several hands between the same two players (Player 1 and Player 2). "
            "The deck has six cards: two jacks, two queens and two kings (Js Jh Qs Qh Ks Kh; suits never matter). "
            "Each hand both players put in an ante of 1 chip and get one private card. "
            "Round 1: betting with a fixed bet of 2. Then one public board card is turned up. "
            "Round 2: betting with a fixed bet of 4. In each round at most two bets are made (a bet and one raise). "
            "The same player opens both rounds of a hand; the players take turns opening hands. "
            "Actions: check (when there is no bet), bet, call, raise (when facing a bet), fold (when facing a bet). "
            "A round ends when a bet is called or both players check. "
            "At the showdown a player whose card pairs the board wins; otherwise the higher card (K > Q > J) wins; "
            "equal cards split the pot. "
            "The match winner is the player who won more chips over all hands; equal totals are a draw.\n"
            "Answer with one word: fold, check, call, bet or raise."
        )
