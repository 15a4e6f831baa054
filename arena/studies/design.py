"""A study's design as plain data: the order of games per participant and each participant's list of matches.

Pure Python: no Django. Counterbalancing uses a balanced Latin square (Williams design): every game appears
once in every position and, for an even number of games, follows every other game equally often.
"""

from __future__ import annotations

import random
from typing import NamedTuple


def latin_square(n: int) -> list[list[int]]:
    """A balanced Latin square of orders over n items (n rows for even n, 2n for odd n: each row and its reverse)."""
    if n <= 0:
        return [[]]
    first, low, high = [0], 1, n - 1
    while len(first) < n:  # 0, 1, n-1, 2, n-2, …
        first.append(low)
        low += 1
        if len(first) < n:
            first.append(high)
            high -= 1
    rows = [[(item + shift) % n for item in first] for shift in range(n)]
    return rows if n % 2 == 0 else rows + [row[::-1] for row in rows]


def game_order(games: list[str], order: str, number: int, rng: random.Random) -> list[str]:
    """The order participant `number` (0, 1, …) plays `games` in: "fixed" as listed, "random" shuffled,
    "counterbalanced" row number mod rows of the Latin square."""
    if order == "random":
        shuffled = list(games)
        rng.shuffle(shuffled)
        return shuffled
    if order == "counterbalanced":
        rows = latin_square(len(games))
        return [games[i] for i in rows[number % len(rows)]]
    return list(games)


class Planned(NamedTuple):
    game: str
    opponent: str  # agent slug
    seat: int


def plan(
    design: list[dict], order: list[str], games_per_opponent: int, number: int, seats_of: dict[str, int]
) -> list[Planned]:
    """Every match of one participant in order: games in `order`; within a game each opponent as listed,
    `games_per_opponent` times, the person's seat rotating (starting at `number`, so first moves balance)."""
    opponents = {block["game"]: block["opponents"] for block in design}
    planned = []
    for game in order:
        seats = seats_of[game]
        for opponent in opponents[game]:
            planned += [Planned(game, opponent, (number + k) % seats) for k in range(games_per_opponent)]
    return planned
