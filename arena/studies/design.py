"""A study's design as plain data: the order of games per participant and each participant's list of matches.

Pure Python: no Django. Counterbalancing uses a balanced Latin square (Williams design): every item (a game, an
opponent, or a game × opponent condition) appears once in every position and, for an even number of items, follows
every other item equally often.
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


def conditions(design: list[dict], order: str, number: int, rng: random.Random) -> list[tuple[str, str]]:
    """The (game, opponent) conditions in the order participant `number` meets them.

    "conditions": row number mod rows of a balanced Latin square over every condition, games interleaved.
    Otherwise each game's opponents are played together, the games in `game_order` and, within a game, the
    opponents "fixed" as listed, "random" shuffled (by `rng`, so a recorded seed replays it), or "counterbalanced"
    by a Latin square of their own, its row advancing once per pass through the games' rows, so the game order
    and the opponent order are crossed."""
    if order == "conditions":
        every = [(block["game"], opponent) for block in design for opponent in block["opponents"]]
        rows = latin_square(len(every))
        return [every[i] for i in rows[number % len(rows)]]
    games = game_order([block["game"] for block in design], order, number, rng)
    opponents = {block["game"]: block["opponents"] for block in design}
    game_rows = len(latin_square(len(games)))
    sequence = []
    for game in games:
        listed = opponents[game]
        if order == "random":
            listed = rng.sample(listed, len(listed))
        elif order == "counterbalanced":
            rows = latin_square(len(listed))
            listed = [listed[i] for i in rows[(number // game_rows) % len(rows)]]
        sequence += [(game, opponent) for opponent in listed]
    return sequence


class Planned(NamedTuple):
    game: str
    opponent: str  # agent slug
    seat: int


def plan(
    sequence: list[tuple[str, str]], games_per_opponent: int, number: int, seats_of: dict[str, int]
) -> list[Planned]:
    """Every match of one participant in order: each condition of `sequence` `games_per_opponent` times in a row,
    the person's seat rotating (starting at `number`, so first moves balance)."""
    return [
        Planned(game, opponent, (number + k) % seats_of[game])
        for game, opponent in sequence
        for k in range(games_per_opponent)
    ]
