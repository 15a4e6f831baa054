"""Hive's immutable state, the position worked out for it, and the helpers every part of the game shares."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.base import Outcome
from games.hive.board import PER_SIDE, PIECES, Board, Move, axial_of, cell_of

MAX_PLIES = 250  # GameBench's "Max Turns": the game ends drawn after 250 turns (one turn = one side's move)
COLOURS = ("White", "Black")
PASS: tuple[int, ...] = ()

Action = tuple[int, ...]  # (piece, q, r), or PASS
_PASS_ONLY: list[Move | None] = [None]


@dataclass(frozen=True)
class HiveState:
    seed: int
    ply: int
    pieces: tuple[tuple[int, ...], ...]  # per piece (PIECE_NAMES order): () in hand, else (q, r, level from 0)
    moves: tuple[str, ...] = ()  # the UHP MoveStrings played, for GameStrings and the move list
    last: tuple[int, ...] = ()  # the last move's cells for highlighting: (to q, to r[, from q, from r])
    #: The position worked out for this state, attached on first use (`attach`); derived, so not part of its value
    #: and not an argument: `dataclasses.replace` makes a state that works its own out.
    _position: Position | None = field(default=None, init=False, compare=False, repr=False)


class Position:
    """A state's board (never changed once made), its result, and its legal moves when first asked for."""

    __slots__ = ("_legal", "_moves", "board", "drawn", "outcome")

    def __init__(self, board: Board) -> None:
        self.board = board
        self.outcome = result_of(board)
        self._moves: list[Move] | None = None
        self._legal: dict[Action, Move | None] | None = None
        self.drawn: tuple[Action, Move | None] | None = None  # the action `draw` last returned here

    @property
    def moves(self) -> list[Move]:
        """The board's moves, in generation order (empty: the mover must pass)."""
        if self._moves is None:
            # On a copy (cheap: stacks are shared tuples): move generation lifts pieces for a moment, and a state
            # may be read from several threads.
            self._moves = self.board.copy().moves()
        return self._moves

    @property
    def legal(self) -> dict[Action, Move | None]:
        """Each legal action and the board move it stands for (None: the pass)."""
        if self._legal is None:
            self._legal = {(piece, *axial_of(cell)): (piece, cell) for piece, cell in self.moves} or {PASS: None}
        return self._legal

    def draw(self, rng: Any) -> Action:
        """A uniformly random legal action (the same choice as `rng.choice(list(self.legal))`), remembered."""
        move = rng.choice(self.moves or _PASS_ONLY)
        action = PASS if move is None else (move[0], *axial_of(move[1]))
        self.drawn = (action, move)
        return action


def position_of(state: HiveState) -> Position:
    """The position of `state`, worked out once and kept with it."""
    position = state._position
    if position is None:
        position = Position(board_of(state))
        attach(state, position)
    return position


def attach(state: HiveState, position: Position) -> HiveState:
    """`state`, with `position` (which must be its own) kept as a cache of derived data, not a change of value."""
    object.__setattr__(state, "_position", position)
    return state


def result_of(board: Board) -> Outcome | None:
    """A surrounded queen loses, both at once is a draw, and so is reaching MAX_PLIES turns."""
    white, black = board.surrounded(0), board.surrounded(1)
    if white and black:
        return Outcome.draw("both queens surrounded")
    if white or black:
        loser = 0 if white else 1
        return Outcome.win(1 - loser, f"{COLOURS[loser].lower()} queen surrounded")
    if board.ply >= MAX_PLIES:
        return Outcome.draw(f"{MAX_PLIES}-turn limit")
    return None


def board_of(state: HiveState) -> Board:
    """A mutable board for `state`."""
    where = [-1] * PIECES
    placed = sorted((spot[2], piece) for piece, spot in enumerate(state.pieces) if spot)
    stacks: dict[int, tuple[int, ...]] = {}
    for _level, piece in placed:
        q, r, _ = state.pieces[piece]
        cell = cell_of(q, r)
        where[piece] = cell
        stacks[cell] = (*stacks.get(cell, ()), piece)
    return Board(where, stacks, state.ply)


def board_move(action: Action) -> Move | None:
    """The board's (piece, cell) for an action; None for a pass."""
    return None if action == PASS else (action[0], cell_of(action[1], action[2]))


def hand_of(state: HiveState, colour: int) -> list[int]:
    """The pieces `colour` still holds, in UHP order (wQ, wS1, … wA3)."""
    first = colour * PER_SIDE
    return [p for p in range(first, first + PER_SIDE) if not state.pieces[p]]
