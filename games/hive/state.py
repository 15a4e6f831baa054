"""Hive's immutable state and the helpers every part of the game shares."""

from __future__ import annotations

from dataclasses import dataclass

from games.hive.board import AXIAL, PER_SIDE, PIECES, QUEENS, Board, Move, cell_of

MAX_PLIES = 250  # GameBench's "Max Turns": the game ends drawn after 250 turns (one turn = one side's move)
COLOURS = ("White", "Black")
PASS: tuple[int, ...] = ()

Action = tuple[int, ...]  # (piece, q, r), or PASS


@dataclass(frozen=True)
class HiveState:
    seed: int
    ply: int
    pieces: tuple[tuple[int, ...], ...]  # per piece (PIECE_NAMES order): () in hand, else (q, r, level from 0)
    moves: tuple[str, ...] = ()  # the UHP MoveStrings played, for GameStrings and the move list
    last: tuple[int, ...] = ()  # the last move's cells for highlighting: (to q, to r[, from q, from r])


def board_of(state: HiveState) -> Board:
    """A mutable board for `state`."""
    where = [-1] * PIECES
    placed = sorted((spot[2], piece) for piece, spot in enumerate(state.pieces) if spot)
    stacks: dict[int, list[int]] = {}
    for _level, piece in placed:
        q, r, _ = state.pieces[piece]
        cell = cell_of(q, r)
        where[piece] = cell
        stacks.setdefault(cell, []).append(piece)
    return Board(where, stacks, state.ply)


def queen_surrounded(state: HiveState, colour: int) -> bool:
    """Whether `colour`'s queen is on the board with all six neighbours occupied."""
    spot = state.pieces[QUEENS[colour]]
    if not spot:
        return False
    occupied = {(s[0], s[1]) for s in state.pieces if s}
    q, r = spot[0], spot[1]
    return all((q + dq, r + dr) in occupied for dq, dr in AXIAL)


def board_move(action: Action) -> Move | None:
    """The board's (piece, cell) for an action; None for a pass."""
    return None if action == PASS else (action[0], cell_of(action[1], action[2]))


def hand_of(state: HiveState, colour: int) -> list[int]:
    """The pieces `colour` still holds, in UHP order (wQ, wS1, … wA3)."""
    first = colour * PER_SIDE
    return [p for p in range(first, first + PER_SIDE) if not state.pieces[p]]
