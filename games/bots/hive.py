"""Hive ladder: random, a greedy mover on queen pressure that is lazy on some turns, then selective alpha-beta.

Everything works on one mutable `Board` with make/unmake. The evaluation counts what decides Hive:
how many sides of each queen are covered, and how many pieces each side can still move (a piece pinned
by the One Hive rule or buried under a beetle cannot). The search keeps, at each of its first plies, only
the few moves that look best one ply deep (a beam), which keeps a move well under a second.
"""

from __future__ import annotations

import random

from games.bots.base import Bot, random_chooser
from games.hive import Hive, HiveState
from games.hive.board import DIRECTIONS, QUEENS, Board, Move, axial_of, colour_of, kind_of
from games.hive.state import PASS, Action, board_of

WIN = 1_000_000
ALL = 1_000  # a beam wider than any move list
QUEEN_SIDE = 100  # per covered side of a queen
FREE_PIECE = 12  # per piece that can move
ANT_IN_PLAY = 6  # ants are the strongest movers: get them out
BEETLE_ON_QUEEN = 60
NEAR_QUEEN = 4  # per free piece, per step closer than 4 to the enemy queen: bring the attack in


def _queen_cover(board: Board, colour: int) -> int:
    cell = board.where[QUEENS[colour]]
    if cell < 0:
        return 0
    return sum(cell + d in board.stacks for d in DIRECTIONS)


def result_for(board: Board, colour: int) -> int | None:
    """WIN, -WIN or 0 (draw) for `colour` when a queen is surrounded, else None."""
    mine, theirs = _queen_cover(board, colour) == 6, _queen_cover(board, 1 - colour) == 6
    if mine and theirs:
        return 0
    if theirs:
        return WIN
    if mine:
        return -WIN
    return None


def _distance(a: int, b: int) -> int:
    (aq, ar), (bq, br) = axial_of(a), axial_of(b)
    dq, dr = aq - bq, ar - br
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def evaluate(board: Board, colour: int) -> int:
    """Queen pressure, free pieces and their closeness to the enemy queen, `colour`'s minus the opponent's."""
    score = QUEEN_SIDE * (_queen_cover(board, 1 - colour) - _queen_cover(board, colour))
    pinned = board.pinned()
    queens = [board.where[q] for q in QUEENS]
    for cell, stack in board.stacks.items():
        piece = stack[-1]
        side = colour_of(piece)
        sign = 1 if side == colour else -1
        if len(stack) > 1 or cell not in pinned:
            score += sign * FREE_PIECE
            target = queens[1 - side]
            if target >= 0 and piece not in QUEENS:
                score += sign * NEAR_QUEEN * max(0, 4 - _distance(cell, target))
        kind = kind_of(piece)
        if kind == "A":
            score += sign * ANT_IN_PLAY
        elif kind == "B" and len(stack) > 1 and any(p in QUEENS for p in stack[:-1]):
            score += sign * BEETLE_ON_QUEEN
    return score


def _score_after(board: Board, move: Move | None, colour: int) -> int:
    source = board.make(move)
    try:
        decided = result_for(board, colour)
        return decided if decided is not None else evaluate(board, colour)
    finally:
        board.unmake(move, source)


def _as_action(move: Move | None) -> Action:
    return PASS if move is None else (move[0], *axial_of(move[1]))


def greedy_move(board: Board, rng: random.Random) -> Move | None:
    """The move with the best evaluation one ply deep (ties at random); None when only a pass is left."""
    colour = board.mover
    moves = board.moves()
    if not moves:
        return None
    rng.shuffle(moves)
    return max(moves, key=lambda m: _score_after(board, m, colour))


def _negamax(board: Board, beams: tuple[int, ...], alpha: int, beta: int) -> int:
    """Value for the mover searched len(beams) plies deep, keeping the beams[0] moves that look best at one ply."""
    mover = board.mover
    decided = result_for(board, mover)
    if decided is not None:
        return decided
    if not beams:
        return evaluate(board, mover)
    moves: list[Move | None] = board.moves() or [None]
    if len(moves) > beams[0]:
        moves = sorted(moves, key=lambda m: _score_after(board, m, mover), reverse=True)[: beams[0]]
    best = -2 * WIN
    for move in moves:
        source = board.make(move)
        value = -_negamax(board, beams[1:], -beta, -alpha)
        board.unmake(move, source)
        if value > best:
            best = value
            alpha = max(alpha, value)
            if alpha >= beta:
                break
    return best


def search_move(board: Board, rng: random.Random, beams: tuple[int, ...]) -> Move | None:
    """Selective alpha-beta: len(beams) plies, at each ply only the beams[i] moves best by a one-ply look."""
    mover = board.mover
    moves = board.moves()
    if not moves:
        return None
    rng.shuffle(moves)  # ties go to a random one of the best
    moves = sorted(moves, key=lambda m: _score_after(board, m, mover), reverse=True)[: beams[0]]
    best_value, best_move = -3 * WIN, moves[0]
    for move in moves:
        source = board.make(move)
        value = -_negamax(board, beams[1:], -3 * WIN, -best_value)
        board.unmake(move, source)
        if value > best_value:
            best_value, best_move = value, move
    return best_move


def winning_move(board: Board) -> Move | None:
    """A move that surrounds the enemy queen and not the mover's own, if there is one."""
    colour = board.mover
    for move in board.moves():
        source = board.make(move)
        won = result_for(board, colour) == WIN
        board.unmake(move, source)
        if won:
            return move
    return None


def _opportunist(game: Hive, state: HiveState, rng: random.Random) -> Action:
    """Lv1: on a third of its turns (drawn at random) surrounds the enemy queen if one move does it; else random."""
    move = winning_move(board_of(state)) if rng.random() < 1 / 3 else None
    return _as_action(move) if move is not None else game.random_action(state, rng)


def _greedy(lazy: float):
    """Greedy one-ply mover that plays a uniformly random legal move on a `lazy` share of its turns."""

    def choose(game: Hive, state: HiveState, rng: random.Random) -> Action:
        if lazy and rng.random() < lazy:
            return game.random_action(state, rng)
        return _as_action(greedy_move(board_of(state), rng))

    return choose


def _searcher(beams: tuple[int, ...]):
    def choose(game: Hive, state: HiveState, rng: random.Random) -> Action:
        return _as_action(search_move(board_of(state), rng, beams))

    return choose


LADDER = [
    Bot("hive", 0, "uniform random legal move", random_chooser),
    Bot("hive", 1, "random, but on a third of its turns surrounds the enemy queen when one move does it", _opportunist),
    Bot("hive", 2, "one-ply greedy evaluation on 15% of its turns, random otherwise", _greedy(0.85)),
    Bot("hive", 3, "one-ply greedy evaluation on 30% of its turns, random otherwise", _greedy(0.7)),
    Bot("hive", 4, "one-ply greedy evaluation on 45% of its turns, random otherwise", _greedy(0.55)),
    Bot("hive", 5, "one-ply greedy evaluation on 65% of its turns, random otherwise", _greedy(0.35)),
    Bot("hive", 6, "one-ply greedy on queen pressure, free pieces and closeness to the enemy queen", _greedy(0.0)),
    Bot("hive", 7, "two-ply alpha-beta over its 4 most promising moves", _searcher((4, ALL))),
    Bot("hive", 8, "3-ply alpha-beta, 3 most promising moves at each of its first two plies", _searcher((3, 3, ALL))),
    Bot("hive", 9, "3-ply alpha-beta, 6 most promising moves at each of its first two plies", _searcher((6, 6, ALL))),
]
