"""Pit bots: each seals an offer from its own hand only — never another seat's hand or sealed offer."""

from __future__ import annotations

import random

from games.base import Game
from games.bots.base import Bot, random_chooser
from games.pit import MAX_OFFER, Action, PitState, kinds


def collector_chooser(game: Game, state: PitState, rng: random.Random) -> Action:
    """Keep the commodity held most; offer every card (up to 4) of the one held least, ties broken at random."""
    hand = state.hands[game.current_player(state)]
    names = kinds(state.gamebench)
    held = [(n, rng.random(), c) for c, n in zip(names, hand, strict=True) if n]
    keep = max(held)[2]
    _, _, give = min(h for h in held if h[2] != keep)
    return (give, min(hand[names.index(give)], MAX_OFFER))


LADDER = [
    Bot("pit", 0, "Uniformly random legal offer (passing included).", random_chooser),
    Bot("pit", 1, "Keeps its biggest commodity and offers all cards (up to 4) of its smallest.", collector_chooser),
]
