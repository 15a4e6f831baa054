"""Tic-tac-toe ladder: random, one-ply tactics, perfect play."""

from __future__ import annotations

import random
from functools import cache

from games.bots.base import Bot, random_chooser
from games.tictactoe import LINES, TicTacToe, TicTacToeState, line_owner


def _tactical(game: TicTacToe, state: TicTacToeState, rng: random.Random) -> int:
    """Win if possible, else block an immediate loss, else random."""
    me = state.ply % 2
    moves = game.legal_actions(state)
    for who in (me, 1 - me):
        for move in moves:
            board = list(state.board)
            board[move] = who
            if any(board[a] == board[b] == board[c] == who for a, b, c in LINES):
                return move
    return rng.choice(moves)


@cache
def _solve(board: tuple[int, ...], mover: int) -> int:
    """Game value for `mover` under perfect play: 1 win, 0 draw, -1 loss."""
    if line_owner(board) is not None:
        return -1  # the previous mover completed a line
    moves = [i for i, v in enumerate(board) if v == -1]
    if not moves:
        return 0
    return max(-_solve((*board[:m], mover, *board[m + 1 :]), 1 - mover) for m in moves)


def _perfect(game: TicTacToe, state: TicTacToeState, rng: random.Random) -> int:
    """Minimax-perfect play, random among equally good moves."""
    me = state.ply % 2
    moves = game.legal_actions(state)
    values = {m: -_solve((*state.board[:m], me, *state.board[m + 1 :]), 1 - me) for m in moves}
    best = max(values.values())
    return rng.choice([m for m in moves if values[m] == best])


LADDER = [
    Bot("tic-tac-toe", 0, "uniform random legal move", random_chooser),
    Bot("tic-tac-toe", 1, "wins or blocks one move ahead, else random", _tactical),
    Bot("tic-tac-toe", 2, "perfect play (full minimax)", _perfect),
]
