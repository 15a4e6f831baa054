"""Ataxx on a 7×7 board without blocked squares, with Python-int bitboards.

Cells are named a1–g7: column letter a–g left to right, row number 1–7 from the BOTTOM, as in
standard Ataxx notation (the start position is FEN "x5o/7/7/7/7/7/o5x x"). Cell index
`(row - 1) * 7 + column` is bit `index` of a 49-bit bitboard. X (seat 0, moves first) starts on
a7 and g1, O (seat 1) on a1 and g7.

Actions are tuples of cell indices, the cells a person clicks:
- a clone is `(to,)`: the new piece appears on `to` whichever of the mover's adjacent pieces
  "grows" it, so clones are identified by destination only (notation "c3");
- a jump is `(from, to)`: the piece leaves `from` (notation "a1c3");
- a pass is `()`, the only legal action of a player with no move (notation "pass").
A clone's cells are one empty cell and a jump's start on the mover's own piece, so no clone's
click sequence is a prefix of a jump's: the play page can resolve every action. (A person makes
a clone by clicking its empty destination alone.)

Variant "botzone" (option `end="botzone"`): Botzone's judge, so its logs replay exactly — the game
ends as soon as the player to move has no move (no pass), and the empty cells count for the other player;
a game still running after move 401 (`BOTZONE_MAX_PLIES`) is won by the side with more pieces, not drawn.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from games.base import Game, IllegalAction, Outcome

SIZE = 7
CELLS = SIZE * SIZE
FULL = (1 << CELLS) - 1
COLUMNS = "abcdefg"
NOT_A = FULL & ~sum(1 << (row * SIZE) for row in range(SIZE))  # after a shift east, drop what wrapped into a
NOT_G = FULL & ~sum(1 << (row * SIZE + SIZE - 1) for row in range(SIZE))  # after a shift west, likewise into g
MAX_PLIES = 400
BOTZONE_MAX_PLIES = 401  # Botzone's judge stops after move 401 and counts the pieces
MARKS = ("X", "O")
EMPTY = "."
PASS: tuple[int, ...] = ()
MOVE, MUST_PASS, OVER = 0, 1, 2


def cell_name(index: int) -> str:
    """Index 0 is a1 (bottom left), 6 is g1, 48 is g7 (top right)."""
    return f"{COLUMNS[index % SIZE]}{index // SIZE + 1}"


def _ring(index: int, distance: int) -> int:
    """Bitboard of the cells at exactly this Chebyshev distance from `index`."""
    row, col = divmod(index, SIZE)
    mask = 0
    for r in range(max(0, row - distance), min(SIZE, row + distance + 1)):
        for c in range(max(0, col - distance), min(SIZE, col + distance + 1)):
            if max(abs(r - row), abs(c - col)) == distance:
                mask |= 1 << (r * SIZE + c)
    return mask


ADJ1 = tuple(_ring(i, 1) for i in range(CELLS))
ADJ2 = tuple(_ring(i, 2) for i in range(CELLS))
BIT = tuple(1 << i for i in range(CELLS))


def grow(board: int) -> int:
    """`board` plus every cell next to it (Chebyshev distance 1)."""
    row = board | (board << 1) & NOT_A | (board >> 1) & NOT_G
    return (row | row << SIZE | row >> SIZE) & FULL


def reach(board: int) -> int:
    """`board` plus every cell within Chebyshev distance 2 of it."""
    row = board | (board << 1) & NOT_A | (board >> 1) & NOT_G
    row |= (row << 1) & NOT_A | (row >> 1) & NOT_G
    col = row | row << SIZE | row >> SIZE
    return (col | col << SIZE | col >> SIZE) & FULL


def bits(board: int) -> list[int]:
    """The indices of the set bits, ascending."""
    out = []
    while board:
        low = board & -board
        out.append(low.bit_length() - 1)
        board ^= low
    return out


def status_of(ply: int, me: int, opp: int, botzone: bool = False) -> int:
    """MOVE, MUST_PASS or OVER for the player to move with pieces `me` against `opp` (Botzone: never MUST_PASS)."""
    if not me or not opp or ply >= (BOTZONE_MAX_PLIES if botzone else MAX_PLIES):
        return OVER
    empty = FULL & ~(me | opp)
    if not empty:
        return OVER
    if reach(me) & empty:
        return MOVE
    return MUST_PASS if reach(opp) & empty and not botzone else OVER


@dataclass(frozen=True, slots=True)
class AtaxxState:
    seed: int
    ply: int
    x: int  # bitboard of X's pieces (seat 0)
    o: int  # bitboard of O's pieces (seat 1)
    last: tuple[int, ...] | None  # the previous action, None before the first move
    status: int  # derived from the above: MOVE, MUST_PASS or OVER for the player to move
    botzone: bool = False  # the "botzone" variant's end rule (module docstring)


def make_state(
    seed: int, ply: int, x: int, o: int, last: tuple[int, ...] | None = None, botzone: bool = False
) -> AtaxxState:
    """A state with its derived `status`; X moves at even plies (every ply alternates: passes are moves)."""
    if x & o or (x | o) & ~FULL:
        raise ValueError("pieces overlap or lie off the board")
    me, opp = (o, x) if ply & 1 else (x, o)
    return AtaxxState(seed, ply, x, o, last, status_of(ply, me, opp, botzone), botzone)


class Ataxx(Game[AtaxxState, tuple[int, ...]]):
    slug = "ataxx"
    name = "Ataxx"
    seat_names = MARKS
    variants = {"botzone": {"end": "botzone"}}

    def initial_state(self, *, seed: int, **options: Any) -> AtaxxState:
        end = options.pop("end", "standard")
        if options or end not in ("standard", "botzone"):
            raise ValueError(f"ataxx takes only the option end ('standard' or 'botzone'), got {sorted(options)}")
        # X: a7 g1, O: a1 g7
        return make_state(seed, 0, x=BIT[42] | BIT[6], o=BIT[0] | BIT[48], botzone=end == "botzone")

    def current_player(self, state: AtaxxState) -> int | None:
        return None if state.status == OVER else state.ply & 1

    def sides(self, state: AtaxxState) -> tuple[int, int]:
        """The mover's and the opponent's bitboards."""
        return (state.o, state.x) if state.ply & 1 else (state.x, state.o)

    def legal_actions(self, state: AtaxxState) -> list[tuple[int, ...]]:
        """Clones by destination, then jumps by (from, to); or the pass alone."""
        if state.status != MOVE:
            return [PASS] if state.status == MUST_PASS else []
        me, opp = self.sides(state)
        empty = FULL & ~(me | opp)
        actions: list[tuple[int, ...]] = [(to,) for to in bits(grow(me) & empty)]
        for source in bits(me):
            actions += [(source, to) for to in bits(ADJ2[source] & empty)]
        return actions

    def is_legal(self, state: AtaxxState, action: tuple[int, ...]) -> bool:
        if type(action) is not tuple or not all(type(i) is int and 0 <= i < CELLS for i in action):
            return False
        if state.status != MOVE:
            return state.status == MUST_PASS and action == PASS
        me, opp = self.sides(state)
        if len(action) == 1:
            (to,) = action
            return not (me | opp) >> to & 1 and bool(ADJ1[to] & me)
        if len(action) == 2:
            source, to = action
            return bool(me >> source & 1) and not (me | opp) >> to & 1 and bool(ADJ2[source] >> to & 1)
        return False

    def apply(self, state: AtaxxState, action: tuple[int, ...]) -> AtaxxState:
        self.require_legal(state, action)
        me, opp = self.sides(state)
        if action:
            to = action[-1]
            if len(action) == 2:
                me ^= BIT[action[0]]
            captured = ADJ1[to] & opp
            me |= BIT[to] | captured
            opp ^= captured
        ply = state.ply + 1
        x, o = (me, opp) if ply & 1 else (opp, me)  # the mover was X when the new ply is odd
        return AtaxxState(state.seed, ply, x, o, action, status_of(ply, opp, me, state.botzone), state.botzone)

    def outcome(self, state: AtaxxState) -> Outcome | None:
        if state.status != OVER:
            return None
        x, o = state.x.bit_count(), state.o.bit_count()
        empty = CELLS - x - o
        limit = BOTZONE_MAX_PLIES if state.botzone else MAX_PLIES
        if state.botzone and x and o and empty and state.ply < limit:
            # Botzone: the player to move has no move; the empty cells go to the other player.
            mover = state.ply & 1
            x, o = (x + empty, o) if mover == 1 else (x, o + empty)
            score = f"{max(x, o)}–{min(x, o)}"
            why = f"{MARKS[mover]} has no move (Botzone: the empty cells go to {MARKS[1 - mover]})"
            return Outcome.draw(f"{why}; {score}") if x == o else Outcome.win(0 if x > o else 1, f"{why}; {score}")
        score = f"{max(x, o)}–{min(x, o)}"
        if not x or not o:
            why = f"{MARKS[0] if not x else MARKS[1]} has no pieces left"
        elif x + o == CELLS:
            why = "board full"
        elif state.ply >= limit and not state.botzone:
            return Outcome.draw(f"{MAX_PLIES}-ply limit reached; {x}–{o}")
        elif state.ply >= limit:
            why = f"move {BOTZONE_MAX_PLIES} played (Botzone's limit: more pieces win)"
        else:
            why = "neither player can move"
        if x == o:
            return Outcome.draw(f"{why}; {score}")
        return Outcome.win(0 if x > o else 1, f"{why}; {score}")

    def to_json(self, state: AtaxxState) -> dict[str, Any]:
        last = list(state.last) if state.last is not None else None
        data = {"seed": state.seed, "ply": state.ply, "board": self.rows(state), "last": last}
        return {**data, "end": "botzone"} if state.botzone else data

    def from_json(self, data: dict[str, Any]) -> AtaxxState:
        x = o = 0
        for line_number, line in enumerate(data["board"]):
            row = SIZE - 1 - line_number  # the first line is row 7
            for col, mark in enumerate(line):
                if mark == MARKS[0]:
                    x |= BIT[row * SIZE + col]
                elif mark == MARKS[1]:
                    o |= BIT[row * SIZE + col]
        last = tuple(data["last"]) if data.get("last") is not None else None
        return make_state(int(data["seed"]), int(data["ply"]), x, o, last, botzone=data.get("end") == "botzone")

    def rows(self, state: AtaxxState) -> list[str]:
        """Seven strings, row 7 (the top) first: 'X', 'O' or '.'."""
        return [
            "".join(
                MARKS[0] if state.x >> i & 1 else MARKS[1] if state.o >> i & 1 else EMPTY
                for i in range(row * SIZE, row * SIZE + SIZE)
            )
            for row in reversed(range(SIZE))
        ]

    def action_to_text(self, state: AtaxxState, action: tuple[int, ...]) -> str:
        if type(action) is not tuple or len(action) > 2 or not all(type(i) is int and 0 <= i < CELLS for i in action):
            raise IllegalAction(f"{action!r} is not an Ataxx action: (to,) clones, (from, to) jumps, () passes.")
        return "".join(cell_name(i) for i in action) if action else "pass"

    def action_cells(self, state: AtaxxState, action: tuple[int, ...]) -> tuple[str, ...]:
        # See the module docstring: clones click the destination, jumps the source then the destination.
        return tuple(cell_name(i) for i in action) if action else ("pass",)

    def parse_action(self, state: AtaxxState, text: str) -> tuple[int, ...]:
        cleaned = text.strip().strip("\"'`.!").strip().lower()
        if cleaned in ("pass", "null", "0000"):
            return PASS
        cell = r"([a-g])\s*([1-7])"
        if match := re.fullmatch(cell, cleaned):
            return (self._index(match[1], match[2]),)
        if match := re.fullmatch(rf"{cell}\s*(?:-|x|:|->|to|\s)?\s*{cell}", cleaned):
            source, to = self._index(match[1], match[2]), self._index(match[3], match[4])
            distance = max(abs(source // SIZE - to // SIZE), abs(source % SIZE - to % SIZE))
            if distance == 2:
                return (source, to)
            if distance == 1:  # a clone written from-to: the source must be the mover's, then only `to` matters
                me, _ = self.sides(state)
                if not me >> source & 1:
                    raise IllegalAction(
                        f"{cell_name(source)} is not your piece; a clone is written by its destination, "
                        f"e.g. {cell_name(to)}."
                    )
                return (to,)
            raise IllegalAction(
                f"{cell_name(source)} to {cell_name(to)} is {distance} cells; a clone goes 1 cell (write the "
                "destination, e.g. c3) and a jump 2 (write from and to, e.g. a1c3)."
            )
        raise IllegalAction(
            f"Could not read {text.strip()!r} as a move; write a clone as its destination (e.g. b2), a jump as "
            "from and to (e.g. a1c3), or pass when you have no move."
        )

    @staticmethod
    def _index(letter: str, digit: str) -> int:
        return (int(digit) - 1) * SIZE + COLUMNS.index(letter)

    def rules_text(self) -> str:
        return (
            "Ataxx on a 7×7 board. X moves first and starts on a7 and g1; O starts on a1 and g7. On your turn "
            "either clone or jump one of your pieces to an empty cell. A clone goes to a cell adjacent to one of "
            "your pieces (one step in any of the 8 directions) and adds a new piece there. A jump goes exactly "
            "two cells away (any cell on the ring around the 5×5 square centred on the piece) and the piece "
            "leaves its old cell. After either, every opponent piece adjacent to the destination becomes yours. "
            "If you have no move you must pass (and may pass only then). The game ends when the board is full, "
            "when a player has no pieces, or when neither player can move; the player with more pieces wins, "
            f"equal counts are a draw. A game still running after {MAX_PLIES} plies (moves and passes) is a draw.\n"
            "Board encoding: seven rows printed top to bottom, row 7 first, columns a–g left to right; "
            "'X' and 'O' are pieces and '.' is empty.\n"
            "Answer with one move: a clone as its destination cell, e.g. b6; a jump as the from cell followed "
            "by the to cell, e.g. a7c5; or pass when you have no legal move."
        )

    def board_text(self, state: AtaxxState) -> str:
        rows = [f"{SIZE - n} {' '.join(line)}" for n, line in enumerate(self.rows(state))]
        return "\n".join([*rows, "  a b c d e f g"])

    def observation_text(self, state: AtaxxState, player: int) -> str:
        header = f"You play {MARKS[player]}. Move {state.ply + 1}."
        header += f" Pieces: X {state.x.bit_count()}, O {state.o.bit_count()}."
        if state.last is not None:
            header += f" {MARKS[(state.ply - 1) & 1]}'s last move: {self.action_to_text(state, state.last)}."
        lines = [header, self.board_text(state)]
        if self.current_player(state) == player:
            if state.status == MUST_PASS:
                lines.append("You have no move and must pass.")
            else:
                me, opp = self.sides(state)
                clones = [cell_name(i) for i in bits(grow(me) & FULL & ~(me | opp))]
                lines.append(f"Clone destinations: {', '.join(clones) or 'none'}. Jumps go exactly two cells.")
        return "\n".join(lines)

    def player_view(self, state: AtaxxState, player: int | None) -> dict[str, Any]:
        mover = self.current_player(state)
        me, opp = self.sides(state)
        clones = grow(me) & FULL & ~(me | opp) if state.status == MOVE else 0
        last_cells = set(state.last or ())
        cells = []
        for index in range(CELLS):
            owner = 0 if state.x >> index & 1 else 1 if state.o >> index & 1 else None
            cells.append(
                {
                    "name": cell_name(index),
                    "x": index % SIZE,
                    "y": SIZE - 1 - index // SIZE,  # row 7 at the top
                    "piece": MARKS[owner].lower() if owner is not None else "",
                    "clone": bool(clones >> index & 1),
                    "last": index in last_cells,
                }
            )
        return {
            **self.to_json(state),
            "cells": cells,
            "to_move": mover,
            "counts": [state.x.bit_count(), state.o.bit_count()],
            "must_pass": state.status == MUST_PASS,
            "last_cells": list(self.action_cells(state, state.last)) if state.last else [],
        }
