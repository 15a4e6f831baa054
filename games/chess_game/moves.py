"""Legal chess moves from bulletchess (a C move generator), listed in python-chess's order.

The game's move order is python-chess's `generate_legal_moves`, since the seeded random play of every ladder level
draws from it. python-chess lists:

- out of check: every piece's moves but the pawns' (the king's too), origin downwards, then destination downwards;
  castling, kingside first; pawn captures (origin, then destination downwards; promotions Q, R, B, N); pawn
  single pushes and then double pushes, destination downwards; en passant captures, origin downwards;
- in check: the king's moves first (destination downwards), then the rest in the same order.

bulletchess lists the same moves by origin upwards, then destination upwards. Reversed, that is python-chess's
order for pieces; the moves that come later (those from the mover's pawns' squares, and castling) have keys in a
dict kept per pawn structure that reads 0 for any other move, so one stable sort with that dict's lookup as key
(a C call, no Python call per move: that would cost more than bulletchess's generation itself) puts them after
the pieces' in python-chess's order. When in check, the king's steps are then picked out and put first.

A position's en passant square is kept only when an en passant capture is legal, as python-chess's FEN and
its repetition identity have it (`Board.fen()`, `_transposition_key`).
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from itertools import compress
from operator import not_

import bulletchess as bc

# Key categories of the moves sorted after the pieces', in python-chess's generation order.
_CASTLING, _PAWN_CAPTURE, _PAWN_PUSH, _PAWN_DOUBLE, _EN_PASSANT = range(2, 7)
_PROMOTIONS = {"": 0, "q": 0, "r": 1, "b": 2, "n": 3}  # python-chess yields Q, R, B, N
_CATEGORY = 16  # a key is category << 16 | (63 - origin) << 9 | (63 - destination) << 2 | promotion
_CASTLING_SQUARE = (1 << 4, 1 << 60)  # e1 and e8: with the king there, e1g1 and e1c1 are castling
_SQUARES = [f"{file}{rank}" for rank in "12345678" for file in "abcdefgh"]  # index = python-chess square


def _key(category: int, origin: int, destination: int, promotion: str = "") -> int:
    return category << _CATEGORY | (63 - origin) << 9 | (63 - destination) << 2 | _PROMOTIONS[promotion]


def _pawn_category(colour: int, origin: int, destination: int) -> int | None:
    """The category of a move of this shape by a pawn of `colour` (0 White), or None if no pawn moves so."""
    forward = 1 if colour == 0 else -1
    files, ranks = abs(origin % 8 - destination % 8), destination // 8 - origin // 8
    if files == 1 and ranks == forward:
        return _PAWN_CAPTURE
    if files == 0 and ranks == forward:
        return _PAWN_PUSH
    if files == 0 and ranks == 2 * forward and origin // 8 == (1, 6)[colour]:
        return _PAWN_DOUBLE
    return None


def _pawn_moves_from() -> tuple[list[dict[bc.Move, int]], list[dict[bc.Move, int]]]:
    """[colour][square]: every move a pawn of that colour on that square can make, with its key."""
    tables: tuple[list[dict[bc.Move, int]], list[dict[bc.Move, int]]] = ([], [])
    for colour, table in enumerate(tables):
        for origin in range(64):
            table.append({})
            for destination in range(64):
                category = _pawn_category(colour, origin, destination)
                if category is None or not 8 <= origin < 56:
                    continue
                for promotion in ("q", "r", "b", "n") if destination // 8 in (0, 7) else ("",):
                    move = bc.Move.from_uci(_SQUARES[origin] + _SQUARES[destination] + promotion)
                    table[origin][move] = _key(category, origin, destination, promotion)
    return tables


def _king_moves_from() -> list[frozenset[bc.Move]]:
    """[square]: every king step from that square."""
    steps = []
    for origin in range(64):
        near = [d for d in range(64) if d != origin and max(abs(d % 8 - origin % 8), abs(d // 8 - origin // 8)) == 1]
        steps.append(frozenset(bc.Move.from_uci(_SQUARES[origin] + _SQUARES[d]) for d in near))
    return steps


_PAWN_MOVES_FROM = _pawn_moves_from()
_KING_MOVES_FROM = _king_moves_from()
_CASTLING_MOVES = tuple(
    {
        bc.Move.from_uci(f"e{rank}{file}{rank}"): _key(_CASTLING, king, king + step)
        for file, step in (("g", 2), ("c", -2))
    }
    for rank, king in (("1", 4), ("8", 60))
)


@lru_cache(maxsize=256)  # the last pawn structures (one lasts until a pawn moves); thread-safe
def _late_keys(colour: int, pawns: int, may_castle: bool) -> defaultdict[bc.Move, int]:
    """The keys of the moves that come after the pieces' for this side and pawn structure: the moves from its
    pawns' squares and castling; any other move reads 0 (and is then kept as 0: no pawn or castling move of this
    structure is missing, so 0 stays right)."""
    late = defaultdict(int, _CASTLING_MOVES[colour] if may_castle else {})
    while pawns:
        low = pawns & -pawns
        late.update(_PAWN_MOVES_FROM[colour][low.bit_length() - 1])
        pawns ^= low
    return late


def legal_moves(board: bc.Board) -> list[bc.Move]:
    """The legal moves of `board` in python-chess's `generate_legal_moves` order. Drops the board's en passant
    square when no en passant capture is legal (python-chess's position identity; bulletchess keeps it after
    every double push)."""
    moves = board.legal_moves()
    moves.reverse()  # python-chess's order for pieces: origin, then destination downwards
    turn = board.turn
    colour = 0 if turn == bc.WHITE else 1
    pawns = int(board[turn, bc.PAWN])
    king = int(board[turn, bc.KING])
    may_castle = bool(king & _CASTLING_SQUARE[colour])
    if pawns or may_castle:
        late = _late_keys(colour, pawns, may_castle)
        if board.en_passant_square is None:
            moves.sort(key=late.__getitem__)  # stable: the pieces' moves (key 0) keep their order
        else:
            captures = _en_passant_keys(board, moves, late)
            moves.sort(key=lambda move: captures[move] if move in captures else late[move])
    elif board.en_passant_square is not None:
        board.en_passant_square = None  # no pawn to take with
    if board in bc.CHECK:
        is_kings = list(map(_KING_MOVES_FROM[king.bit_length() - 1].__contains__, moves))
        moves = list(compress(moves, is_kings)) + list(compress(moves, map(not_, is_kings)))
    return moves


def _en_passant_keys(board: bc.Board, moves: list[bc.Move], late: defaultdict[bc.Move, int]) -> dict[bc.Move, int]:
    """The keys of the legal en passant captures, after every other move; drops the board's en passant square if
    there is none."""
    target = _key(_PAWN_CAPTURE, 0, board.en_passant_square.index()) & 0xFF  # its destination bits
    captures = {
        move: late[move] + (_EN_PASSANT - _PAWN_CAPTURE << _CATEGORY)
        for move in moves
        if late[move] >> _CATEGORY == _PAWN_CAPTURE and late[move] & 0xFF == target
    }
    if not captures:
        board.en_passant_square = None
    return captures


def identity(fen: str) -> str:
    """A position's identity for repetitions: its FEN without the clocks (placement, turn, castling, en passant
    square only when a capture there is legal, since `legal_moves` dropped it otherwise)."""
    return fen.rsplit(" ", 2)[0]
