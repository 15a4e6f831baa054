"""Universal Hive Protocol notation: MoveStrings (`wQ`, `bA1 -wQ`, `wB1 wQ`, `pass`) and GameStrings.

A MoveString names the piece, then where it goes: on top of a piece (`wB1 wQ`), or next to one with a
direction mark — before the reference piece for the west side (`-wQ` west, `/wQ` south-west,
`\\wQ` north-west), after it for the east side (`wQ-` east, `wQ/` north-east, `wQ\\` south-east).
The very first move names only the piece. See https://github.com/jonthysell/Mzinga/wiki/UniversalHiveProtocol.
"""

from __future__ import annotations

import re

from games.hive.board import DIRECTIONS, KINDS, NUMBERS, ORIGIN, PER_SIDE, PIECES, Board, Move

GAME_TYPE = "Base"  # UHP's GameTypeString for the game without expansion pieces
PASS_TEXT = "pass"
# Per direction index (east, south-east, south-west, west, north-west, north-east): mark and side.
_MARKS = (("-", "after"), ("\\", "after"), ("/", "before"), ("-", "before"), ("\\", "before"), ("/", "after"))
_PIECE = r"[wb][QSBGA][1-3]?"
_REFERENCE = re.compile(rf"^(?P<before>[-/\\]?)(?P<piece>{_PIECE})(?P<after>[-/\\]?)$")
_MOVE = re.compile(rf"^(?P<piece>{_PIECE})(?:\s+(?P<where>[-/\\]?{_PIECE}[-/\\]?))?$")

PIECE_NAMES = tuple(f"{'wb'[p // PER_SIDE]}{KINDS[p % PER_SIDE]}{NUMBERS[p % PER_SIDE] or ''}" for p in range(PIECES))
_PIECE_INDEX = {name: index for index, name in enumerate(PIECE_NAMES)}


class NotationError(ValueError):
    """Text that is not a UHP MoveString or GameString for this position; the message says why."""


def piece_index(name: str) -> int:
    try:
        return _PIECE_INDEX[name]
    except KeyError:
        raise NotationError(f"{name!r} is not a base-game piece (wQ, wS1–2, wB1–2, wG1–3, wA1–3, or b…).") from None


def move_string(board: Board, move: Move | None) -> str:
    """The MoveString of `move` (None: pass) in `board`, before it is played."""
    if move is None:
        return PASS_TEXT
    piece, dest = move
    name = PIECE_NAMES[piece]
    if board.ply == 0:
        return name
    stack = board.stacks.get(dest)
    if stack:
        return f"{name} {PIECE_NAMES[stack[-1]]}"
    for d, step in enumerate(DIRECTIONS):
        stack = board.stacks.get(dest + step)
        if not stack:
            continue
        # The moving piece is not its own reference: name what lies under it, or look further.
        reference = stack[-1] if stack[-1] != piece else (stack[-2] if len(stack) > 1 else None)
        if reference is None:
            continue
        mark, side = _MARKS[(d + 3) % 6]  # the direction from the reference to the destination
        ref = PIECE_NAMES[reference]
        return f"{name} {mark}{ref}" if side == "before" else f"{name} {ref}{mark}"
    raise NotationError(f"{name} has no neighbour to name its destination by.")


def parse_move_string(board: Board, text: str) -> Move | None:
    """The (piece, destination) a MoveString names (None for pass); legality is the caller's check."""
    text = " ".join(text.split())
    if text.lower() == PASS_TEXT:
        return None
    match = _MOVE.match(text)
    if not match:
        raise NotationError(
            f"Could not read {text!r} as a UHP move: write the piece, a space and where it goes, "
            "e.g. 'wA1 -bQ' (west of bQ), 'bB1 wQ' (on top of wQ), or 'pass'."
        )
    piece = piece_index(match["piece"])
    if board.ply == 0:
        if match["where"]:
            raise NotationError("The first move names only the piece, e.g. 'wA1'.")
        return piece, ORIGIN
    if not match["where"]:
        raise NotationError(f"Say where {match['piece']} goes, e.g. '{match['piece']} -wQ' (west of wQ).")
    ref = _REFERENCE.match(match["where"])
    before, after = ref["before"], ref["after"]
    if before and after:
        raise NotationError(f"{match['where']!r} has two direction marks; use one.")
    reference = piece_index(ref["piece"])
    cell = board.where[reference]
    if cell < 0:
        raise NotationError(f"{ref['piece']} is not on the board, so it cannot name a place.")
    if not before and not after:
        return piece, cell
    side, mark = ("before", before) if before else ("after", after)
    direction = _MARKS.index((mark, side))
    return piece, cell + DIRECTIONS[direction]


def turn_string(ply: int) -> str:
    """UHP's TurnString: the colour to move and the turn number, e.g. White[1], Black[1], White[2]."""
    return f"{('White', 'Black')[ply % 2]}[{ply // 2 + 1}]"


def game_string(moves: tuple[str, ...], state_text: str) -> str:
    """A GameString: game type, game state, turn, then the MoveStrings played."""
    return ";".join((GAME_TYPE, state_text, turn_string(len(moves)), *moves))


def split_game_string(text: str) -> list[str]:
    """The MoveStrings of a GameString (or of a bare GameTypeString); NotationError unless it is the base game."""
    parts = [part.strip() for part in text.strip().split(";")]
    if parts[0] != GAME_TYPE:
        raise NotationError(f"Only the base game ({GAME_TYPE!r}) is played here, not {parts[0]!r}.")
    if len(parts) == 1:
        return []
    if len(parts) < 3:
        raise NotationError(
            "A GameString is GameType;GameState;Turn and then the moves, e.g. 'Base;InProgress;White[2];wA1;bG1 wA1-'."
        )
    return [part for part in parts[3:] if part]
