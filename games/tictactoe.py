"""Tic-tac-toe on a 3×3 board. Cells are named a1–c3 (column letter, row number from the bottom).

A state is its seed and an interned `Position`: one object per board, holding what the rules ask
about it (mover, winner, legal moves) and the positions its moves lead to, each worked out once.
There are only 5,478 reachable boards, so a random playout is a walk through table lookups.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from games.base import Game, IllegalAction, Outcome

LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),  # diagonals
)  # fmt: skip
MARKS = ("X", "O")
EMPTY = "."


def line_owner(board: tuple[int, ...]) -> int | None:
    """The seat that has three in a row, if any."""
    for a, b, c in LINES:
        if board[a] != -1 and board[a] == board[b] == board[c]:
            return board[a]
    return None


def cell_name(index: int) -> str:
    """Index 0 is a3 (top left), 8 is c1 (bottom right): rows printed top to bottom."""
    row, col = divmod(index, 3)
    return f"{'abc'[col]}{3 - row}"


class Position:
    """One board and its derived facts; `position_of` interns them, so equal boards are one object."""

    __slots__ = ("board", "children", "legal", "mover", "outcome", "ply", "winner")

    def __init__(self, board: tuple[int, ...]) -> None:
        self.board = board
        self.ply = 9 - board.count(-1)
        self.winner = line_owner(board)
        if self.winner is not None:
            self.outcome: Outcome | None = Outcome.win(self.winner, "three in a row")
        else:
            self.outcome = None if self.ply < 9 else Outcome.draw("board full")
        over = self.outcome is not None
        self.mover = None if over else self.ply % 2
        self.legal: tuple[int, ...] = () if over else tuple(i for i, v in enumerate(board) if v == -1)
        self.children: dict[int, Position] = {}  # filled as moves are first played

    def child(self, cell: int) -> Position:
        """The position after the mover marks `cell` (which the caller has checked is legal)."""
        child = self.children.get(cell)
        if child is None:
            board = list(self.board)
            board[cell] = self.mover
            child = self.children[cell] = position_of(tuple(board))
        return child

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and other.board == self.board

    def __hash__(self) -> int:
        return hash(self.board)

    def __reduce__(self) -> tuple[Any, ...]:
        return position_of, (self.board,)

    def __repr__(self) -> str:
        return f"Position({self.board!r})"


_positions: dict[tuple[int, ...], Position] = {}


def position_of(board: tuple[int, ...]) -> Position:
    """The interned position of a 9-cell board (-1 empty, else the seat that marked the cell)."""
    position = _positions.get(board)
    if position is None:
        if len(board) != 9 or not all(v in (-1, 0, 1) for v in board):
            raise ValueError(f"a tic-tac-toe board is 9 cells of -1, 0 or 1, got {board!r}")
        position = _positions[board] = Position(board)
    return position


@dataclass(frozen=True, slots=True)
class TicTacToeState:
    seed: int
    position: Position

    @property
    def ply(self) -> int:
        return self.position.ply

    @property
    def board(self) -> tuple[int, ...]:
        """9 cells: -1 empty, else the seat that marked it."""
        return self.position.board

    @property
    def winner(self) -> int | None:
        """The seat with three in a row, if any."""
        return self.position.winner


_EMPTY_BOARD = position_of((-1,) * 9)


class TicTacToe(Game[TicTacToeState, int]):
    slug = "tic-tac-toe"
    name = "Tic-tac-toe"
    seat_names = MARKS

    def initial_state(self, *, seed: int, **options: Any) -> TicTacToeState:
        if options:
            raise ValueError(f"tic-tac-toe takes no options, got {sorted(options)}")
        return TicTacToeState(seed, _EMPTY_BOARD)

    def current_player(self, state: TicTacToeState) -> int | None:
        return state.position.mover

    def legal_actions(self, state: TicTacToeState) -> list[int]:
        return list(state.position.legal)

    def random_action(self, state: TicTacToeState, rng: Any) -> int:
        return rng.choice(state.position.legal)

    def is_legal(self, state: TicTacToeState, action: int) -> bool:
        return isinstance(action, int) and action in state.position.legal

    def apply(self, state: TicTacToeState, action: int) -> TicTacToeState:
        position = state.position
        child = position.children.get(action) if type(action) is int else None
        if child is None:
            self.require_legal(state, action)
            child = position.child(int(action))
        return TicTacToeState(state.seed, child)

    def outcome(self, state: TicTacToeState) -> Outcome | None:
        return state.position.outcome

    def to_json(self, state: TicTacToeState) -> dict[str, Any]:
        return {"seed": state.seed, "ply": state.ply, "board": list(state.board)}

    def from_json(self, data: dict[str, Any]) -> TicTacToeState:
        position = position_of(tuple(data["board"]))
        if int(data["ply"]) != position.ply:
            raise ValueError(f"ply {data['ply']} does not match the {position.ply} marks on the board")
        return TicTacToeState(int(data["seed"]), position)

    def action_to_text(self, state: TicTacToeState, action: int) -> str:
        return cell_name(action)

    def parse_action(self, state: TicTacToeState, text: str) -> int:
        cleaned = text.strip().lower()
        match = re.fullmatch(r"([abc])\s*([123])", cleaned) or re.fullmatch(r"([123])\s*([abc])", cleaned)
        if match:
            letter, digit = sorted(match.groups(), key=str.isdigit)
            return (3 - int(digit)) * 3 + "abc".index(letter)
        match = re.fullmatch(r"\(?\s*([0-2])\s*,\s*([0-2])\s*\)?", cleaned)
        if match:  # (row, col) from the top left, as many programs print it
            return int(match[1]) * 3 + int(match[2])
        raise IllegalAction(f"Could not read {text.strip()!r} as a cell; write a column a–c and a row 1–3, e.g. b2.")

    def rules_text(self) -> str:
        return (
            "Tic-tac-toe. Two players, X (moves first) and O, take turns marking an empty cell "
            "of a 3×3 grid. The first to get three marks in a row, column or diagonal wins; "
            "a full board with no line is a draw.\n"
            "Board encoding: three rows printed top to bottom (row 3 first), columns a–c left to right; "
            "'X' and 'O' are marks and '.' is empty.\n"
            "Answer with one cell as column letter and row number, e.g. b2."
        )

    def board_text(self, state: TicTacToeState) -> str:
        rows = []
        for row in range(3):
            marks = [MARKS[v] if v != -1 else EMPTY for v in state.board[row * 3 : row * 3 + 3]]
            rows.append(f"{3 - row} {' '.join(marks)}")
        return "\n".join([*rows, "  a b c"])

    def observation_text(self, state: TicTacToeState, player: int) -> str:
        return f"You play {MARKS[player]}. Move {state.ply + 1}.\n{self.board_text(state)}"

    def player_view(self, state: TicTacToeState, player: int | None) -> dict[str, Any]:
        """Adds the nine cells with their mark and whether they are part of the winning line."""
        board = state.board
        won = {cell for line in LINES if board[line[0]] != -1 and len({board[c] for c in line}) == 1 for cell in line}
        return {
            **self.to_json(state),
            "cells": [
                {"name": cell_name(i), "mark": MARKS[v] if v != -1 else "", "won": i in won}
                for i, v in enumerate(board)
            ],
        }
