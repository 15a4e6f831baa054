"""Mahjong ladder: random, shanten play on some decisions, then shanten play (pymahjonggb's tiles-from-ready count).

Every bot reads only what its seat may know: its own hand and melds and the public tiles (discards, exposed
melds, flowers). All declare a win whenever the rules allow one (8 fan or more).
"""

from __future__ import annotations

import random

from games.bots.base import Bot, random_chooser
from games.mahjong import Mahjong, MahjongState
from games.mahjong.tiles import shanten


def _near(tile: int, other: int) -> bool:
    """Tiles that can form a meld together: equal, or within two in one suit."""
    return tile == other or (tile < 27 and other < 27 and tile // 9 == other // 9 and abs(tile - other) <= 2)


def _drop(hand: tuple[int, ...], tile: int) -> tuple[int, ...]:
    rest = list(hand)
    rest.remove(tile)
    return tuple(rest)


def best_discard(state: MahjongState, seat: int) -> int:
    """The discard leaving the fewest tiles to ready; ties: honours first, then the tile with fewest neighbours."""
    hand, packs = state.hands[seat], state.packs[seat]
    scored = {t: shanten(packs, _drop(hand, t)) for t in sorted(set(hand))}
    low = min(scored.values())
    ties = [t for t, s in scored.items() if s == low]
    return max(ties, key=lambda t: (t >= 27, -sum(_near(t, h) for h in hand)))


def claim_helps(game: Mahjong, state: MahjongState, seat: int, action: tuple) -> bool:
    """True when the chow or pung leaves the hand nearer to ready after the best discard."""
    hand, packs, tile = state.hands[seat], state.packs[seat], game.discard(state)
    now = shanten(packs, hand)
    if action[0] == "peng":
        rest, pack = _drop(_drop(hand, tile), tile), ("PENG", tile, 1)
    else:
        middle = action[1]
        rest = hand
        for t in (middle - 1, middle, middle + 1):
            if t != tile:
                rest = _drop(rest, t)
        pack = ("CHI", middle, 1)
    return bool(rest) and min(shanten((*packs, pack), _drop(rest, d)) for d in set(rest)) < now


def shanten_player(game: Mahjong, state: MahjongState, rng: random.Random) -> tuple:
    """Win when allowed; discard toward ready; claim a chow or pung only when it gets nearer to ready."""
    seat = game.current_player(state)
    legal = game.legal_actions(state)
    if ("hu",) in legal:
        return ("hu",)
    if state.phase == "claims":
        for action in legal:
            if action[0] in ("peng", "chi") and claim_helps(game, state, seat, action):
                return action
        return ("pass",)
    return ("play", best_discard(state, seat))


#: Lv1's share of shanten decisions (the rest uniformly random): Lv2 won every decisive game against random.
SHANTEN_SHARE = 0.5


def partly_shanten(game: Mahjong, state: MahjongState, rng: random.Random) -> tuple:
    """Lv2's decision on SHANTEN_SHARE of decisions, a uniformly random legal one on the rest."""
    return shanten_player(game, state, rng) if rng.random() < SHANTEN_SHARE else random_chooser(game, state, rng)


LADDER = [
    Bot("mahjong", 0, "uniform random legal action", random_chooser),
    Bot("mahjong", 1, f"Lv2's decision on {SHANTEN_SHARE:.0%} of decisions, a random one else", partly_shanten),
    Bot("mahjong", 2, "shanten: discard toward ready, claim only to get nearer, win when allowed", shanten_player),
]
