"""Reversi (Othello) on an 8×8 board, with Python-int bitboards.

Cells are named a1–h8: column letter a–h left to right, row number 1–8 from the TOP, as in
standard Othello notation (so Black's four opening moves are d3, c4, f5 and e6). Cell index
`row * 8 + col` with row 0 = row 1 is bit `index` of a bitboard; action 64 is the pass, the same
numbering as OpenSpiel's `othello`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from games.base import Game, IllegalAction, Outcome

PASS = 64
PASS_BIT = 1 << PASS
FULL = (1 << 64) - 1
INNER = 0x7E7E7E7E7E7E7E7E  # columns b–g: a run that moves sideways never wraps past them
SEAT_NAMES = ("Black", "White")
MARKS = ("X", "O")
EMPTY = "."
COLUMNS = "abcdefgh"


def cell_name(index: int) -> str:
    """Index 0 is a1 (top left), 7 is h1, 63 is h8 (bottom right)."""
    return f"{COLUMNS[index & 7]}{(index >> 3) + 1}"


# Both colours' bitboards are kept "doubled": bits 0–63 hold the board, bits OFFSET…OFFSET+63 hold the
# same board bit-reversed (cell i at OFFSET + 63 - i). A left shift then moves lane 0 east/south/…
# and lane 1 west/north/…, so four shift chains cover all eight directions at once. The 18-bit gap
# between the lanes is as wide as the longest shift, so nothing crosses from one lane to the other.
OFFSET = 82
LANE0 = FULL
_REVERSED_BYTES = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))
_from_bytes = int.from_bytes


def reverse(board: int) -> int:
    """The 64-bit board with cell i moved to cell 63 - i (rotated by 180°)."""
    return _from_bytes(board.to_bytes(8, "big").translate(_REVERSED_BYTES), "little")


def double(board: int) -> int:
    """A plain 64-bit board in the doubled form used by the states."""
    return board | reverse(board) << OFFSET


INNER2 = double(INNER)
BITS = tuple(double(1 << i) for i in range(64))


def _rays() -> tuple[tuple[tuple[int, dict[int, int]], ...], ...]:
    """Per cell, its rays (at least two cells long), each as (mask, {stop cell bit: doubled flips}).

    A ray towards higher indices is read in lane 0 and one towards lower indices in lane 1, where it
    also runs towards higher bits: either way the nearest cell on the ray is its lowest bit.
    """
    table = []
    for index in range(64):
        row, col = divmod(index, 8)
        rays = []
        for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1), (0, -1), (-1, 1), (-1, 0), (-1, -1)):
            cells, r, c = [], row + dr, col + dc
            while 0 <= r < 8 and 0 <= c < 8:
                cells.append(r * 8 + c)
                r, c = r + dr, c + dc
            if len(cells) < 2:  # a one-cell ray has no room for a disc to flip
                continue
            up = dr * 8 + dc > 0
            lane = [c if up else OFFSET + 63 - c for c in cells]
            mask = sum(1 << bit for bit in lane)
            stops = {1 << bit: sum(BITS[c] for c in cells[:k]) for k, bit in enumerate(lane)}
            rays.append((mask, stops))
        table.append(tuple(rays))
    return tuple(table)


RAYS = _rays()
# ROW_CELLS[row][byte]: the cell indices of the bits set in that row's byte, for listing moves fast.
ROW_CELLS = tuple(
    tuple(tuple(row * 8 + c for c in range(8) if byte >> c & 1) for byte in range(256)) for row in range(8)
)
_ROW0, _ROW1, _ROW2, _ROW3, _ROW4, _ROW5, _ROW6, _ROW7 = ROW_CELLS


def moves_of(me: int, opp: int) -> int:
    """Plain 64-bit board of the empty cells where `me` flips at least one of `opp`'s discs (both doubled).

    One shift chain per direction pair (lane 0 and lane 1 at once): grow runs of opponent discs
    from `me` (one cell, then doubling with `pair` = two adjacent opponent discs), then step once
    more. Sideways directions use opponent discs in columns b–g only, so no run wraps round a row's
    edge. The lane-1 moves are reversed back and merged.
    """
    side = opp & INNER2
    pair = side & (side << 1)
    x = (me << 1) & side
    x |= (x << 1) & side
    x |= (x << 2) & pair
    x |= (x << 2) & pair
    moves = x << 1
    pair = opp & (opp << 8)
    x = (me << 8) & opp
    x |= (x << 8) & opp
    x |= (x << 16) & pair
    x |= (x << 16) & pair
    moves |= x << 8
    pair = side & (side << 9)
    x = (me << 9) & side
    x |= (x << 9) & side
    x |= (x << 18) & pair
    x |= (x << 18) & pair
    moves |= x << 9
    pair = side & (side << 7)
    x = (me << 7) & side
    x |= (x << 7) & side
    x |= (x << 14) & pair
    x |= (x << 14) & pair
    moves |= x << 7
    moves &= ~(me | opp)
    return (moves & LANE0) | reverse(moves >> OFFSET & LANE0)


def flips_of(index: int, me: int, opp: int) -> int:
    """Doubled board of `opp`'s discs that `me` flips by playing on the empty cell `index`."""
    flips = 0
    not_opp = ~opp
    for ray, stops in RAYS[index]:
        stop = ray & not_opp
        stop &= -stop  # the nearest cell along the ray that is not an opponent disc
        if stop & me:
            flips |= stops[stop]
    return flips


def legal_bits(me: int, opp: int) -> int:
    """The mover's legal actions as a bitboard: cells, or PASS_BIT alone, or 0 when the game is over."""
    moves = moves_of(me, opp)
    if moves:
        return moves
    if (me | opp) & LANE0 != FULL and moves_of(opp, me):
        return PASS_BIT
    return 0


@dataclass(frozen=True, slots=True)
class ReversiState:
    seed: int
    ply: int
    black: int  # Black's discs, doubled (see OFFSET): `black & FULL` is the plain bitboard
    white: int  # White's discs, doubled
    last: int  # the previous action (a cell index or PASS), -1 before the first move
    legal: int  # derived from the above: the mover's legal actions as a bitboard (see legal_bits)


# Fast construction for the playout hot path: a frozen dataclass's __init__ goes through
# object.__setattr__ per field, about half the cost of a move generation; the slot setters are cheaper.
_new = object.__new__
_slots = ReversiState.__dict__
_set_seed, _set_ply, _set_black, _set_white, _set_last, _set_legal = (
    _slots[name].__set__ for name in ("seed", "ply", "black", "white", "last", "legal")
)


def _state(seed: int, ply: int, black: int, white: int, last: int, legal: int) -> ReversiState:
    state = _new(ReversiState)
    _set_seed(state, seed)
    _set_ply(state, ply)
    _set_black(state, black)
    _set_white(state, white)
    _set_last(state, last)
    _set_legal(state, legal)
    return state


def make_state(seed: int, ply: int, black: int, white: int, last: int = -1) -> ReversiState:
    """A state from plain 64-bit boards, with its derived fields filled in; Black moves at even plies."""
    if black & white or (black | white) & ~FULL:
        raise ValueError("discs overlap or lie off the board")
    black, white = double(black), double(white)
    me, opp = (white, black) if ply & 1 else (black, white)
    return ReversiState(seed, ply, black, white, last, legal_bits(me, opp))


def counts(state: ReversiState) -> tuple[int, int]:
    """Black's and White's disc counts."""
    return (state.black & FULL).bit_count(), (state.white & FULL).bit_count()


class Reversi(Game[ReversiState, int]):
    slug = "reversi"
    name = "Reversi"
    seat_names = SEAT_NAMES

    def initial_state(self, *, seed: int, **options: Any) -> ReversiState:
        if options:
            raise ValueError(f"reversi takes no options, got {sorted(options)}")
        # d5 and e4 Black, d4 and e5 White.
        return make_state(seed, 0, black=1 << 35 | 1 << 28, white=1 << 27 | 1 << 36)

    def current_player(self, state: ReversiState) -> int | None:
        return state.ply & 1 if state.legal else None

    def legal_actions(self, state: ReversiState) -> list[int]:
        moves = state.legal
        if moves & PASS_BIT:
            return [PASS]
        # One table lookup per row, unrolled: this runs once per ply of every playout.
        return [
            *_ROW0[moves & 255],
            *_ROW1[moves >> 8 & 255],
            *_ROW2[moves >> 16 & 255],
            *_ROW3[moves >> 24 & 255],
            *_ROW4[moves >> 32 & 255],
            *_ROW5[moves >> 40 & 255],
            *_ROW6[moves >> 48 & 255],
            *_ROW7[moves >> 56],
        ]

    def is_legal(self, state: ReversiState, action: int) -> bool:
        return type(action) is int and 0 <= action <= PASS and bool(state.legal >> action & 1)

    def apply(self, state: ReversiState, action: int) -> ReversiState:
        try:
            legal = state.legal >> action & 1
        except (TypeError, ValueError):  # not an int, or a negative one
            legal = 0
        if not legal or type(action) is not int:
            self.require_legal(state, action)
        ply = state.ply + 1
        black, white = state.black, state.white
        if ply & 1:  # Black just moved (or passed); White is to move
            if action != PASS:
                flips = flips_of(action, black, white)
                black |= flips | BITS[action]
                white ^= flips
            legal = moves_of(white, black)
            if not legal and (black | white) & LANE0 != FULL and moves_of(black, white):
                legal = PASS_BIT
        else:
            if action != PASS:
                flips = flips_of(action, white, black)
                white |= flips | BITS[action]
                black ^= flips
            legal = moves_of(black, white)
            if not legal and (black | white) & LANE0 != FULL and moves_of(white, black):
                legal = PASS_BIT
        return _state(state.seed, ply, black, white, action, legal)

    def outcome(self, state: ReversiState) -> Outcome | None:
        if state.legal:
            return None
        black, white = counts(state)
        why = "board full" if black + white == 64 else "neither player can move"
        if black == white:
            return Outcome.draw(f"{why}; {black}–{white}")
        return Outcome.win(0 if black > white else 1, f"{why}; {max(black, white)}–{min(black, white)}")

    def to_json(self, state: ReversiState) -> dict[str, Any]:
        return {"seed": state.seed, "ply": state.ply, "board": self.rows(state), "last": state.last}

    def from_json(self, data: dict[str, Any]) -> ReversiState:
        black = white = 0
        for row, line in enumerate(data["board"]):
            for col, mark in enumerate(line):
                if mark == MARKS[0]:
                    black |= 1 << (row * 8 + col)
                elif mark == MARKS[1]:
                    white |= 1 << (row * 8 + col)
        return make_state(int(data["seed"]), int(data["ply"]), black, white, int(data["last"]))

    def rows(self, state: ReversiState) -> list[str]:
        """Eight strings, row 1 first: 'X' Black, 'O' White, '.' empty."""
        return [
            "".join(
                MARKS[0] if state.black >> i & 1 else MARKS[1] if state.white >> i & 1 else EMPTY
                for i in range(row * 8, row * 8 + 8)
            )
            for row in range(8)
        ]

    def action_to_text(self, state: ReversiState, action: int) -> str:
        if type(action) is not int or not 0 <= action <= PASS:
            raise IllegalAction(f"{action!r} is not a Reversi action (a cell index 0–63, or 64 for pass).")
        return "pass" if action == PASS else cell_name(action)

    def action_cells(self, state: ReversiState, action: int) -> tuple[str, ...]:
        # The renderer shows a button with data-cell="pass" when passing is the only move.
        return (self.action_to_text(state, action),)

    def parse_action(self, state: ReversiState, text: str) -> int:
        cleaned = text.strip().strip("\"'`.!").strip().lower()
        if cleaned == "pass":
            return PASS
        match = re.fullmatch(r"([a-h])\s*-?\s*([1-8])", cleaned) or re.fullmatch(r"([1-8])\s*-?\s*([a-h])", cleaned)
        if match:
            letter, digit = sorted(match.groups(), key=str.isdigit)
            return (int(digit) - 1) * 8 + COLUMNS.index(letter)
        raise IllegalAction(
            f"Could not read {text.strip()!r} as a move; write a column a–h and a row 1–8 (row 1 at the top), "
            "e.g. d3, or pass when you have no move."
        )

    def rules_text(self) -> str:
        return (
            "Reversi (Othello) on an 8×8 board. Black (X) moves first; White (O) second. The game starts with "
            "White on d4 and e5 and Black on d5 and e4. On your turn place one disc of your colour on an empty "
            "cell so that it brackets one or more straight lines (horizontal, vertical or diagonal) of opponent "
            "discs between the new disc and another disc of yours; every bracketed opponent disc flips to your "
            "colour. A move must flip at least one disc. If you have no such move you must pass (and passing is "
            "allowed only then). The game ends when neither player can move; the player with more discs wins, "
            "equal counts are a draw.\n"
            "Board encoding: eight rows printed top to bottom, row 1 first, columns a–h left to right; "
            "'X' is Black, 'O' is White and '.' is empty.\n"
            "Answer with one cell as column letter and row number, e.g. d3, or with pass when you have no legal move."
        )

    def board_text(self, state: ReversiState) -> str:
        rows = [f"{row + 1} {' '.join(line)}" for row, line in enumerate(self.rows(state))]
        return "\n".join(["  a b c d e f g h", *rows])

    def observation_text(self, state: ReversiState, player: int) -> str:
        black, white = counts(state)
        header = f"You play {SEAT_NAMES[player]} ({MARKS[player]}). Move {state.ply + 1}."
        header += f" Discs: Black {black}, White {white}."
        if state.last >= 0:
            header += f" {SEAT_NAMES[(state.ply - 1) & 1]}'s last move: {self.action_to_text(state, state.last)}."
        lines = [header, self.board_text(state)]
        if self.current_player(state) == player:
            moves = [self.action_to_text(state, a) for a in self.legal_actions(state)]
            lines.append(
                "You have no move and must pass." if moves == ["pass"] else f"Legal moves: {', '.join(moves)}."
            )
        return "\n".join(lines)

    def player_view(self, state: ReversiState, player: int | None) -> dict[str, Any]:
        mover = self.current_player(state)
        legal = state.legal & FULL
        pieces = ("black", "white")
        cells = []
        for index in range(64):
            owner = 0 if state.black >> index & 1 else 1 if state.white >> index & 1 else None
            cells.append(
                {
                    "name": cell_name(index),
                    "x": index & 7,
                    "y": index >> 3,
                    "piece": pieces[owner] if owner is not None else "",
                    "legal": bool(legal >> index & 1),
                    "last": index == state.last,
                }
            )
        return {
            **self.to_json(state),
            "cells": cells,
            "to_move": mover,
            "counts": list(counts(state)),
            "must_pass": state.legal == PASS_BIT,
            "last_cells": list(self.action_cells(state, state.last)) if 0 <= state.last < PASS else [],
            "columns": list(COLUMNS),
        }
