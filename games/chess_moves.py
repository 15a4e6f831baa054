"""Legal chess moves from bulletchess (a C move generator), listed in python-chess's order.

bulletchess lists the same moves as python-chess's `generate_legal_moves` but by origin square upwards. The
game's move order is python-chess's, since the seeded random play of every ladder level draws from it, so the
list is sorted here by python-chess's order, which this key reproduces:

- out of check: every piece move but a pawn's (the king's too), origin downwards, then destination downwards;
  castling, kingside first; pawn captures (origin, then destination downwards; promotions Q, R, B, N); pawn
  single pushes and then double pushes, destination downwards; en passant captures, origin downwards;
- in check: the king's moves first (destination downwards), then the rest in the same order.

A position's en passant square is kept only when an en passant capture is legal, as python-chess's FEN and
its repetition identity have it (`Board.fen()`, `_transposition_key`).
"""

from __future__ import annotations

import bulletchess as bc

# Key categories, in python-chess's generation order.
_KING_EVASION, _PIECE, _CASTLING, _PAWN_CAPTURE, _PAWN_PUSH, _PAWN_DOUBLE, _EN_PASSANT = range(7)
_PROMOTIONS = {None: 0, "q": 0, "r": 1, "b": 2, "n": 3}  # python-chess yields Q, R, B, N


def _key(category: int, origin: int, destination: int, promotion: str | None = None) -> int:
    return category << 16 | (63 - origin) << 9 | (63 - destination) << 2 | _PROMOTIONS[promotion]


def _tables() -> tuple[dict[bc.Move, int], tuple[dict[bc.Move, int], ...], tuple[dict[bc.Move, int], ...]]:
    """Per move (any origin, destination and promotion): its origin's bit; its key when a piece other than a
    pawn makes it, by the colour whose king stands on its castling square (castling is then the king's move
    e1g1 or e1c1; a piece's other moves of that shape otherwise), for White, for Black, and for neither; its
    key when a pawn of each colour makes it (moves a pawn of that colour cannot make are absent)."""
    origin_bit: dict[bc.Move, int] = {}
    piece: tuple[dict[bc.Move, int], ...] = ({}, {}, {})  # White's king on e1, Black's king on e8, neither
    pawn: tuple[dict[bc.Move, int], ...] = ({}, {})  # White, Black
    names = [f"{file}{rank}" for rank in "12345678" for file in "abcdefgh"]  # index = python-chess square
    for origin, origin_name in enumerate(names):
        for destination, destination_name in enumerate(names):
            if origin == destination:
                continue
            uci = origin_name + destination_name
            try:
                move = bc.Move.from_uci(uci)
            except ValueError:  # no piece moves so
                move = None
            if move is not None:
                origin_bit[move] = 1 << origin
                for colour, castling in enumerate((("e1g1", "e1c1"), ("e8g8", "e8c8"), ())):
                    piece[colour][move] = _key(_CASTLING if uci in castling else _PIECE, origin, destination)
            files, ranks = abs(origin % 8 - destination % 8), destination // 8 - origin // 8
            for colour, forward in enumerate((1, -1)):
                if files == 1 and ranks == forward:
                    category = _PAWN_CAPTURE
                elif files == 0 and ranks == forward:
                    category = _PAWN_PUSH
                elif files == 0 and ranks == 2 * forward and origin // 8 == (1, 6)[colour]:
                    category = _PAWN_DOUBLE
                else:
                    continue
                last_rank = destination // 8 == 7 * (1 - colour)
                for promotion in ("q", "r", "b", "n") if last_rank else (None,):
                    promoted = bc.Move.from_uci(uci + (promotion or ""))
                    origin_bit[promoted] = 1 << origin
                    pawn[colour][promoted] = _key(category, origin, destination, promotion)
    return origin_bit, piece, pawn


_ORIGIN_BIT, _PIECE_KEY, _PAWN_KEY = _tables()
_CASTLING_SQUARE = (1 << 4, 1 << 60)  # e1, e8


def legal_moves(board: bc.Board) -> list[bc.Move]:
    """The legal moves of `board` in python-chess's `generate_legal_moves` order. Drops the board's en passant
    square when no en passant capture is legal (python-chess's position identity; bulletchess keeps it after
    every double push)."""
    moves = board.legal_moves()
    colour = 0 if board.turn == bc.WHITE else 1
    pawns = int(board[board.turn, bc.PAWN])
    kings = int(board[board.turn, bc.KING])
    origin_bit, pawn_key = _ORIGIN_BIT, _PAWN_KEY[colour]
    piece_key = _PIECE_KEY[colour if kings & _CASTLING_SQUARE[colour] else 2]
    ep_square = board.en_passant_square
    if ep_square is not None:
        pawn_key = _en_passant_keys(board, moves, pawns, pawn_key, ep_square)
    if board in bc.CHECK:
        evasions = {
            move: _key(_KING_EVASION, 0, move.destination.index()) for move in moves if origin_bit[move] & kings
        }

        def key(move: bc.Move) -> int:
            bit = origin_bit[move]
            return pawn_key[move] if bit & pawns else (evasions[move] if bit & kings else piece_key[move])

    else:

        def key(move: bc.Move) -> int:
            return pawn_key[move] if origin_bit[move] & pawns else piece_key[move]

    moves.sort(key=key)
    return moves


def _en_passant_keys(
    board: bc.Board, moves: list[bc.Move], pawns: int, pawn_key: dict[bc.Move, int], ep_square: bc.Square
) -> dict[bc.Move, int]:
    """`pawn_key` with the legal en passant captures last; the board's en passant square dropped if none is."""
    captures = [move for move in moves if move.destination == ep_square and _ORIGIN_BIT[move] & pawns]
    if not captures:
        board.en_passant_square = None
        return pawn_key
    return {**pawn_key, **{move: _key(_EN_PASSANT, move.origin.index(), 0) for move in captures}}


def identity(fen: str) -> str:
    """A position's identity for repetitions: its FEN without the clocks (placement, turn, castling, en passant
    square only when a capture there is legal, since `legal_moves` dropped it otherwise)."""
    return fen.rsplit(" ", 2)[0]
