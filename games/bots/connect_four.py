"""Connect Four ladder: random, one-ply tactics, bitboard alpha-beta with threat-counting evaluation, then MCTS."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from games.bots.base import Bot, random_chooser
from games.bots.search import mcts
from games.connect_four import (
    BOARD_MASK,
    BOTTOM_ROW,
    COLUMN_MASK,
    HEIGHT,
    STRIDE,
    WIDTH,
    ConnectFour,
    ConnectFourState,
    winning_cells,
)

WIN = 1_000_000
#: Search order: centre columns first, because they take part in the most lines.
CENTRE_FIRST = (3, 2, 4, 1, 5, 0, 6)


def _cell_weights() -> dict[int, int]:
    """Bitboards of the cells grouped by how many four-cell lines pass through them (3 to 13)."""
    groups: dict[int, int] = {}
    for column in range(WIDTH):
        for row in range(HEIGHT):
            lines = 0
            for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
                for start in range(-3, 1):
                    cells = [(column + (start + k) * dc, row + (start + k) * dr) for k in range(4)]
                    lines += all(0 <= c < WIDTH and 0 <= r < HEIGHT for c, r in cells)
            groups[lines] = groups.get(lines, 0) | 1 << (column * STRIDE + row)
    return groups


CELL_WEIGHTS = tuple(_cell_weights().items())
# Rows 1, 3, 5 (from the bottom) are where the first player's threats tend to decide the endgame
# (zugzwang: the second player is forced to fill the cell below them); rows 2, 4, 6 favour the second.
ODD_ROWS = sum(1 << (c * STRIDE + r) for c in range(WIDTH) for r in range(0, HEIGHT, 2))
EVEN_ROWS = BOARD_MASK ^ ODD_ROWS

Evaluator = Callable[[int, int, int], int]


def centre_evaluation(me: int, opponent: int, mask: int) -> int:
    """Stones weighted by how many lines pass through their cells, mine minus the opponent's."""
    score = 0
    for weight, cells in CELL_WEIGHTS:
        score += weight * ((me & cells).bit_count() - (opponent & cells).bit_count())
    return score


def threat_evaluation(me: int, opponent: int, mask: int) -> int:
    """Centre weights plus open threats (cells that would complete a four), counted with row parity."""
    my_threats = winning_cells(me, mask)
    their_threats = winning_cells(opponent, mask)
    # The side to move is the first player when an even number of stones is down.
    my_rows, their_rows = (ODD_ROWS, EVEN_ROWS) if mask.bit_count() % 2 == 0 else (EVEN_ROWS, ODD_ROWS)
    score = centre_evaluation(me, opponent, mask)
    score += 20 * (my_threats.bit_count() - their_threats.bit_count())
    score += 20 * ((my_threats & my_rows).bit_count() - (their_threats & their_rows).bit_count())
    return score


def _negamax(me: int, mask: int, depth: int, alpha: float, beta: float, evaluate: Evaluator) -> float:
    """Value for the side to move (stones `me`), searched `depth` more plies; wins sooner score higher."""
    possible = (mask + BOTTOM_ROW) & BOARD_MASK
    if winning_cells(me, mask) & possible:
        return WIN + depth
    if not possible:
        return 0
    opponent = me ^ mask
    their_wins = winning_cells(opponent, mask) & possible
    if their_wins:
        if their_wins & (their_wins - 1):  # two immediate threats: one of them goes through
            return -(WIN + depth - 1)
        possible = their_wins  # the only move that does not lose at once
    if depth <= 0:
        return evaluate(me, opponent, mask)
    # Never play directly under a cell where the opponent would complete four.
    safe = possible & ~(winning_cells(opponent, mask) >> 1)
    if not safe:
        return -(WIN + depth - 1)
    best = -math.inf
    for column in CENTRE_FIRST:
        move = safe & COLUMN_MASK[column]
        if move:
            value = -_negamax(opponent, mask | move, depth - 1, -beta, -alpha, evaluate)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
    return best


def search_move(state: ConnectFourState, depth: int, evaluate: Evaluator, rng: random.Random, margin: int) -> int:
    """A best column at `depth` plies; root moves within `margin` of the best are equally likely."""
    seat = state.ply & 1
    me, mask = state.stones[seat], state.stones[0] | state.stones[1]
    possible = (mask + BOTTOM_ROW) & BOARD_MASK
    columns = [c for c in range(WIDTH) if possible & COLUMN_MASK[c]]
    rng.shuffle(columns)
    values: dict[int, float] = {}
    best = -math.inf
    for column in columns:
        move = possible & COLUMN_MASK[column]
        if winning_cells(me, mask) & move:
            return column
        # Searching with alpha = best - margin keeps every near-best value exact; worse ones are bounds.
        value = -_negamax(me ^ mask, mask | move, depth - 1, -math.inf, -(best - margin), evaluate)
        values[column] = value
        best = max(best, value)
    return rng.choice([c for c in columns if values[c] >= best - margin])


#: Weights for random column choices: the centre column takes part in the most lines.
CENTRE_WEIGHTS = (1, 2, 3, 4, 3, 2, 1)
MILD_CENTRE_WEIGHTS = (2, 2, 3, 3, 3, 2, 2)


def _winning_column(stones: int, mask: int) -> int | None:
    """A column where `stones` would complete four right now, if any."""
    targets = winning_cells(stones, mask) & (mask + BOTTOM_ROW) & BOARD_MASK
    return next((c for c in range(WIDTH) if targets & COLUMN_MASK[c]), None)


def _greedy(game: ConnectFour, state: ConnectFourState, rng: random.Random) -> int:
    """Win if possible, else a random column leaning slightly to the centre (blind to the opponent's threats)."""
    mask = state.stones[0] | state.stones[1]
    column = _winning_column(state.stones[state.ply & 1], mask)
    if column is not None:
        return column
    columns = game.legal_actions(state)
    return rng.choices(columns, [MILD_CENTRE_WEIGHTS[c] for c in columns])[0]


def _tactical(game: ConnectFour, state: ConnectFourState, rng: random.Random) -> int:
    """Win if possible, else block an immediate loss, else random."""
    seat = state.ply & 1
    mask = state.stones[0] | state.stones[1]
    for stones in (state.stones[seat], state.stones[1 - seat]):
        column = _winning_column(stones, mask)
        if column is not None:
            return column
    return rng.choice(game.legal_actions(state))


def _careful(game: ConnectFour, state: ConnectFourState, rng: random.Random) -> int:
    """Win, else block, else a centre-weighted random column that does not open a win for the opponent."""
    seat = state.ply & 1
    mine, theirs = state.stones[seat], state.stones[1 - seat]
    mask = mine | theirs
    for stones in (mine, theirs):
        column = _winning_column(stones, mask)
        if column is not None:
            return column
    possible = (mask + BOTTOM_ROW) & BOARD_MASK
    below_their_wins = winning_cells(theirs, mask) >> 1
    columns = game.legal_actions(state)
    safe = [c for c in columns if not possible & COLUMN_MASK[c] & below_their_wins] or columns
    return rng.choices(safe, [CENTRE_WEIGHTS[c] for c in safe])[0]


def searcher(
    depth: int, evaluate: Evaluator, margin: int
) -> Callable[[ConnectFour, ConnectFourState, random.Random], int]:
    """A chooser that runs `search_move` at a fixed depth."""

    def choose(game: ConnectFour, state: ConnectFourState, rng: random.Random) -> int:
        return search_move(state, depth, evaluate, rng, margin)

    choose.__doc__ = f"Alpha-beta to {depth} plies with {evaluate.__name__}."
    return choose


# Fixed-depth alpha-beta with these evaluations gains little beyond 4 plies (deeper searches still walk
# into lost zugzwang endgames), so the top rung is Monte-Carlo search, whose playouts reach the end.
MCTS_ITERATIONS = 3000


def _uct(game: ConnectFour, state: ConnectFourState, rng: random.Random) -> int:
    """UCT with MCTS_ITERATIONS uniformly random playouts."""
    return mcts(game, state, MCTS_ITERATIONS, rng)


LADDER = [
    Bot("connect-four", 0, "uniform random legal move", random_chooser),
    Bot("connect-four", 1, "completes four when it can, else random leaning to the centre", _greedy),
    Bot("connect-four", 2, "wins or blocks one move ahead, else random", _tactical),
    Bot("connect-four", 3, "wins or blocks, else a centre-leaning random column that gives nothing away", _careful),
    Bot("connect-four", 4, "alpha-beta 2 plies, centre-weighted evaluation", searcher(2, centre_evaluation, 4)),
    Bot("connect-four", 5, "alpha-beta 4 plies, threat-counting evaluation", searcher(4, threat_evaluation, 4)),
    Bot("connect-four", 6, f"Monte-Carlo tree search, {MCTS_ITERATIONS} random playouts", _uct),
]
