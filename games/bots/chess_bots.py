"""Chess ladder: random, two pure-Python searches, then Stockfish, each level making fewer random moves.

Chess spans a huge range of strength, so each level mixes its search with uniformly random moves
at a calibrated rate: that keeps every level winning 70–90% of decisive games against the one below.
Stockfish (Debian's /usr/games/stockfish, or any `stockfish` on PATH) runs as a subprocess: the one
sanctioned I/O in games/, started lazily and kept per process. Its own weakening ("Skill Level",
"UCI_LimitStrength") draws from a time-seeded random generator, so it is not used: each search is
node-limited on one thread after `ucinewgame`, which makes it reproducible, and all randomness
comes from the bot's rng. Without Stockfish the engine levels fall back to the pure-Python
alpha-beta (depth 2, the top level 3) with the same random-move rates; `chess_engine_in_use()` says which.
"""

from __future__ import annotations

import atexit
import os
import random
import shutil
import threading
from collections.abc import Callable

import chess
import chess.engine

from games.bots.base import Bot, random_chooser
from games.chess_game import Chess, ChessState

# -- pure-Python search ------------------------------------------------------------------

VALUES = {chess.PAWN: 100, chess.KNIGHT: 320, chess.BISHOP: 330, chess.ROOK: 500, chess.QUEEN: 900, chess.KING: 0}
MATE = 100_000
# Piece-square tables (Tomasz Michniewski's "simplified evaluation function"), from White's side,
# index 0 = a8 … 63 = h1 as printed; `_PST[piece][square]` below re-indexes them by python-chess square.
_RAW_PST = {
    chess.PAWN: (
        0, 0, 0, 0, 0, 0, 0, 0, 50, 50, 50, 50, 50, 50, 50, 50, 10, 10, 20, 30, 30, 20, 10, 10,
        5, 5, 10, 25, 25, 10, 5, 5, 0, 0, 0, 20, 20, 0, 0, 0, 5, -5, -10, 0, 0, -10, -5, 5,
        5, 10, 10, -20, -20, 10, 10, 5, 0, 0, 0, 0, 0, 0, 0, 0,
    ),
    chess.KNIGHT: (
        -50, -40, -30, -30, -30, -30, -40, -50, -40, -20, 0, 0, 0, 0, -20, -40, -30, 0, 10, 15, 15, 10, 0, -30,
        -30, 5, 15, 20, 20, 15, 5, -30, -30, 0, 15, 20, 20, 15, 0, -30, -30, 5, 10, 15, 15, 10, 5, -30,
        -40, -20, 0, 5, 5, 0, -20, -40, -50, -40, -30, -30, -30, -30, -40, -50,
    ),
    chess.BISHOP: (
        -20, -10, -10, -10, -10, -10, -10, -20, -10, 0, 0, 0, 0, 0, 0, -10, -10, 0, 5, 10, 10, 5, 0, -10,
        -10, 5, 5, 10, 10, 5, 5, -10, -10, 0, 10, 10, 10, 10, 0, -10, -10, 10, 10, 10, 10, 10, 10, -10,
        -10, 5, 0, 0, 0, 0, 5, -10, -20, -10, -10, -10, -10, -10, -10, -20,
    ),
    chess.ROOK: (
        0, 0, 0, 0, 0, 0, 0, 0, 5, 10, 10, 10, 10, 10, 10, 5, -5, 0, 0, 0, 0, 0, 0, -5,
        -5, 0, 0, 0, 0, 0, 0, -5, -5, 0, 0, 0, 0, 0, 0, -5, -5, 0, 0, 0, 0, 0, 0, -5,
        -5, 0, 0, 0, 0, 0, 0, -5, 0, 0, 0, 5, 5, 0, 0, 0,
    ),
    chess.QUEEN: (
        -20, -10, -10, -5, -5, -10, -10, -20, -10, 0, 0, 0, 0, 0, 0, -10, -10, 0, 5, 5, 5, 5, 0, -10,
        -5, 0, 5, 5, 5, 5, 0, -5, 0, 0, 5, 5, 5, 5, 0, -5, -10, 5, 5, 5, 5, 5, 0, -10,
        -10, 0, 5, 0, 0, 0, 0, -10, -20, -10, -10, -5, -5, -10, -10, -20,
    ),
    chess.KING: (
        -30, -40, -40, -50, -50, -40, -40, -30, -30, -40, -40, -50, -50, -40, -40, -30,
        -30, -40, -40, -50, -50, -40, -40, -30, -30, -40, -40, -50, -50, -40, -40, -30,
        -20, -30, -30, -40, -40, -30, -30, -20, -10, -20, -20, -20, -20, -20, -20, -10,
        20, 20, 0, 0, 0, 0, 20, 20, 20, 30, 10, 0, 0, 10, 30, 20,
    ),
}  # fmt: skip
# _PST[colour][piece_type][square] = piece value + positional bonus, seen from that colour's side.
_PST = {
    chess.WHITE: {p: tuple(VALUES[p] + t[(7 - sq // 8) * 8 + sq % 8] for sq in range(64)) for p, t in _RAW_PST.items()},
    chess.BLACK: {p: tuple(VALUES[p] + t[(sq // 8) * 8 + sq % 8] for sq in range(64)) for p, t in _RAW_PST.items()},
}


def material(board: chess.Board) -> int:
    """Material balance in centipawns from the side to move's view."""
    score = 0
    for piece_type, value in VALUES.items():
        if value:
            bb = board.pieces_mask(piece_type, chess.WHITE), board.pieces_mask(piece_type, chess.BLACK)
            score += value * (bb[0].bit_count() - bb[1].bit_count())
    return score if board.turn == chess.WHITE else -score


def positional(board: chess.Board) -> int:
    """Material plus piece-square bonuses, from the side to move's view."""
    score = 0
    for colour, sign in ((chess.WHITE, 1), (chess.BLACK, -1)):
        for piece_type, table in _PST[colour].items():
            for square in chess.scan_forward(board.pieces_mask(piece_type, colour)):
                score += sign * table[square]
    return score if board.turn == chess.WHITE else -score


def _order(board: chess.Board, moves: list[chess.Move]) -> list[chess.Move]:
    """Captures first, most valuable victim / least valuable attacker, then promotions; stable otherwise."""

    def key(move: chess.Move) -> int:
        victim = board.piece_type_at(move.to_square)
        if victim is None and board.is_en_passant(move):
            victim = chess.PAWN
        score = 0
        if victim:
            score = 10 * VALUES[victim] - VALUES[board.piece_type_at(move.from_square) or chess.PAWN] + 10_000
        if move.promotion:
            score += VALUES[move.promotion]
        return -score

    return sorted(moves, key=key)


def _negamax(board: chess.Board, depth: int, alpha: int, beta: int, evaluate: Callable[[chess.Board], int]) -> int:
    moves = list(board.generate_legal_moves())
    if not moves:
        return -MATE - depth if board.is_check() else 0  # prefer quicker mates
    if board.is_insufficient_material() or board.halfmove_clock >= 100:
        return 0
    if depth <= 0:
        return evaluate(board)
    best = -MATE * 2
    for move in _order(board, moves):
        board.push(move)
        value = -_negamax(board, depth - 1, -beta, -alpha, evaluate)
        board.pop()
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best


def search_move(board: chess.Board, depth: int, evaluate: Callable[[chess.Board], int], rng: random.Random) -> str:
    """Alpha-beta to `depth` plies; a uniformly random choice among the moves with the best exact value."""
    moves = list(board.generate_legal_moves())
    rng.shuffle(moves)
    best, best_moves = -MATE * 3, []
    for move in _order(board, moves):
        board.push(move)
        # Window (best - 1, +inf) keeps ties with the best exact, so they can be drawn at random.
        value = -_negamax(board, depth - 1, -MATE * 3, -(best - 1), evaluate)
        board.pop()
        if value > best:
            best, best_moves = value, [move]
        elif value == best:
            best_moves.append(move)
    return rng.choice(best_moves).uci()


def _searcher(depth: int, evaluate: Callable[[chess.Board], int], noise: float = 0.0):
    """A pure-Python level: `search_move` at `depth`, except a uniformly random move with probability `noise`."""

    def choose(game: Chess, state: ChessState, rng: random.Random) -> str:
        if noise and rng.random() < noise:
            return game.random_action(state, rng)
        return search_move(game.board(state), depth, evaluate, rng)

    return choose


# -- Stockfish -----------------------------------------------------------------------------

STOCKFISH_PATHS = ("/usr/games/stockfish", "/usr/bin/stockfish")
_engine: chess.engine.SimpleEngine | None = None
_engine_pid = 0
_engine_name = ""
_engine_lock = threading.Lock()
_engine_failed = False


def stockfish_path() -> str | None:
    """The Stockfish binary: `stockfish` on PATH, else Debian's location; None when not installed."""
    found = shutil.which("stockfish")
    if found:
        return found
    return next((p for p in STOCKFISH_PATHS if os.access(p, os.X_OK)), None)


def _get_engine() -> chess.engine.SimpleEngine | None:
    """The process's Stockfish, started on first use (again after a fork); None when unavailable."""
    global _engine, _engine_pid, _engine_name, _engine_failed
    if _engine is not None and _engine_pid == os.getpid():
        return _engine
    if _engine_failed:
        return None
    path = stockfish_path()
    if path is None:
        _engine_failed = True
        return None
    try:
        engine = chess.engine.SimpleEngine.popen_uci(path)
        engine.configure({"Threads": 1, "Hash": 16})  # one thread: a node-limited search is then reproducible
    except (OSError, chess.engine.EngineError):
        _engine_failed = True
        return None
    _engine, _engine_pid = engine, os.getpid()
    _engine_name = engine.id.get("name", "stockfish").lower()
    # SimpleEngine's I/O thread is not a daemon, and the interpreter joins such threads before running
    # atexit hooks: quit the engine from threading's own pre-join hook (as concurrent.futures does).
    register = getattr(threading, "_register_atexit", atexit.register)
    register(_quit_engine, engine)
    return engine


def _quit_engine(engine: chess.engine.SimpleEngine) -> None:
    try:
        engine.quit()
    except Exception:  # already gone; nothing left to release
        engine.close()


def chess_engine_in_use() -> str:
    """'stockfish 15.1' (as the engine names itself) or 'pure-python fallback'."""
    with _engine_lock:
        return _engine_name if _get_engine() is not None else "pure-python fallback"


def _engine_lines(board: chess.Board, nodes: int, lines: int) -> list[tuple[int, str]] | None:
    """(centipawns for the mover, uci) of Stockfish's top `lines` moves, or None without an engine."""
    global _engine
    with _engine_lock:
        engine = _get_engine()
        if engine is None:
            return None
        try:
            # A new `game` object makes python-chess send ucinewgame, clearing the hash: same input, same search.
            infos = engine.analyse(board, chess.engine.Limit(nodes=nodes), multipv=lines, game=object())
        except chess.engine.EngineTerminatedError:
            _engine = None  # restart on the next call
            return None
    return [
        (info["score"].pov(board.turn).score(mate_score=MATE), info["pv"][0].uci()) for info in infos if info.get("pv")
    ]


def _stockfish(nodes: int, noise: float = 0.0, fallback_depth: int = 2):
    """Stockfish's best move at `nodes` nodes, except a uniformly random move with probability `noise`.

    Ties among its three best lines are broken by the bot's rng. Without Stockfish, the same noise
    over the pure-Python alpha-beta at `fallback_depth`.
    """

    def choose(game: Chess, state: ChessState, rng: random.Random) -> str:
        if noise and rng.random() < noise:
            return game.random_action(state, rng)
        board = game.board(state)  # with the move stack, so the engine sees repetitions
        scored = _engine_lines(board, nodes, 3)
        if not scored:
            return search_move(board.copy(stack=False), fallback_depth, positional, rng)
        best = max(score for score, _ in scored)
        return rng.choice(sorted(uci for score, uci in scored if score == best))

    return choose


LADDER = [
    Bot("chess", 0, "uniform random legal move", random_chooser),
    Bot(
        "chess",
        1,
        "1-ply material search (captures first, takes mate in one); 95% of its moves are random",
        _searcher(1, material, 0.95),
    ),
    Bot(
        "chess",
        2,
        "2-ply alpha-beta on material and piece-square tables; 87% of its moves are random",
        _searcher(2, positional, 0.87),
    ),
    Bot("chess", 3, "Stockfish at 1,000 nodes; 75% of its moves are random", _stockfish(1000, 0.75)),
    Bot("chess", 4, "Stockfish at 1,000 nodes; 65% of its moves are random", _stockfish(1000, 0.65)),
    Bot("chess", 5, "Stockfish at 1,000 nodes; 53% of its moves are random", _stockfish(1000, 0.53)),
    Bot("chess", 6, "Stockfish at 1,000 nodes; 41% of its moves are random", _stockfish(1000, 0.41)),
    Bot("chess", 7, "Stockfish at 1,000 nodes; 29% of its moves are random", _stockfish(1000, 0.29, 3)),
]

__all__ = ["LADDER", "chess_engine_in_use", "material", "positional", "search_move", "stockfish_path"]
