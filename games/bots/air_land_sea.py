"""Air, Land & Sea bots: a one-move lookahead on theater control, mixed with random moves below the top.

Bots see only what their seat may know: before looking ahead they deal the cards hidden from them (the
opponent's hand, the opponent's face-down cards, the deck) again at random among the same places, so flipping
an opponent's face-down card is judged on a guess, never on the real card.
"""

from __future__ import annotations

import random
from dataclasses import replace

from games.air_land_sea import (
    Action,
    AirLandSea,
    AirLandSeaState,
    controller,
    strength,
)
from games.bots.base import Bot, random_chooser


def redeal_hidden(state: AirLandSeaState, seat: int, rng: random.Random) -> AirLandSeaState:
    """`state` with everything `seat` cannot see shuffled among its places (a determinisation)."""
    other = 1 - seat
    hidden = [*state.hands[other], *state.deck]
    hidden += [card for sides in state.board for card, up in sides[other] if not up]
    rng.shuffle(hidden)
    cards = iter(hidden)
    hand = tuple(sorted(next(cards) for _ in state.hands[other]))
    deck = tuple(next(cards) for _ in state.deck)
    board = tuple(
        tuple(
            stack if owner == seat else tuple((card, True) if up else (next(cards), False) for card, up in stack)
            for owner, stack in enumerate(sides)
        )
        for sides in state.board
    )
    hands = (state.hands[0], hand) if seat == 0 else (hand, state.hands[1])
    return replace(state, hands=hands, deck=deck, board=board)  # type: ignore[arg-type]


def position_value(state: AirLandSeaState, seat: int) -> float:
    """How well the battle stands for `seat`: theaters held count most, then strength margins (capped)."""
    value = 0.0
    for p in range(3):
        margin = strength(state, p, seat) - strength(state, p, 1 - seat)
        value += (3.0 if controller(state, p) == seat else -3.0) + max(-6, min(6, margin)) * 0.5
    return value


def value_after(game: AirLandSea, state: AirLandSeaState, action: Action, seat: int) -> float:
    after = game.apply(state, action)
    if after.battle != state.battle or game.outcome(after) is not None:
        gained = (after.vp[seat] - state.vp[seat]) - (after.vp[1 - seat] - state.vp[1 - seat])
        return 10.0 * gained
    return position_value(after, seat)


def lookahead_chooser(*, focus: float):
    """Picks the move with the best value one move ahead with chance `focus`, else a random one; never withdraws."""

    def choose(game: AirLandSea, state: AirLandSeaState, rng: random.Random) -> Action:
        seat = game.current_player(state)
        actions = [a for a in game.legal_actions(state) if a != ("withdraw",)]
        if rng.random() >= focus:
            return rng.choice(actions)
        guess = redeal_hidden(state, seat, rng)
        scored = [(value_after(game, guess, a, seat), a) for a in actions]
        best = max(v for v, _ in scored)
        return rng.choice([a for v, a in scored if v >= best - 1e-9])

    return choose


LADDER = [
    Bot("air-land-sea", 0, "Uniformly random legal move (withdrawals included).", random_chooser),
    Bot(
        "air-land-sea",
        1,
        "Never withdraws; 15% of its moves are Lv3's, the rest random.",
        lookahead_chooser(focus=0.15),
    ),
    Bot(
        "air-land-sea",
        2,
        "Never withdraws; half its moves are Lv3's, the rest random.",
        lookahead_chooser(focus=0.5),
    ),
    Bot(
        "air-land-sea",
        3,
        "Never withdraws; plays the move that leaves it holding the most theaters by the widest margins.",
        lookahead_chooser(focus=1.0),
    ),
]
