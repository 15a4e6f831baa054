"""Pit bots: each seals an offer from its own hand only — never another seat's hand or sealed offer.

The ladder is measured in the gamebench variant (LADDER_VARIANT): GameBench's two sides of two hands, so a step is
one level against another, side against side (docs/games.md, Pit's ladder).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.base import Game
from games.bots.base import Bot, random_chooser
from games.pit import BEAR, COMMODITIES, MAX_OFFER, VALUES, Action, PitState, kinds

LADDER_VARIANT = "gamebench"

Pick = Callable[..., str]  # min or max over the commodities to give, with a key


def _offer(game: Game, state: PitState, rng: random.Random, pick: Pick, cap: int) -> Action:
    """The Bear (one card) while the hand holds it; otherwise `pick` (min or max by count, ties at random) among
    the commodities held but the one held most (ties: the more valuable), at most `cap` cards of it. The Bull is
    never offered. A hand not cornering holds at least two commodities (nine cards or more, six of one corner)."""
    hand = dict(zip(kinds(state.gamebench), state.hands[game.current_player(state)], strict=True))
    if hand.get(BEAR):
        return (BEAR, 1)
    held = sorted((c for c in COMMODITIES if hand[c]), key=lambda c: (hand[c], VALUES[c], rng.random()))
    give = pick(held[:-1], key=lambda c: (hand[c], rng.random()))
    return (give, min(hand[give], cap))


def collector_chooser(game: Game, state: PitState, rng: random.Random) -> Action:
    """Keep the commodity held most and the Bull; offer the Bear, else every card (up to 4) of the one held least."""
    return _offer(game, state, rng, min, MAX_OFFER)


def spreader_chooser(game: Game, state: PitState, rng: random.Random) -> Action:
    """Keep the commodity held most and the Bull; offer the Bear, else 2 cards of the other commodity held most:
    of that one the fewest are elsewhere, so the cards given are the least likely to complete a rival's corner."""
    return _offer(game, state, rng, max, 2)


LADDER = [
    Bot("pit", 0, "Uniformly random legal offer (passing included).", random_chooser),
    Bot(
        "pit",
        1,
        "Keeps its biggest commodity and the Bull; offers the Bear, else all cards (up to 4) of its smallest.",
        collector_chooser,
    ),
    Bot(
        "pit",
        2,
        "Keeps its biggest commodity and the Bull; offers the Bear, else 2 cards of its next biggest.",
        spreader_chooser,
    ),
]
