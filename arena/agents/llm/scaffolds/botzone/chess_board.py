"""BotzoneBench's chess user prompt ([Type][Color][2Step][Moved] per square) and its answers."""

from __future__ import annotations

import re
from typing import Any

import chess

from arena.agents import botzone
from arena.agents.llm.scaffolds.botzone.boards import grid
from games import Game

# --- Chess ----------------------------------------------------------------------------------------------


def _chess_flags(game: Game, state: Any) -> tuple[chess.Board, set[int], int | None]:
    """The position, the squares of pieces that have moved, and the square of a pawn that just moved two."""
    board = chess.Board(state.fen0)
    moved: set[int] = set()
    double = None
    for uci in state.moves:
        move = chess.Move.from_uci(uci)
        piece = board.piece_at(move.from_square)
        double = None
        if piece is not None and piece.piece_type == chess.PAWN and abs(move.to_square - move.from_square) == 16:
            double = move.to_square
        if board.is_castling(move):
            rank = chess.square_rank(move.from_square)
            kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
            rook_from, rook_to = (7, 5) if kingside else (0, 3)
            moved.discard(chess.square(rook_from, rank))
            moved.add(chess.square(rook_to, rank))
        moved.discard(move.from_square)
        moved.add(move.to_square)
        board.push(move)
    return board, moved, double


def chess_user(game: Game, state: Any, seat: int) -> str:
    board, moved, double = _chess_flags(game, state)
    rows = []
    for rank in range(7, -1, -1):
        cells = []
        for file in range(8):
            square = chess.square(file, rank)
            piece = board.piece_at(square)
            if piece is None:
                cells.append("....")
                continue
            cells.append(
                piece.symbol().upper()
                + ("W" if piece.color == chess.WHITE else "B")
                + ("T" if square == double else "F")
                + ("1" if square in moved else "0")
            )
        rows.append((str(rank + 1), cells))
    valid = []

    def file_first(uci: str) -> tuple:  # a1, a2, … h8 by source, then target, as the paper's list begins
        return (uci[0], uci[1], uci[2], uci[3], uci[4:])

    for uci in sorted(game.legal_actions(state), key=file_first):
        move = chess.Move.from_uci(uci)
        letter = board.piece_at(move.from_square).symbol().upper()
        text = f"{uci[:2]}-{uci[2:4]}" + (f"-{uci[4:]}" if len(uci) > 4 else "")
        valid.append(f"{letter}: {text}")
    return (
        f"You are playing as {('White', 'Black')[seat]}.\nCurrent state representation is as follows:\n"
        f"{grid(rows, '    '.join('abcdefgh'))}\n"
        f"Your valid moves are (src-dst-promotion, or src-dst):\n[{', '.join(valid)}]\n"
        "Your answer format should be: Answer: piece-name: move.\n"
        "Piece-name and move (src-dst-promotion or src-dst) should be directly copied EXACTLY from valid move list.\n"
        "Example of valid output format: N: a1-b3; P: e7-e8-q; Piece B: g5-f4.\n"
        "Please select a move from your valid moves that maximize your probability of winning."
    )


def read_chess(game: Game, state: Any, answer: str) -> Any:
    match = re.search(r"([a-h][1-8])\s*-\s*([a-h][1-8])(?:\s*-\s*([qrbnQRBN]))?", answer)
    if match is None:
        return None
    source, target, promotion = match.groups()
    return botzone.decode(game, state, {"source": source, "target": target, "promotion": (promotion or "*").lower()})
