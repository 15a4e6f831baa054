"""Hold'em ladder: random, a hand-strength rule, then Monte-Carlo equity with pot odds that reads the bets.

Every bot reads only `player_view` of its own seat (its hole cards, the board, the bets), never the
opponent's cards. Equity is estimated against a random opponent hand by dealing the unseen cards
(pokerkit's hand strength via games.holdem.cards); the top level also narrows the opponent's
range when it has put in a large bet.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.bots.base import Bot, random_chooser
from games.holdem import Holdem, HoldemState
from games.holdem.betting import BIG_BLIND, CALL, FOLD, Action
from games.holdem.cards import DECK, RANKS, best_hand, hand_label


@dataclass(frozen=True)
class Seen:
    """What the seat to act knows: its cards, the board and the betting."""

    seat: int
    hole: tuple[str, str]
    board: tuple[str, ...]
    pot: int
    to_call: int
    bounds: tuple[int, int] | None  # raise-to range, None when raising is not allowed
    opponent_in: int  # chips the opponent has put in this hand
    street_bet: int  # the current bet to match in this betting round


def seen(game: Holdem, state: HoldemState) -> Seen:
    seat = game.current_player(state)
    hand: dict[str, Any] = game.player_view(state, seat)["current"]
    bounds = hand["raise_bounds"]
    return Seen(
        seat=seat,
        hole=tuple(hand["cards"][seat]),
        board=tuple(hand["board"]),
        pot=hand["pot"],
        to_call=hand["to_call"],
        bounds=(bounds[0], bounds[1]) if bounds else None,
        opponent_in=hand["committed"][1 - seat],
        street_bet=max(hand["street_bet"]),
    )


def raise_to(view: Seen, fraction: float) -> Action:
    """A raise of `fraction` of the pot after calling, kept within the legal range; a call when raising is closed."""
    if view.bounds is None:
        return CALL
    size = view.street_bet + int((view.pot + view.to_call) * fraction)
    return ("raise", max(view.bounds[0], min(view.bounds[1], size)))


def all_in(view: Seen) -> Action:
    return ("raise", view.bounds[1]) if view.bounds else CALL


def chen_score(hole: tuple[str, str]) -> float:
    """Bill Chen's preflop score (about −1 for 7-2 offsuit … 20 for aces)."""
    values = {"A": 10, "K": 8, "Q": 7, "J": 6}
    high, low = sorted(hole, key=lambda c: RANKS.index(c[0]), reverse=True)
    score = values.get(high[0], (RANKS.index(high[0]) + 2) / 2)
    if high[0] == low[0]:
        return max(score * 2, 5)
    if high[1] == low[1]:
        score += 2
    gap = RANKS.index(high[0]) - RANKS.index(low[0]) - 1
    score -= (0, 1, 2, 4)[gap] if gap < 4 else 5
    if gap <= 1 and RANKS.index(high[0]) < RANKS.index("Q"):
        score += 1
    return score


def _rule_based(game: Holdem, state: HoldemState, rng: random.Random) -> Action:
    """Lv1: preflop by Chen score, after the flop by the made hand; a calling station with playable hands."""
    view = seen(game, state)
    if not view.board:
        score = chen_score(view.hole)
        strong, playable = score >= 9, score >= 5
    else:
        label = hand_label((*view.hole, *view.board))
        strong = label not in ("High card", "One pair")
        playable = label != "High card"
    if strong:
        return raise_to(view, 1.0)
    if playable or view.to_call == 0:
        return CALL
    return FOLD


def _plausible(hole: tuple[str, str], board: tuple[str, ...], tight: float, bet_now: bool) -> bool:
    """Whether the opponent could hold `hole` given its betting (see `equity`)."""
    if tight and chen_score(hole) < tight:
        return False
    # A bet after the flop usually means at least a pair or an ace.
    return not (
        bet_now and board and "A" not in (hole[0][0], hole[1][0]) and hand_label((*hole, *board)) == "High card"
    )


def equity(
    hole: tuple[str, ...],
    board: tuple[str, ...],
    samples: int,
    rng: random.Random,
    tight: float = 0.0,
    bet_now: bool = False,
) -> float:
    """Share of the pot won (ties count half) over `samples` random deals of the unseen cards.

    The opponent's hand is random, but redealt (up to 30 times) when it is implausible for the
    betting: a Chen score below `tight`, or no pair and no ace after betting this round (`bet_now`).
    """
    unseen = [card for card in DECK if card not in hole and card not in board]
    missing = 5 - len(board)
    narrowed = bool(tight) or bet_now
    won = 0.0
    for _ in range(samples):
        for _attempt in range(30):
            drawn = rng.sample(unseen, 2 + missing)
            if not narrowed or _plausible((drawn[0], drawn[1]), board, tight, bet_now):
                break
        full_board = (*board, *drawn[2:])
        ours = best_hand((*hole, *full_board))
        theirs = best_hand((drawn[0], drawn[1], *full_board))
        won += 1.0 if ours > theirs else 0.5 if ours == theirs else 0.0
    return won / samples


def monte_carlo(samples: int, read_bets: bool):
    """Call when equity beats the pot odds by 5 points, raise with a clear edge, shove with a big one."""

    def choose(game: Holdem, state: HoldemState, rng: random.Random) -> Action:
        view = seen(game, state)
        tight, bet_now = 0.0, False
        if read_bets:
            if view.opponent_in > 4 * BIG_BLIND:
                # Someone who has put in many chips rarely holds the weakest hands.
                tight = 6.0 if view.opponent_in < 2_000 else 9.0
            bet_now = view.to_call > 0 and bool(view.board)
        win = equity(view.hole, view.board, samples, rng, tight, bet_now)
        if win > 0.85:
            return all_in(view)
        if win > 0.65:
            return raise_to(view, 1.0 if win > 0.75 else 0.5)
        if view.to_call == 0:
            return CALL
        pot_odds = view.to_call / (view.pot + view.to_call)
        return CALL if win > pot_odds + 0.05 else FOLD

    return choose


# A 20-hand match is decided by a few all-ins, so card luck caps how far apart two levels can be: an equity bot
# between these two (60 deals, no range reading) could not beat both neighbours' steps by 70% (docs/games.md).
LADDER = [
    Bot("holdem", 0, "uniform random among fold, check/call and the four raise sizes", random_chooser),
    Bot("holdem", 1, "hand-strength rules: Chen score before the flop, the made hand after; calls down", _rule_based),
    Bot(
        "holdem",
        2,
        "Monte-Carlo equity (600 deals) against pot odds, with the opponent's range narrowed by its bets",
        monte_carlo(600, True),
    ),
]
