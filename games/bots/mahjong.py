"""Mahjong ladder: random, the shanten player (pymahjonggb's tiles-from-ready count) on a growing share of decisions,
then Monte Carlo search over the shanten player's discards.

Every bot reads only what its seat may know: its own hand and melds and the public tiles (discards, exposed
melds, flowers); the search deals everything else at random. All declare a win whenever the rules allow one
(8 fan or more).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from games.bots.base import Bot, random_chooser
from games.mahjong import Mahjong, MahjongState
from games.mahjong.tiles import FIRST_FLOWER, shanten


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
    if state.phase == "rob":
        return ("pass",)
    if state.phase == "claims":
        for action in legal:
            if action[0] in ("peng", "chi") and claim_helps(game, state, seat, action):
                return action
        return ("pass",)
    return ("play", best_discard(state, seat))


def determinise(game: Mahjong, state: MahjongState, seat: int, rng: random.Random) -> MahjongState:
    """`state` with what `seat` cannot see dealt at random: the others' concealed tiles (counts kept), the tiles of
    their concealed kongs and the wall order (its length and the number of flowers left in it kept)."""
    pool = Counter(dict.fromkeys(range(34), 4))
    for tile in state.hands[seat]:
        pool[tile] -= 1
    for tile in range(34):
        pool[tile] -= game.shown(state, tile)
    pool.subtract(t for kind, t, offer in state.packs[seat] if kind == "GANG" and offer == 0 for _ in range(4))
    packs = list(state.packs)
    for other in range(4):
        if other != seat and any(kind == "GANG" and offer == 0 for kind, _, offer in packs[other]):
            mine = []
            for kind, tile, offer in packs[other]:
                if kind == "GANG" and offer == 0:
                    tile = rng.choice([t for t in sorted(pool) if pool[t] >= 4])
                    pool[tile] -= 4
                mine.append((kind, tile, offer))
            packs[other] = tuple(mine)
    unseen = sorted(pool.elements())
    rng.shuffle(unseen)
    hands = []
    for other in range(4):
        if other == seat:
            hands.append(state.hands[seat])
        else:
            hands.append(tuple(sorted(unseen[: len(state.hands[other])])))
            unseen = unseen[len(state.hands[other]) :]
    if state.walls:  # Botzone's private walls: the unseen tiles dealt into walls of the same lengths
        walls = []
        for wall in state.walls:
            walls.append(tuple(unseen[: len(wall)]))
            unseen = unseen[len(wall) :]
        return replace(state, hands=tuple(hands), packs=tuple(packs), walls=tuple(walls))
    set_aside = {t for flowers in state.flowers for t in flowers}
    wall = unseen + [t for t in range(FIRST_FLOWER, FIRST_FLOWER + 8) if t not in set_aside]
    rng.shuffle(wall)
    return replace(state, hands=tuple(hands), packs=tuple(packs), wall=tuple(wall))


def rollout(game: Mahjong, state: MahjongState, rng: random.Random) -> MahjongState:
    """The hand finished with the shanten player in every seat."""
    while game.current_player(state) is not None:
        state = game.advance(state, shanten_player(game, state, rng))
    return state


def discard_candidates(state: MahjongState, seat: int, width: int) -> list[int]:
    """The shanten player's discard first, then the other discards that leave the hand as near to ready; at most
    `width`."""
    hand, packs = state.hands[seat], state.packs[seat]
    first = best_discard(state, seat)
    low = shanten(packs, _drop(hand, first))
    return [first, *[t for t in sorted(set(hand)) if t != first and shanten(packs, _drop(hand, t)) == low]][:width]


def monte_carlo(samples: int, width: int):
    """A chooser that plays like the shanten player but settles its discard by rollouts: each candidate is played
    in `samples` random deals of the unseen tiles (the same deals for every candidate) and finished by the shanten
    player in every seat; it scores 1 for a win, 0 for dealing in or another's self-draw, ½ otherwise."""

    def choose(game: Mahjong, state: MahjongState, rng: random.Random) -> tuple:
        seat = game.current_player(state)
        legal = game.legal_actions(state)
        if state.phase != "turn" or ("hu",) in legal:
            return shanten_player(game, state, rng)
        moves = discard_candidates(state, seat, width)
        if len(moves) == 1:
            return ("play", moves[0])
        score = dict.fromkeys(moves, 0.0)
        for _ in range(samples):
            world = determinise(game, state, seat, rng)
            seed = rng.getrandbits(32)
            for move in moves:
                final = rollout(game, game.advance(world, ("play", move)), random.Random(seed))
                score[move] += game.outcome(final).scores[seat]  # type: ignore[union-attr]
        # The shanten player's discard (first) stays unless another clearly did better: noise alone must not move it.
        best = max(moves, key=lambda m: score[m])
        return ("play", best if score[best] >= score[moves[0]] + samples / 8 else moves[0])

    return choose


def partly_shanten(share: float):
    """A chooser making the shanten player's decision on `share` of decisions, a uniformly random legal one else."""

    def choose(game: Mahjong, state: MahjongState, rng: random.Random) -> tuple:
        return shanten_player(game, state, rng) if rng.random() < share else random_chooser(game, state, rng)

    return choose


#: The shanten player's share of decisions at Lv1–Lv3, chosen so each step lands near 75–80% (docs/ladders.md);
#: the pure shanten player is no level: the search beats it in only about 57% of decisive games.
SHANTEN_SHARES = (0.25, 0.5, 0.85)
#: Lv4's budget per discard: rollouts in this many random deals of the unseen tiles, for this many candidates.
SEARCH_DEALS, SEARCH_WIDTH = 8, 4

LADDER = [
    Bot("mahjong", 0, "uniform random legal action", random_chooser),
    *[
        Bot(
            "mahjong",
            level,
            f"the shanten player's decision on {share:.0%} of decisions, a random one else",
            partly_shanten(share),
        )
        for level, share in enumerate(SHANTEN_SHARES, start=1)
    ],
    Bot(
        "mahjong",
        4,
        f"Monte Carlo: the shanten player settling its discard by rollouts, {SEARCH_WIDTH} candidates × "
        f"{SEARCH_DEALS} random deals of the unseen tiles",
        monte_carlo(SEARCH_DEALS, SEARCH_WIDTH),
    ),
]
