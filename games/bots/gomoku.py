"""Gomoku ladder: random, random near the stones, a noisy and a clean threat heuristic, then alpha-beta.

Patterns are read from the 572 five-point windows of the board: a window that holds stones of one
colour only is still a possible five for that colour, and how many stones it holds says how close.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable

from games.bots.base import Bot, random_chooser
from games.gomoku import CENTRE, DIRECTIONS, POINTS, SIZE, Gomoku, GomokuState


def _windows() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[tuple[int, ...], ...], ...]]:
    """Every line of five points, and for each point its windows grouped by direction."""
    windows: list[tuple[int, ...]] = []
    at: list[list[list[int]]] = [[[] for _ in DIRECTIONS] for _ in range(POINTS)]
    for direction, (dr, dc) in enumerate(DIRECTIONS):
        for row in range(SIZE):
            for column in range(SIZE):
                cells = [(row + k * dr, column + k * dc) for k in range(5)]
                if all(0 <= r < SIZE and 0 <= c < SIZE for r, c in cells):
                    for r, c in cells:
                        at[r * SIZE + c][direction].append(len(windows))
                    windows.append(tuple(r * SIZE + c for r, c in cells))
    return tuple(windows), tuple(tuple(tuple(d) for d in point) for point in at)


WINDOWS, WINDOWS_AT = _windows()
#: Every window index through each point, all directions together.
WINDOWS_THROUGH = tuple(tuple(w for direction in point for w in direction) for point in WINDOWS_AT)


def _neighbourhoods(distance: int) -> tuple[tuple[int, ...], ...]:
    """For each point, the other points at most `distance` rows and columns away."""
    table = []
    for index in range(POINTS):
        row, column = divmod(index, SIZE)
        table.append(
            tuple(
                r * SIZE + c
                for r in range(max(0, row - distance), min(SIZE, row + distance + 1))
                for c in range(max(0, column - distance), min(SIZE, column + distance + 1))
                if (r, c) != (row, column)
            )
        )
    return tuple(table)


NEAR_1 = _neighbourhoods(1)
NEAR_2 = _neighbourhoods(2)


def near_points(board: tuple[int, ...] | list[int], table: tuple[tuple[int, ...], ...] = NEAR_2) -> list[int]:
    """Empty points next to a stone (by `table`), in index order; the centre on an empty board."""
    marked = bytearray(POINTS)
    for index, value in enumerate(board):
        if value >= 0:
            for point in table[index]:
                marked[point] = 1
    found = [p for p in range(POINTS) if marked[p] and board[p] < 0]
    return found or [CENTRE]


# -- the threat heuristic --------------------------------------------------------------------

FIVE, OPEN_FOUR, FOUR, OPEN_THREE, THREE, OPEN_TWO, TWO, ONE, NOTHING = range(9)
ATTACK = (1_000_000, 100_000, 10_000, 3_000, 300, 100, 20, 2, 0)
# Blocking is worth less than making the same shape, except blocking a five, which beats all but
# winning; blocking an open three (the opponent's OPEN_FOUR point) ranks between making a four and an
# open three: win > block four > make four > block open three > make open three.
DEFENCE = (500_000, 8_000, 800, 1_000, 100, 40, 8, 1, 0)
#: Bonus for a point that makes two threats at once (double four, four-three; double open three).
WINNING_PAIR, DOUBLE_THREE = 50_000, 20_000


def shapes(board: tuple[int, ...] | list[int], point: int, colour: int) -> list[int]:
    """The shape a `colour` stone on the empty `point` makes in each of the four directions."""
    found = []
    for direction in WINDOWS_AT[point]:
        best, completions, windows_at_best = 0, set(), 0
        for window in direction:
            own = 1  # the stone placed on `point`
            gaps = []
            for cell in WINDOWS[window]:
                value = board[cell]
                if value == colour:
                    own += 1
                elif value >= 0:
                    break
                elif cell != point:
                    gaps.append(cell)
            else:  # no opponent stone: this window can still become five
                if own > best:
                    best, windows_at_best, completions = own, 1, set(gaps)
                elif own == best:
                    windows_at_best += 1
                    completions.update(gaps)
        if best >= 5:
            found.append(FIVE)
        elif best == 4:
            found.append(OPEN_FOUR if len(completions) >= 2 else FOUR)
        elif best == 3:
            found.append(OPEN_THREE if windows_at_best >= 2 else THREE)
        elif best == 2:
            found.append(OPEN_TWO if windows_at_best >= 2 else TWO)
        else:
            found.append(ONE if best == 1 else NOTHING)
    return found


def _shape_value(found: list[int], table: tuple[int, ...]) -> int:
    """The four directions' shapes valued by `table`, plus a bonus for two threats at once."""
    value = sum(table[shape] for shape in found)
    fours = sum(shape in (FOUR, OPEN_FOUR) for shape in found)
    open_threes = found.count(OPEN_THREE)
    if fours >= 2 or (fours and open_threes):
        value += WINNING_PAIR * table[OPEN_FOUR] // ATTACK[OPEN_FOUR]
    elif open_threes >= 2:
        value += DOUBLE_THREE * table[OPEN_FOUR] // ATTACK[OPEN_FOUR]
    return value


def point_value(board: tuple[int, ...] | list[int], point: int, colour: int) -> int:
    """How good an empty `point` is for `colour`: its own shapes plus the opponent's shapes it blocks."""
    return _shape_value(shapes(board, point, colour), ATTACK) + _shape_value(shapes(board, point, 1 - colour), DEFENCE)


def ranked_points(board: tuple[int, ...] | list[int], colour: int, rng: random.Random) -> list[tuple[int, int]]:
    """(value, point) for every point near the stones, best first; ties in a random order."""
    candidates = near_points(board)
    rng.shuffle(candidates)
    scored = [(point_value(board, p, colour), p) for p in candidates]
    scored.sort(key=lambda item: -item[0])
    return scored


def _random_near(game: Gomoku, state: GomokuState, rng: random.Random) -> int:
    """A uniformly random empty point touching a stone (the centre on an empty board)."""
    return rng.choice(near_points(state.board, NEAR_1))


def _threats(game: Gomoku, state: GomokuState, rng: random.Random) -> int:
    """The best point by the threat heuristic (win > block four > make four > block open three > …)."""
    return ranked_points(state.board, state.ply & 1, rng)[0][1]


def noisy_threats(noise: float) -> Callable[[Gomoku, GomokuState, random.Random], int]:
    """The threat heuristic, but with probability `noise` a random point near the stones instead."""

    def choose(game: Gomoku, state: GomokuState, rng: random.Random) -> int:
        if rng.random() < noise:
            return _random_near(game, state, rng)
        return _threats(game, state, rng)

    return choose


# -- alpha-beta over the window counts ---------------------------------------------------------

WIN = 10_000_000
#: Value of a window holding k stones of one colour and none of the other.
WINDOW_VALUE = (0, 1, 10, 100, 1_000, 100_000)
WINDOW_STEP = tuple(b - a for a, b in itertools.pairwise(WINDOW_VALUE))
TEMPO = 1.5


class _SearchBoard:
    """A mutable board that keeps per-window stone counts, the evaluation and the four-windows up to date."""

    def __init__(self, board: tuple[int, ...]) -> None:
        self.cells = [-1] * POINTS
        self.counts = ([0] * len(WINDOWS), [0] * len(WINDOWS))
        self.values = [0, 0]  # per colour: the values of the windows only that colour holds
        self.fours: tuple[set[int], set[int]] = (set(), set())  # windows one stone short of five
        self.near = [0] * POINTS  # stones within two points: the points searched are those with some
        for point, colour in enumerate(board):
            if colour >= 0:
                self.place(point, colour)

    def gain(self, point: int, colour: int) -> int:
        """How much a `colour` stone on `point` would raise `colour`'s evaluation."""
        mine, theirs = self.counts[colour], self.counts[1 - colour]
        delta = 0
        for window in WINDOWS_THROUGH[point]:
            blocking = theirs[window]
            if not blocking:
                delta += WINDOW_STEP[mine[window]]
            elif not mine[window]:
                delta += WINDOW_VALUE[blocking]  # this window can no longer become their five
        return delta

    def place(self, point: int, colour: int) -> None:
        mine, theirs = self.counts[colour], self.counts[1 - colour]
        my_fours, their_fours = self.fours[colour], self.fours[1 - colour]
        delta = lost = 0
        for window in WINDOWS_THROUGH[point]:
            count = mine[window]
            if not theirs[window]:
                delta += WINDOW_VALUE[count + 1] - WINDOW_VALUE[count]
                if count == 3:
                    my_fours.add(window)
                elif count == 4:
                    my_fours.discard(window)
            elif not count:
                lost += WINDOW_VALUE[theirs[window]]
                their_fours.discard(window)
            mine[window] = count + 1
        self.values[colour] += delta
        self.values[1 - colour] -= lost
        self.cells[point] = colour
        for other in NEAR_2[point]:
            self.near[other] += 1

    def remove(self, point: int, colour: int) -> None:
        mine, theirs = self.counts[colour], self.counts[1 - colour]
        my_fours, their_fours = self.fours[colour], self.fours[1 - colour]
        delta = lost = 0
        for window in WINDOWS_THROUGH[point]:
            count = mine[window] - 1
            mine[window] = count
            if not theirs[window]:
                delta += WINDOW_VALUE[count + 1] - WINDOW_VALUE[count]
                if count == 3:
                    my_fours.discard(window)
                elif count == 4:
                    my_fours.add(window)
            elif not count:
                lost += WINDOW_VALUE[theirs[window]]
                if theirs[window] == 4:
                    their_fours.add(window)
        self.values[colour] -= delta
        self.values[1 - colour] += lost
        self.cells[point] = -1
        for other in NEAR_2[point]:
            self.near[other] -= 1

    def five_points(self, colour: int) -> set[int]:
        """The empty points where `colour` would complete five."""
        cells = self.cells
        return {p for window in self.fours[colour] for p in WINDOWS[window] if cells[p] < 0}

    def candidates(self, colour: int, width: int) -> list[int]:
        """The `width` empty points near the stones that gain most for `colour` (stable order on ties)."""
        cells, near = self.cells, self.near
        points = [p for p in range(POINTS) if near[p] and cells[p] < 0] or [CENTRE]
        points.sort(key=lambda p: -self.gain(p, colour))
        return points[:width]


class _OutOfNodes(Exception):
    """An iterative-deepening search used up its node budget part-way through a depth."""


def _negamax(
    board: _SearchBoard, colour: int, depth: int, alpha: float, beta: float, width: int, taper: int, budget: list[int]
) -> float:
    """Value for `colour` (to move) after `depth` more plies over the `width` most promising points.

    Each ply deeper looks at `taper` fewer points (at least two), which keeps deep searches affordable.
    `budget[0]` counts down the expanded nodes (the costly part: ranking candidates) and aborts at zero.
    """
    if board.fours[colour]:
        return WIN + depth  # completes five now
    threats = board.five_points(1 - colour) if board.fours[1 - colour] else None
    if threats and len(threats) > 1:
        return -(WIN + depth - 1)  # cannot block two fives at once
    if depth <= 0:
        # The side to move gets to extend its shapes first, so they count for more than the opponent's.
        return TEMPO * board.values[colour] - board.values[1 - colour]
    budget[0] -= 1
    if budget[0] < 0:
        raise _OutOfNodes
    moves = list(threats) if threats else board.candidates(colour, width)
    best = -math.inf
    for point in moves:
        board.place(point, colour)
        value = -_negamax(board, 1 - colour, depth - 1, -beta, -alpha, max(2, width - taper), taper, budget)
        board.remove(point, colour)
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best


def _root_values(
    board: _SearchBoard,
    colour: int,
    moves: list[int],
    depth: int,
    width: int,
    taper: int,
    margin: float,
    budget: list[int],
) -> dict[int, float]:
    """Each root move's value; those within `margin` of the best are exact, the others upper bounds."""
    values: dict[int, float] = {}
    best = -math.inf
    for point in moves:
        board.place(point, colour)
        try:
            child_width = max(2, width - taper)
            values[point] = -_negamax(
                board, 1 - colour, depth - 1, -math.inf, margin - best, child_width, taper, budget
            )
        finally:
            board.remove(point, colour)
        best = max(best, values[point])
    return values


def search_move(
    state: GomokuState,
    depth: int,
    width: int,
    rng: random.Random,
    margin: float = 2,
    taper: int = 0,
    node_budget: int | None = None,
) -> int:
    """Alpha-beta over the `width` best-gaining points; root moves within `margin` of the best are equally likely.

    Without `node_budget` it searches `depth` plies. With one it deepens 2, 4, … up to `depth` and keeps the
    deepest search finished within the budget: bounded time, yet deterministic (unlike a clock).
    """
    colour = state.ply & 1
    board = _SearchBoard(state.board)
    if board.fours[colour]:
        return min(board.five_points(colour))
    threats = board.five_points(1 - colour)
    moves = sorted(threats) if threats else board.candidates(colour, width)
    if len(moves) == 1:
        return moves[0]
    rng.shuffle(moves)
    if node_budget is None:
        values = _root_values(board, colour, moves, depth, width, taper, margin, [1 << 62])
    else:
        budget = [node_budget]
        values = _root_values(board, colour, moves, 2, width, taper, margin, [1 << 62])
        for deeper in range(4, depth + 1, 2):
            moves.sort(key=lambda p: -values[p])  # the best so far first: more cut-offs
            try:
                values = _root_values(board, colour, moves, deeper, width, taper, margin, budget)
            except _OutOfNodes:
                break
    best = max(values.values())
    return rng.choice([p for p in moves if values[p] >= best - margin])


def searcher(
    depth: int, width: int, taper: int = 0, node_budget: int | None = None
) -> Callable[[Gomoku, GomokuState, random.Random], int]:
    """A chooser that runs `search_move` with these settings."""

    def choose(game: Gomoku, state: GomokuState, rng: random.Random) -> int:
        return search_move(state, depth, width, rng, taper=taper, node_budget=node_budget)

    return choose


#: Expanded nodes for the top level: at worst about 0.35 s per move on an idle core, 0.8 s on a busy one.
NODE_BUDGET = 2000

# Freestyle gomoku is sharp: any threat-awareness beats blind play almost always, so the span from
# random to the threat heuristic needs several noisy rungs to keep neighbours at 70–90%.
LADDER = [
    Bot("gomoku", 0, "uniform random legal move", random_chooser),
    Bot("gomoku", 1, "random point next to a stone", _random_near),
    Bot("gomoku", 2, "threat heuristic 12% of moves, else random next to a stone", noisy_threats(0.88)),
    Bot("gomoku", 3, "threat heuristic 35% of moves, else random next to a stone", noisy_threats(0.65)),
    Bot("gomoku", 4, "threat heuristic 60% of moves, else random next to a stone", noisy_threats(0.4)),
    Bot("gomoku", 5, "threat heuristic 85% of moves, else random next to a stone", noisy_threats(0.15)),
    Bot("gomoku", 6, "threat heuristic: win > block four > make four > block open three > …", _threats),
    Bot("gomoku", 7, "alpha-beta 3 plies over the 10 best points, window-count evaluation", searcher(3, 10)),
    Bot(
        "gomoku",
        8,
        "alpha-beta deepening to 6 plies over the 10 best points (one fewer per ply), 2000-node budget",
        searcher(6, 10, taper=1, node_budget=NODE_BUDGET),
    ),
]
