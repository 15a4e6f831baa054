"""MCR tiles in Botzone's notation and the fan count from pymahjonggb (Botzone's own MCR calculator).

A tile is an int: 0–8 characters W1–W9, 9–17 bamboo T1–T9, 18–26 dots B1–B9, 27–30 winds F1–F4 (east,
south, west, north), 31–33 dragons J1–J3 (red, green, white), 34–41 flowers H1–H8. The wall holds four of
each of the 34 suit and honour tiles and one of each flower: 144 tiles.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from MahjongGB import MahjongFanCalculator, MahjongShanten

NAMES = tuple(
    [f"{suit}{n}" for suit in "WTB" for n in range(1, 10)]
    + [f"F{n}" for n in range(1, 5)]
    + [f"J{n}" for n in range(1, 4)]
    + [f"H{n}" for n in range(1, 9)]
)
FIRST_FLOWER = 34
MIN_FAN = 8


class Fan(NamedTuple):
    points: int
    count: int
    name: str  # English name, as pymahjonggb gives it


def name(tile: int) -> str:
    return NAMES[tile]


def tile_of(text: str) -> int:
    """The tile written `text` ('W3', 'f1', 'J2'); ValueError otherwise."""
    try:
        return NAMES.index(text.strip().upper())
    except ValueError:
        raise ValueError(f"{text.strip()[:8]!r} is not a tile (W1–W9, T1–T9, B1–B9, F1–F4, J1–J3)") from None


def is_flower(tile: int) -> bool:
    return tile >= FIRST_FLOWER


def suited(tile: int) -> bool:
    return tile < 27


def wall_for(seed: int) -> tuple[int, ...]:
    """The seed's wall, drawn from the front: 136 tiles and 8 flowers, shuffled."""
    tiles = [t for t in range(34) for _ in range(4)] + list(range(FIRST_FLOWER, FIRST_FLOWER + 8))
    random.Random(f"mahjong/{seed}").shuffle(tiles)
    return tuple(tiles)


Pack = tuple[str, int, int]  # ("CHI" | "PENG" | "GANG", tile (the middle one for a chow), offer)


def fans(
    packs: tuple[Pack, ...],
    hand: tuple[int, ...],
    win_tile: int,
    *,
    flowers: int,
    self_drawn: bool,
    fourth_tile: bool,
    about_kong: bool,
    wall_last: bool,
    seat_wind: int,
    prevalent_wind: int = 0,
) -> list[Fan] | None:
    """The fans of a winning hand (`hand` without the winning tile), or None when it is not a complete hand."""
    try:
        found = MahjongFanCalculator(
            pack=tuple((kind, NAMES[tile], offer) for kind, tile, offer in packs),
            hand=tuple(NAMES[t] for t in hand),
            winTile=NAMES[win_tile],
            flowerCount=flowers,
            isSelfDrawn=self_drawn,
            is4thTile=fourth_tile,
            isAboutKong=about_kong,
            isWallLast=wall_last,
            seatWind=seat_wind,
            prevalentWind=prevalent_wind,
            verbose=True,
        )
    except TypeError:  # pymahjonggb's answer for "not a winning hand"
        return None
    return [Fan(points, count, english) for points, count, _chinese, english in found]


def counted(found: list[Fan]) -> int:
    """The fan that counts toward the 8-fan minimum: everything but the flowers."""
    return sum(f.points * f.count for f in found if f.name != "Flower Tiles")


def shanten(packs: tuple[Pack, ...], hand: tuple[int, ...]) -> int:
    """Tiles away from ready (0: ready, −1: complete) for a hand of 13 − 3 × melds tiles."""
    return MahjongShanten(pack=tuple((k, NAMES[t], o) for k, t, o in packs), hand=tuple(NAMES[t] for t in hand))
