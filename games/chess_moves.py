"""Legal chess moves from bulletchess (a C move generator), listed in python-chess's order.

bulletchess lists the same moves as python-chess's `generate_legal_moves`, by origin square upwards. The game's
move order is python-chess's, since the seeded random play of every ladder level draws from it, so the list is
sorted here by a key that reproduces python-chess's order:

- out of check: every piece's moves but the pawns' (the king's too), origin downwards, then destination downwards;
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
_PROMOTIONS = {"": 0, "q": 0, "r": 1, "b": 2, "n": 3}  # python-chess yields Q, R, B, N
_CATEGORY = 16  # a key is category << 16 | (63 - origin) << 9 | (63 - destination) << 2 | promotion
_CASTLING_SQUARE = (1 << 4, 1 << 60)  # e1 and e8: with the king there, e1g1 and e1c1 are castling
_SQUARES = [f"{file}{rank}" for rank in "12345678" for file in "abcdefgh"]  # index = python-chess square

Entry = tuple[int, int, int]  # the move's origin bit, its key if a pawn makes it, its key otherwise


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


def _entries() -> tuple[tuple[dict[bc.Move, Entry], ...], ...]:
    """[colour to move][its king on its castling square][move]: the move's `Entry`, for every move a piece of
    that colour can make from some square (bulletchess rejects moves of no piece's shape)."""
    tables: tuple[tuple[dict[bc.Move, Entry], ...], ...] = (({}, {}), ({}, {}))
    castlings = (("e1g1", "e1c1"), ("e8g8", "e8c8"))
    for origin, origin_name in enumerate(_SQUARES):
        for destination, destination_name in enumerate(_SQUARES):
            uci = origin_name + destination_name
            for colour, castling in enumerate(castlings):
                category = _pawn_category(colour, origin, destination)
                promotes = category is not None and destination // 8 in (0, 7)
                for promotion in ("", "q", "r", "b", "n") if promotes else ("",):
                    try:
                        move = bc.Move.from_uci(uci + promotion)
                    except ValueError:  # no piece moves so
                        continue
                    pawn_move = category is not None and bool(promotion) == promotes
                    pawn_key = _key(category, origin, destination, promotion) if pawn_move else 0
                    piece_key = _key(_PIECE, origin, destination)
                    tables[colour][0][move] = (1 << origin, pawn_key, piece_key)
                    castling_key = _key(_CASTLING, origin, destination) if uci in castling else piece_key
                    tables[colour][1][move] = (1 << origin, pawn_key, castling_key)
    return tables


_ENTRIES = _entries()


def legal_moves(board: bc.Board) -> list[bc.Move]:
    """The legal moves of `board` in python-chess's `generate_legal_moves` order. Drops the board's en passant
    square when no en passant capture is legal (python-chess's position identity; bulletchess keeps it after
    every double push)."""
    moves = board.legal_moves()
    turn = board.turn
    colour = 0 if turn == bc.WHITE else 1
    pawns = int(board[turn, bc.PAWN])
    king = int(board[turn, bc.KING])
    in_check = board in bc.CHECK
    if not pawns and not in_check and not king & _CASTLING_SQUARE[colour]:  # a quarter of random games' plies
        if board.en_passant_square is not None:
            board.en_passant_square = None  # no pawn to take with
        moves.reverse()  # pieces' moves only: origin, then destination downwards
        return moves
    table = _ENTRIES[colour][1 if king & _CASTLING_SQUARE[colour] else 0]

    def key(move: bc.Move) -> int:  # one call per move: measured cheaper than comprehensions over the list
        entry = table[move]
        return entry[1] if entry[0] & pawns else entry[2]

    if in_check or board.en_passant_square is not None:
        special = _special_keys(board, moves, table, pawns, king if in_check else 0)
        if special:
            moves.sort(key=lambda move: special[move] if move in special else key(move))
            return moves
    moves.sort(key=key)
    return moves


def _special_keys(
    board: bc.Board, moves: list[bc.Move], table: dict[bc.Move, Entry], pawns: int, king_in_check: int
) -> dict[bc.Move, int]:
    """The keys of the king's moves out of check (first of all) and of the legal en passant captures (last of
    all). Drops the board's en passant square if no en passant capture is legal."""
    special = {}
    ep_square = board.en_passant_square
    target = -1 if ep_square is None else _key(0, 0, ep_square.index()) & 0xFF  # its destination bits
    for move in moves:
        bit, pawn_key, piece_key = table[move]
        if bit & king_in_check:
            special[move] = piece_key - (_PIECE << _CATEGORY)  # _KING_EVASION
        elif bit & pawns and pawn_key & 0xFF == target:  # only a capture reaches the square behind a pawn
            special[move] = pawn_key + (_EN_PASSANT - _PAWN_CAPTURE << _CATEGORY)
    if ep_square is not None and not any(key >> _CATEGORY == _EN_PASSANT for key in special.values()):
        board.en_passant_square = None
    return special


def identity(fen: str) -> str:
    """A position's identity for repetitions: its FEN without the clocks (placement, turn, castling, en passant
    square only when a capture there is legal, since `legal_moves` dropped it otherwise)."""
    return fen.rsplit(" ", 2)[0]
