"""Tic-tac-toe on a 3×3 board. Cells are named a1–c3 (column letter, row number from the bottom)."""

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
#: The lines through each cell: a move can only complete one of these.
LINES_THROUGH = tuple(tuple(line for line in LINES if cell in line) for cell in range(9))
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


@dataclass(frozen=True)
class TicTacToeState:
    seed: int
    ply: int
    board: tuple[int, ...]  # 9 cells: -1 empty, else the seat that marked it
    #: The seat with three in a row: found once when a move is applied, not on every question the rules answer.
    winner: int | None = None


class TicTacToe(Game[TicTacToeState, int]):
    slug = "tic-tac-toe"
    name = "Tic-tac-toe"
    seat_names = MARKS

    def initial_state(self, *, seed: int, **options: Any) -> TicTacToeState:
        if options:
            raise ValueError(f"tic-tac-toe takes no options, got {sorted(options)}")
        return TicTacToeState(seed=seed, ply=0, board=(-1,) * 9)

    def current_player(self, state: TicTacToeState) -> int | None:
        if state.winner is not None or -1 not in state.board:
            return None
        return state.ply % 2

    def legal_actions(self, state: TicTacToeState) -> list[int]:
        if state.winner is not None:
            return []  # a full board has no empty cell left either
        return [i for i, v in enumerate(state.board) if v == -1]

    def is_legal(self, state: TicTacToeState, action: int) -> bool:
        return (
            isinstance(action, int)
            and 0 <= action < 9
            and state.board[action] == -1
            and self.current_player(state) is not None
        )

    def apply(self, state: TicTacToeState, action: int) -> TicTacToeState:
        self.require_legal(state, action)
        board = list(state.board)
        board[action] = seat = state.ply % 2
        winner = None
        for a, b, c in LINES_THROUGH[action]:  # a loop, not any(): this is the engine's innermost step
            if board[a] == board[b] == board[c]:
                winner = seat
                break
        return TicTacToeState(seed=state.seed, ply=state.ply + 1, board=tuple(board), winner=winner)

    def outcome(self, state: TicTacToeState) -> Outcome | None:
        if state.winner is not None:
            return Outcome.win(state.winner, "three in a row")
        if -1 not in state.board:
            return Outcome.draw("board full")
        return None

    def to_json(self, state: TicTacToeState) -> dict[str, Any]:
        return {"seed": state.seed, "ply": state.ply, "board": list(state.board)}

    def from_json(self, data: dict[str, Any]) -> TicTacToeState:
        board = tuple(data["board"])
        return TicTacToeState(seed=int(data["seed"]), ply=int(data["ply"]), board=board, winner=line_owner(board))

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
