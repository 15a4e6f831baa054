"""Freestyle Gomoku on a 15×15 board: Black moves first, five or more in a row wins.

Points are indexed 0–224 row by row from the top left (index = row·15 + column, row 0 at the
top); their names are a column letter a–o and a row number 1–15 counted from the bottom, so
index 0 is a15, 112 is h8 (the centre) and 224 is o1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from games.base import Game, IllegalAction, Outcome

SIZE = 15
POINTS = SIZE * SIZE
CENTRE = POINTS // 2
LETTERS = "abcdefghijklmno"
MARKS = ("X", "O")  # Black, White in text encodings
EMPTY = "."
STAR_POINTS = (48, 56, 112, 168, 176)  # d12, l12, h8, d4, l4
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # (row, column) steps: across, down, two diagonals


def _rays() -> tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], ...]:
    """For every point and direction, the points met walking forwards and backwards (nearest first)."""
    table = []
    for index in range(POINTS):
        row, column = divmod(index, SIZE)
        per_direction = []
        for dr, dc in DIRECTIONS:
            walks = []
            for sign in (1, -1):
                walk, r, c = [], row + sign * dr, column + sign * dc
                while 0 <= r < SIZE and 0 <= c < SIZE:
                    walk.append(r * SIZE + c)
                    r, c = r + sign * dr, c + sign * dc
                walks.append(tuple(walk))
            per_direction.append((walks[0], walks[1]))
        table.append(tuple(per_direction))
    return tuple(table)


#: RAYS[point][direction] = (points ahead, points behind), used for the incremental five check.
RAYS = _rays()


def point_name(index: int) -> str:
    """h8 for index 112: column letter, then row number counted from the bottom."""
    row, column = divmod(index, SIZE)
    return f"{LETTERS[column]}{SIZE - row}"


def line_through(board: tuple[int, ...], index: int) -> tuple[int, ...]:
    """The longest run of same-coloured stones through `index`, across the four directions."""
    colour = board[index]
    best: tuple[int, ...] = ()
    for ahead, behind in RAYS[index]:
        run = [index]
        for walk in (ahead, behind):
            for point in walk:
                if board[point] != colour:
                    break
                run.append(point)
        if len(run) > len(best):
            best = tuple(sorted(run))
    return best


def makes_five(board: tuple[int, ...] | list[int], index: int, colour: int) -> bool:
    """True when a `colour` stone on `index` is part of five or more in a row."""
    for ahead, behind in RAYS[index]:
        count = 1
        for point in ahead:
            if board[point] != colour:
                break
            count += 1
        for point in behind:
            if board[point] != colour:
                break
            count += 1
        if count >= 5:
            return True
    return False


@dataclass(frozen=True)
class GomokuState:
    seed: int
    ply: int
    board: tuple[int, ...]  # 225 points, row by row from the top: -1 empty, else the seat's stone
    last: int  # point of the last stone, -1 before the first
    winner: int  # seat with five or more in a row, -1 if none; derived from `board`


class Gomoku(Game[GomokuState, int]):
    slug = "gomoku"
    name = "Gomoku"
    seat_names = ("Black", "White")

    def initial_state(self, *, seed: int, **options: Any) -> GomokuState:
        if options:
            raise ValueError(f"gomoku takes no options, got {sorted(options)}")
        return GomokuState(seed=seed, ply=0, board=(-1,) * POINTS, last=-1, winner=-1)

    def current_player(self, state: GomokuState) -> int | None:
        if state.winner >= 0 or state.ply == POINTS:
            return None
        return state.ply & 1

    def legal_actions(self, state: GomokuState) -> list[int]:
        if state.winner >= 0:
            return []
        return [i for i, v in enumerate(state.board) if v < 0]

    def is_legal(self, state: GomokuState, action: int) -> bool:
        return type(action) is int and 0 <= action < POINTS and state.winner < 0 and state.board[action] < 0

    def random_action(self, state: GomokuState, rng: Any) -> int:
        # Rejection sampling: uniform over empty points without listing all of them.
        if state.ply < POINTS // 2 and state.winner < 0:
            board = state.board
            while board[point := rng.randrange(POINTS)] >= 0:
                pass
            return point
        return rng.choice(self.legal_actions(state))

    def apply(self, state: GomokuState, action: int) -> GomokuState:
        self.require_legal(state, action)
        colour = state.ply & 1
        board = (*state.board[:action], colour, *state.board[action + 1 :])
        winner = colour if makes_five(board, action, colour) else -1
        return GomokuState(seed=state.seed, ply=state.ply + 1, board=board, last=action, winner=winner)

    def outcome(self, state: GomokuState) -> Outcome | None:
        if state.winner >= 0:
            return Outcome.win(state.winner, "five in a row")
        if state.ply == POINTS:
            return Outcome.draw("board full")
        return None

    # -- storage ---------------------------------------------------------------------------

    def to_json(self, state: GomokuState) -> dict[str, Any]:
        return {"seed": state.seed, "ply": state.ply, "board": self.board_rows(state), "last": state.last}

    def from_json(self, data: dict[str, Any]) -> GomokuState:
        rows = data["board"]
        if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
            raise ValueError(f"a gomoku board is {SIZE} rows of {SIZE} points")
        board = tuple(MARKS.index(mark) if mark in MARKS else -1 for row in rows for mark in row)
        ply = int(data["ply"])
        if ply != sum(v >= 0 for v in board):
            raise ValueError(f"ply {ply} does not match the number of stones on the board")
        winner = next((board[i] for i in range(POINTS) if board[i] >= 0 and makes_five(board, i, board[i])), -1)
        return GomokuState(seed=int(data["seed"]), ply=ply, board=board, last=int(data["last"]), winner=winner)

    # -- notation --------------------------------------------------------------------------

    def action_to_text(self, state: GomokuState, action: int) -> str:
        if type(action) is not int or not 0 <= action < POINTS:
            raise IllegalAction(f"{action!r} is not a point; actions are point numbers 0–224.")
        return point_name(action)

    def parse_action(self, state: GomokuState, text: str) -> int:
        cleaned = re.sub(r"\s+", " ", text.strip().lower()).rstrip(".!")
        match = re.fullmatch(r"([a-z])\s*-?\s*(\d{1,2})", cleaned) or re.fullmatch(r"(\d{1,2})\s*-?\s*([a-z])", cleaned)
        if match:
            letter, digits = sorted(match.groups(), key=str.isdigit)
            if letter not in LETTERS:
                raise IllegalAction(f"There is no column {letter!r}; columns are a–o (i included), e.g. h8.")
            row = int(digits)
            if not 1 <= row <= SIZE:
                raise IllegalAction(f"There is no row {row}; rows are 1–15 from the bottom, e.g. h8.")
            return (SIZE - row) * SIZE + LETTERS.index(letter)
        match = re.fullmatch(r"\(?\s*(\d{1,2})\s*,\s*(\d{1,2})\s*\)?", cleaned)
        if match:  # (row, column), 0-based from the top left, as many programs print it
            row, column = int(match[1]), int(match[2])
            if not (0 <= row < SIZE and 0 <= column < SIZE):
                raise IllegalAction(
                    f"({row},{column}) is off the board; (row,column) pairs run 0–14 from the top left."
                )
            return row * SIZE + column
        raise IllegalAction(f"Could not read {text.strip()!r} as a point; write a column a–o and a row 1–15, e.g. h8.")

    def action_cells(self, state: GomokuState, action: int) -> tuple[str, ...]:
        return (point_name(action),)

    # -- text for people and models -----------------------------------------------------------

    def rules_text(self) -> str:
        return (
            "Gomoku (freestyle, 15×15). Two players, Black (X, moves first) and White (O), take turns "
            "placing one stone on an empty point. The first to make an unbroken line of five or more of "
            "their stones horizontally, vertically or diagonally wins (a line of six or more also wins; "
            "there are no opening or forbidden-move restrictions). A full board with no such line is a draw.\n"
            "Board encoding: 15 rows printed top to bottom (row 15 first, row 1 is the bottom), columns a–o "
            "left to right; the letter i is used (unlike Go, no letter is skipped). 'X' is Black, 'O' is White "
            "and '.' is empty.\n"
            "Answer with one point as column letter and row number, e.g. h8 (the centre). "
            "A 0-based (row,column) pair counted from the top left, e.g. (7,7), is also understood."
        )

    def board_rows(self, state: GomokuState) -> list[str]:
        """The board as 15 strings, top row first, using X, O and '.'."""
        marks = [MARKS[v] if v >= 0 else EMPTY for v in state.board]
        return ["".join(marks[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)]

    def board_text(self, state: GomokuState) -> str:
        lines = [f"{SIZE - i:>2} {' '.join(row)}" for i, row in enumerate(self.board_rows(state))]
        return "\n".join([*lines, "   " + " ".join(LETTERS)])

    def observation_text(self, state: GomokuState, player: int) -> str:
        last = f" Last move: {point_name(state.last)}." if state.last >= 0 else ""
        return (
            f"You play {self.seat_names[player]} ({MARKS[player]}). Move {state.ply + 1}.{last}\n"
            f"{self.board_text(state)}"
        )

    def player_view(self, state: GomokuState, player: int | None) -> dict[str, Any]:
        """Adds SVG geometry for the renderer: points 40 units apart with a 40-unit margin for labels."""
        five = set(line_through(state.board, state.last)) if state.winner >= 0 else set()
        playing = self.current_player(state) is not None
        points = []
        for index, value in enumerate(state.board):
            row, column = divmod(index, SIZE)
            points.append({
                "name": point_name(index),
                "mark": MARKS[value] if value >= 0 else "",
                "x": 40 + 40 * column,
                "y": 40 + 40 * row,
                "playable": playing and value < 0,
                "last": index == state.last,
                "five": index in five,
                "star": index in STAR_POINTS,
            })  # fmt: skip
        return {
            **self.to_json(state),
            "points": points,
            "grid": [40 + 40 * k for k in range(SIZE)],
            "columns": [{"name": LETTERS[k], "x": 40 + 40 * k} for k in range(SIZE)],
            "rows": [{"name": str(SIZE - k), "y": 40 + 40 * k} for k in range(SIZE)],
            "to_move": self.seat_names[state.ply & 1] if playing else None,
            "last_move": point_name(state.last) if state.last >= 0 else None,
        }
