"""Tic-tac-toe ladder: random, then ever fewer tactical slips, up to perfect play.

A perfect player never loses, so Lv4's decisive win rate is 100% by construction; rating
against it uses BotzoneBench's draw-rate rule (ratings.maths.ladder). The noisy middle levels keep
each step at 70–90% (docs/ladders.md).
"""

from __future__ import annotations

import random
from functools import cache

from games.bots.base import Bot, random_chooser
from games.tictactoe import LINES, TicTacToe, TicTacToeState, line_owner


def _completing_move(state: TicTacToeState, moves: list[int], who: int) -> int | None:
    """A move that gives `who` three in a row, if there is one."""
    for move in moves:
        board = list(state.board)
        board[move] = who
        if any(board[a] == board[b] == board[c] == who for a, b, c in LINES):
            return move
    return None


def _win_only(game: TicTacToe, state: TicTacToeState, rng: random.Random) -> int:
    """Win if possible, else random (never blocks)."""
    moves = game.legal_actions(state)
    win = _completing_move(state, moves, state.ply % 2)
    return rng.choice(moves) if win is None else win


def _tactical(game: TicTacToe, state: TicTacToeState, rng: random.Random) -> int:
    """Win if possible, else block an immediate loss, else random."""
    moves = game.legal_actions(state)
    me = state.ply % 2
    for who in (me, 1 - me):
        move = _completing_move(state, moves, who)
        if move is not None:
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


def _sometimes(p: float, usual, otherwise):
    """Play `usual`, but `otherwise` with probability `p` (the rng decides, so still reproducible)."""

    def choose(game: TicTacToe, state: TicTacToeState, rng: random.Random) -> int:
        return otherwise(game, state, rng) if rng.random() < p else usual(game, state, rng)

    return choose


LADDER = [
    Bot("tic-tac-toe", 0, "uniform random legal move", random_chooser),
    Bot("tic-tac-toe", 1, "takes a winning move when there is one, else random", _win_only),
    Bot(
        "tic-tac-toe",
        2,
        "wins or blocks one move ahead, but forgets to block 20% of the time",
        _sometimes(0.2, _tactical, _win_only),
    ),
    Bot(
        "tic-tac-toe",
        3,
        "perfect play 70% of the time, else wins or blocks one move ahead",
        _sometimes(0.3, _perfect, _tactical),
    ),
    Bot("tic-tac-toe", 4, "perfect play (full minimax); never loses", _perfect),
]
