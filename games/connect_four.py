"""Connect Four: 7 columns × 6 rows, stones drop to the lowest empty cell, four in a row wins.

Boards are Python-int bitboards in the classic 7×(6+1) layout: cell (column c, row r from the
bottom) is bit c·7 + r, and each column's seventh bit stays empty so shifted lines never wrap.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from games.base import Game, IllegalAction, Outcome

WIDTH, HEIGHT = 7, 6
STRIDE = HEIGHT + 1
LETTERS = "abcdefg"
MARKS = ("X", "O")
EMPTY = "."
CELLS = WIDTH * HEIGHT

BOTTOM = tuple(1 << (c * STRIDE) for c in range(WIDTH))
TOP = tuple(1 << (c * STRIDE + HEIGHT - 1) for c in range(WIDTH))
COLUMN_MASK = tuple(((1 << HEIGHT) - 1) << (c * STRIDE) for c in range(WIDTH))
BOTTOM_ROW = sum(BOTTOM)
TOP_ROW = sum(TOP)
BOARD_MASK = sum(COLUMN_MASK)
#: Line directions as bit shifts: vertical, horizontal, diagonal "/", diagonal "\".
DIRECTIONS = (1, STRIDE, STRIDE + 1, STRIDE - 1)

# The open columns for every pattern of filled top cells, so legal_actions is one lookup.
_OPEN_COLUMNS: dict[int, tuple[int, ...]] = {
    sum(TOP[c] for c in range(WIDTH) if pattern >> c & 1): tuple(c for c in range(WIDTH) if not pattern >> c & 1)
    for pattern in range(1 << WIDTH)
}

# Frozen dataclasses set fields one by one through object.__setattr__; `apply` is the hot path of
# every playout and search, so it builds states by installing the instance dict in one call.
_new_object = object.__new__
_set_attribute = object.__setattr__


def has_four(stones: int) -> bool:
    """True when the bitboard `stones` holds four in a row in any direction."""
    for shift in DIRECTIONS:
        pairs = stones & (stones >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


def winning_cells(stones: int, mask: int) -> int:
    """Empty cells (as a bitboard) where one more stone would give `stones` four in a row."""
    cells = (stones << 1) & (stones << 2) & (stones << 3)  # vertical: only upwards
    for shift in DIRECTIONS[1:]:
        pair = (stones << shift) & (stones << 2 * shift)
        cells |= pair & (stones << 3 * shift)
        cells |= pair & (stones >> shift)
        pair = (stones >> shift) & (stones >> 2 * shift)
        cells |= pair & (stones << shift)
        cells |= pair & (stones >> 3 * shift)
    return cells & (BOARD_MASK ^ mask)


def bit(column: int, row: int) -> int:
    """The bitboard with only cell (column, row-from-bottom) set."""
    return 1 << (column * STRIDE + row)


def column_height(mask: int, column: int) -> int:
    """How many stones are in `column`."""
    return ((mask >> (column * STRIDE)) & ((1 << HEIGHT) - 1)).bit_count()


def four_cells(stones: int) -> list[tuple[int, int]]:
    """Every (column, row) that is part of a four-in-a-row of `stones`."""
    found: set[tuple[int, int]] = set()
    for column in range(WIDTH):
        for row in range(HEIGHT):
            for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
                line = [(column + k * dc, row + k * dr) for k in range(4)]
                if all(0 <= c < WIDTH and 0 <= r < HEIGHT and stones & bit(c, r) for c, r in line):
                    found.update(line)
    return sorted(found)


@dataclass(frozen=True)
class ConnectFourState:
    seed: int
    ply: int
    stones: tuple[int, int]  # one bitboard per seat
    last: int  # column of the last move, -1 before the first
    winner: int  # seat with four in a row, -1 if none; derived from `stones`, kept so status checks are O(1)


class ConnectFour(Game[ConnectFourState, int]):
    slug = "connect-four"
    name = "Connect Four"
    seat_names = MARKS

    def initial_state(self, *, seed: int, **options: Any) -> ConnectFourState:
        if options:
            raise ValueError(f"connect-four takes no options, got {sorted(options)}")
        return ConnectFourState(seed=seed, ply=0, stones=(0, 0), last=-1, winner=-1)

    def current_player(self, state: ConnectFourState) -> int | None:
        if state.winner >= 0 or state.ply == CELLS:
            return None
        return state.ply & 1

    def legal_actions(self, state: ConnectFourState) -> list[int]:
        if state.winner >= 0:
            return []
        stones = state.stones
        return list(_OPEN_COLUMNS[(stones[0] | stones[1]) & TOP_ROW])

    def is_legal(self, state: ConnectFourState, action: int) -> bool:
        stones = state.stones
        return (
            type(action) is int
            and 0 <= action < WIDTH
            and state.winner < 0
            and not (stones[0] | stones[1]) & TOP[action]
        )

    def apply(self, state: ConnectFourState, action: int) -> ConnectFourState:
        stones = state.stones
        mask = stones[0] | stones[1]
        if type(action) is not int or not 0 <= action < WIDTH or state.winner >= 0 or mask & TOP[action]:
            self.require_legal(state, action)
        dropped = (mask + BOTTOM[action]) & ~mask  # the carry stops at the column's lowest empty cell
        ply = state.ply
        if ply & 1:
            mine = stones[1] | dropped
            stones = (stones[0], mine)
        else:
            mine = stones[0] | dropped
            stones = (mine, stones[1])
        # Four in a row through any direction (vertical, horizontal, both diagonals); unrolled for speed,
        # and skipped before ply 6, when nobody has four stones yet.
        winner = (
            ply & 1
            if ply >= 6
            and (
                (pairs := mine & (mine >> 1)) & (pairs >> 2)
                or (pairs := mine & (mine >> 7)) & (pairs >> 14)
                or (pairs := mine & (mine >> 8)) & (pairs >> 16)
                or (pairs := mine & (mine >> 6)) & (pairs >> 12)
            )
            else -1
        )
        new = _new_object(ConnectFourState)
        _set_attribute(
            new, "__dict__", {"seed": state.seed, "ply": ply + 1, "stones": stones, "last": action, "winner": winner}
        )
        return new

    def outcome(self, state: ConnectFourState) -> Outcome | None:
        if state.winner >= 0:
            return Outcome.win(state.winner, "four in a row")
        if state.ply == CELLS:
            return Outcome.draw("board full")
        return None

    # -- storage ---------------------------------------------------------------------------

    def to_json(self, state: ConnectFourState) -> dict[str, Any]:
        return {"seed": state.seed, "ply": state.ply, "board": self.board_rows(state), "last": state.last}

    def from_json(self, data: dict[str, Any]) -> ConnectFourState:
        rows = data["board"]
        if len(rows) != HEIGHT or any(len(row) != WIDTH for row in rows):
            raise ValueError(f"a connect-four board is {HEIGHT} rows of {WIDTH} cells")
        stones = [0, 0]
        for index, row_text in enumerate(rows):
            for column, mark in enumerate(row_text):
                if mark in MARKS:
                    stones[MARKS.index(mark)] |= bit(column, HEIGHT - 1 - index)
        ply = int(data["ply"])
        if ply != stones[0].bit_count() + stones[1].bit_count():
            raise ValueError(f"ply {ply} does not match the number of stones on the board")
        winner = next((seat for seat in (0, 1) if has_four(stones[seat])), -1)
        return ConnectFourState(
            seed=int(data["seed"]), ply=ply, stones=(stones[0], stones[1]), last=int(data["last"]), winner=winner
        )

    # -- notation --------------------------------------------------------------------------

    def action_to_text(self, state: ConnectFourState, action: int) -> str:
        if type(action) is not int or not 0 <= action < WIDTH:
            raise IllegalAction(f"{action!r} is not a column; actions are column numbers 0–6.")
        return LETTERS[action]

    def parse_action(self, state: ConnectFourState, text: str) -> int:
        cleaned = re.sub(r"\s+", " ", text.strip().lower()).rstrip(".!")
        cleaned = re.sub(r"^(?:drop|play|move)\s*(?:in(?:to)?\s*)?", "", cleaned)
        match = re.fullmatch(r"(?:col(?:umn)?\.?\s*)?([a-g]|[1-7])", cleaned)
        if match:
            token = match[1]
            return int(token) - 1 if token.isdigit() else LETTERS.index(token)
        match = re.fullmatch(r"([a-g])\s*([1-6])", cleaned)
        if match:  # a cell name: fine when it is where the stone would land
            column, row = LETTERS.index(match[1]), int(match[2])
            stones = state.stones
            landing = column_height(stones[0] | stones[1], column) + 1
            if row != landing:
                raise IllegalAction(
                    f"A stone dropped in column {match[1]} lands on row {landing}, not {row}; "
                    f"answer with the column letter only, e.g. {match[1]}."
                )
            return column
        raise IllegalAction(f"Could not read {text.strip()!r} as a column; answer with one letter a–g, e.g. d.")

    def action_cells(self, state: ConnectFourState, action: int) -> tuple[str, ...]:
        return (LETTERS[action],)

    # -- text for people and models -----------------------------------------------------------

    def rules_text(self) -> str:
        return (
            "Connect Four. Two players, X (moves first) and O, take turns dropping a stone into one of "
            "7 columns of a vertical 6-row grid; the stone falls to the lowest empty cell of that column. "
            "The first to line up four of their stones horizontally, vertically or diagonally wins; "
            "a full board with no four is a draw. A full column cannot be played.\n"
            "Board encoding: six rows printed top to bottom (row 6 first, row 1 is the bottom), "
            "columns a–g left to right; 'X' and 'O' are stones and '.' is empty.\n"
            "Answer with one column letter a–g, e.g. d (the centre column)."
        )

    def board_rows(self, state: ConnectFourState) -> list[str]:
        """The board as six strings, top row first, using X, O and '.'."""
        first, second = state.stones
        rows = []
        for row in range(HEIGHT - 1, -1, -1):
            marks = []
            for column in range(WIDTH):
                cell = bit(column, row)
                marks.append(MARKS[0] if first & cell else MARKS[1] if second & cell else EMPTY)
            rows.append("".join(marks))
        return rows

    def board_text(self, state: ConnectFourState) -> str:
        lines = [f"{HEIGHT - i} {' '.join(row)}" for i, row in enumerate(self.board_rows(state))]
        return "\n".join([*lines, "  " + " ".join(LETTERS)])

    def observation_text(self, state: ConnectFourState, player: int) -> str:
        last = f" Last move: {LETTERS[state.last]}." if state.last >= 0 else ""
        open_columns = ", ".join(LETTERS[c] for c in self.legal_actions(state))
        return (
            f"You play {MARKS[player]}. Move {state.ply + 1}.{last}\n{self.board_text(state)}\n"
            f"Open columns: {open_columns or 'none'}."
        )

    def player_view(self, state: ConnectFourState, player: int | None) -> dict[str, Any]:
        """Adds SVG geometry (100 units per cell) for the renderer: columns, cells, last stone, winning four."""
        mask = state.stones[0] | state.stones[1]
        highlight = set(four_cells(state.stones[state.winner])) if state.winner >= 0 else set()
        last_cell = (state.last, column_height(mask, state.last) - 1) if state.last >= 0 else None
        playing = self.current_player(state) is not None
        columns = []
        for column in range(WIDTH):
            free = HEIGHT - column_height(mask, column)
            cells = []
            for row in range(HEIGHT):
                cell = bit(column, row)
                mark = MARKS[0] if state.stones[0] & cell else MARKS[1] if state.stones[1] & cell else ""
                cells.append({
                    "name": f"{LETTERS[column]}{row + 1}",
                    "mark": mark,
                    "cx": column * 100 + 50,
                    "cy": (HEIGHT - 1 - row) * 100 + 50,
                    "last": (column, row) == last_cell,
                    "four": (column, row) in highlight,
                })  # fmt: skip
            columns.append({
                "name": LETTERS[column],
                "x": column * 100,
                "cx": column * 100 + 50,
                "free": free,
                "playable": playing and free > 0,
                "cells": cells,
            })  # fmt: skip
        return {
            **self.to_json(state),
            "columns": columns,
            "to_move": MARKS[state.ply & 1] if playing else None,
            "last_move": LETTERS[state.last] if state.last >= 0 else None,
        }
