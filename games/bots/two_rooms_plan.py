"""Two Rooms and a Boom solved backwards for one known deal: Red's chance to win when both teams play the rest of
the game well. Each round's vote is a game between the two rooms' majority teams (each elects one of its members),
each exchange a game between the two Leaders (each sends one of its two room-mates); one team's two sides act as
one. Used by the Lv2 bot, which averages these chances over the deals consistent with what it has seen.
"""

from __future__ import annotations

from functools import lru_cache

from games.two_rooms.state import PLAYERS, ROUNDS, TEAM_OF_CARD

Deal = tuple[str, ...]
Rooms = tuple[int, ...]


def swapped(rooms: Rooms, hostages: tuple[int, int]) -> Rooms:
    return tuple(1 - r if s in hostages else r for s, r in enumerate(rooms))


def matrix_game(payoff: list[list[float]]) -> tuple[float, list[float], list[float]]:
    """Value and mixed strategies of a 2×2 zero-sum game whose row player maximizes `payoff`."""
    (a, b), (c, d) = payoff
    pure = max(min(a, b), min(c, d))
    if pure == min(max(a, c), max(b, d)):  # a saddle point: both play it
        row = 0 if min(a, b) == pure else 1
        col = 0 if max(a, c) == pure else 1
        return pure, [1.0 - row, float(row)], [1.0 - col, float(col)]
    denominator = a - b - c + d
    p, q = (d - c) / denominator, (d - b) / denominator
    return (a * d - b * c) / denominator, [p, 1 - p], [q, 1 - q]


def red_value(payoff: list[list[float]], row_team: str, column_team: str) -> float:
    """Red's chance when the row side (`row_team`) and the column side choose at once. Allies pick the best pair;
    opponents play the zero-sum game, solved exactly when 2×2, else valued between its pure maximin and minimax."""
    if row_team == column_team:
        flat = [value for row in payoff for value in row]
        return max(flat) if row_team == "red" else min(flat)
    red_rows = payoff if row_team == "red" else [list(column) for column in zip(*payoff, strict=True)]
    if len(red_rows) == 2 and len(red_rows[0]) == 2:
        return matrix_game(red_rows)[0]
    maximin = max(min(row) for row in red_rows)
    minimax = min(max(column) for column in zip(*red_rows, strict=True))
    return (maximin + minimax) / 2


def together(deal: Deal, rooms: Rooms) -> float:
    """1 when the President and the Bomber share a room (Red wins), else 0."""
    return float(rooms[deal.index("president")] == rooms[deal.index("bomber")])


@lru_cache(maxsize=200_000)
def red_chance(deal: Deal, leaders: tuple[int, int], rooms: Rooms, round_number: int) -> float:
    """Red's chance before the exchange of `round_number`, these Leaders choosing the hostages."""
    options = [[s for s in range(PLAYERS) if rooms[s] == room and s != leaders[room]] for room in (0, 1)]
    payoff = [[after_exchange(deal, swapped(rooms, (h0, h1)), round_number) for h1 in options[1]] for h0 in options[0]]
    return red_value(payoff, TEAM_OF_CARD[deal[leaders[0]]], TEAM_OF_CARD[deal[leaders[1]]])


def after_exchange(deal: Deal, rooms: Rooms, round_number: int) -> float:
    """Red's chance once the hostages of `round_number` changed rooms: the end, or the next round's vote."""
    if round_number >= ROUNDS:
        return together(deal, rooms)
    return red_chance_at_vote(deal, rooms, round_number + 1)


def electors(deal: Deal, rooms: Rooms, room: int) -> list[int]:
    """The members of the room's majority team (two or three of its three players): they choose its Leader."""
    members = [s for s in range(PLAYERS) if rooms[s] == room]
    red = [s for s in members if TEAM_OF_CARD[deal[s]] == "red"]
    return red if len(red) >= 2 else [s for s in members if s not in red]


@lru_cache(maxsize=200_000)
def red_chance_at_vote(deal: Deal, rooms: Rooms, round_number: int) -> float:
    """Red's chance before the vote of `round_number`: each room's majority team elects one of its members."""
    candidates = [electors(deal, rooms, room) for room in (0, 1)]
    payoff = [[red_chance(deal, (c0, c1), rooms, round_number) for c1 in candidates[1]] for c0 in candidates[0]]
    return red_value(payoff, TEAM_OF_CARD[deal[candidates[0][0]]], TEAM_OF_CARD[deal[candidates[1][0]]])
