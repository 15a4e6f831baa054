"""Pit bots: each seals an offer from its own hand only — never another seat's hand or sealed offer."""

from __future__ import annotations

import random
from typing import Any

from games.base import Game
from games.bots.base import Bot, random_chooser
from games.pit import COMMODITIES, MAX_OFFER, Action, PitState


def trader_chooser(*, wander: float) -> Any:
    """Keep the commodity held most; offer every card (up to 4) of the one held least. `wander`: chance of a random
    offer instead."""

    def choose(game: Game, state: PitState, rng: random.Random) -> Action:
        if rng.random() < wander:
            return rng.choice(game.legal_actions(state)[1:])
        hand = state.hands[game.current_player(state)]
        held = [(n, rng.random(), c) for c, n in zip(COMMODITIES, hand, strict=True) if n]
        keep = max(held)[2]
        _, _, give = min(h for h in held if h[2] != keep)
        return (give, min(hand[COMMODITIES.index(give)], MAX_OFFER))

    return choose


LADDER = [
    Bot("pit", 0, "Uniformly random legal offer (passing included).", random_chooser),
    Bot(
        "pit", 1, "Never passes; offers a random 1-4 cards of a random commodity it holds.", trader_chooser(wander=1.0)
    ),
    Bot(
        "pit",
        2,
        "Keeps its biggest commodity and offers all cards (up to 4) of its smallest.",
        trader_chooser(wander=0.0),
    ),
]
