"""Chess positions for `games.chess_game`: the state, and the position worked out for it once.

The state's value is the starting FEN and the move list. Its position (board, legal moves, repetition
counts, result) is attached to the state on first use, so a game played forwards costs one board copy,
one push and one legal-move generation per move. A state read back from JSON finds its position in a
small module-level LRU (filled by `remember`, which `to_json` calls) or replays the moves.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

import chess

from games.base import Outcome

DEFAULT_MAX_PLIES = 500
_CACHE_SIZE = 4096


@dataclass(frozen=True)
class ChessState:
    seed: int
    ply: int  # moves played in this game: len(moves)
    moves: tuple[str, ...]  # UCI, from fen0
    fen0: str = chess.STARTING_FEN
    max_plies: int = DEFAULT_MAX_PLIES
    draws: str = "standard"  # "botzone": Botzone's judge (see games.chess_game's docstring)
    #: The position worked out for this state, attached on first use (`attach`); derived, so not part of its
    #: value and not an argument: `dataclasses.replace` makes a state that works its own out.
    _position: Position | None = field(default=None, init=False, compare=False, repr=False)


#: The draw rules a state may follow.
DRAW_RULES = ("standard", "botzone")


class Position:
    """The position of one state, computed once: board, legal moves, repetition counts, result."""

    __slots__ = ("_legal", "board", "counts", "drawn", "key", "moves", "outcome")

    def __init__(
        self, board: chess.Board, counts: dict[Hashable, int], key: Hashable, max_plies_hit: bool, draws: str
    ) -> None:
        self.board = board
        self.key = key
        self.counts = counts  # transposition key -> occurrences since the last irreversible move
        self.moves = legal_moves(board)
        self._legal: dict[str, chess.Move] | None = None
        self.drawn: tuple[str, chess.Move] | None = None  # the move `random_action` last drew here
        self.outcome = _botzone_result(self, max_plies_hit) if draws == "botzone" else _result(self, max_plies_hit)

    @property
    def legal(self) -> dict[str, chess.Move]:
        """The legal moves by UCI, in generation order; built when first asked (random playouts never ask)."""
        if self._legal is None:
            self._legal = {move.uci(): move for move in self.moves}
        return self._legal

    def draw(self, rng: Any) -> str:
        """A uniformly random legal move's UCI, remembered so that applying it needs no lookup."""
        move = rng.choice(self.moves)
        uci = move.uci()
        self.drawn = (uci, move)
        return uci

    def move(self, uci: str) -> chess.Move | None:
        """The legal move `uci` names, or None."""
        drawn = self.drawn
        if drawn is not None and drawn[0] == uci:
            return drawn[1]
        return self.legal.get(uci)


def legal_moves(board: chess.Board) -> list[chess.Move]:
    """`list(board.generate_legal_moves())`: the same moves in the same order, with python-chess's safety test
    inlined for the usual move (not the king's, not to the en passant square, from a square that shields the
    king from no slider); python-chess 1.11's own `_slider_blockers` and `_is_safe` decide the rest."""
    king_mask = board.kings & board.occupied_co[board.turn]
    if not king_mask or board.is_check():
        return list(board.generate_legal_moves())
    king = chess.msb(king_mask)
    blockers = board._slider_blockers(king)
    free = chess.BB_ALL & ~blockers & ~king_mask
    ep_square = board.ep_square
    is_safe = board._is_safe
    squares = chess.BB_SQUARES
    return [
        move
        for move in board.generate_pseudo_legal_moves()
        if (squares[move.from_square] & free and move.to_square != ep_square) or is_safe(king, blockers, move)
    ]


def _botzone_result(node: Position, max_plies_hit: bool) -> Outcome | None:
    """Botzone's judge: mate, stalemate, and 50 plies without a capture or pawn move; nothing else."""
    board = node.board
    if not node.moves:
        return (
            Outcome.win(1 if board.turn == chess.WHITE else 0, "checkmate")
            if board.is_check()
            else (Outcome.draw("stalemate"))
        )
    if board.halfmove_clock > 50:  # its judge lets the 51st such ply be played, then draws (replayed logs)
        return Outcome.draw("over 50 plies without capture or pawn move (Botzone)")
    return Outcome.draw("move cap") if max_plies_hit else None


def _result(node: Position, max_plies_hit: bool) -> Outcome | None:
    """python-chess's `outcome(claim_draw=True)`, with repetition counts kept incrementally."""
    board = node.board
    if not node.moves and board.is_check():
        return Outcome.win(1 if board.turn == chess.WHITE else 0, "checkmate")
    if board.is_insufficient_material():
        return Outcome.draw("insufficient material")
    if not node.moves:
        return Outcome.draw("stalemate")
    if board.halfmove_clock >= 99 and board.can_claim_fifty_moves():
        return Outcome.draw("fifty-move rule")
    if node.counts[node.key] >= 3:
        return Outcome.draw("threefold repetition")
    if max(node.counts.values()) >= 2:  # a move could bring some position back a third time
        for move in node.moves:
            board.push(move)
            key = board._transposition_key()  # the position identity python-chess itself uses for repetitions
            board.pop()
            if node.counts.get(key, 0) >= 2:
                return Outcome.draw("threefold repetition")
    if max_plies_hit:
        return Outcome.draw("move cap")
    return None


def _root(fen0: str, max_plies_hit: bool, draws: str) -> Position:
    board = chess.Board(fen0)
    key = board._transposition_key()
    return Position(board, {key: 1}, key, max_plies_hit, draws)


def child_of(parent: Position, move: chess.Move, max_plies_hit: bool, draws: str) -> Position:
    board = parent.board.copy(stack=False)  # repetitions are tracked in `counts`, not the move stack
    board.push(move)
    key = board._transposition_key()
    # After a capture, a pawn move or lost castling rights no earlier position can come back, so the counts
    # start afresh (`is_irreversible` would also restart when an en passant right lapses: a cost, not a need).
    irreversible = board.halfmove_clock == 0 or board.castling_rights != parent.board.castling_rights
    counts = {} if irreversible else dict(parent.counts)
    counts[key] = counts.get(key, 0) + 1
    return Position(board, counts, key, max_plies_hit, draws)


_cache: OrderedDict[tuple[str, int, str, tuple[str, ...]], Position] = OrderedDict()
_cache_lock = threading.Lock()


def remember(key: tuple[str, int, str, tuple[str, ...]], node: Position) -> Position:
    with _cache_lock:
        _cache[key] = node
        if len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return node


def cache_key(state: ChessState) -> tuple[str, int, str, tuple[str, ...]]:
    return (state.fen0, state.max_plies, state.draws, state.moves)  # the cap and the draw rules decide the result


def position_of(state: ChessState) -> Position:
    """The position of `state`: attached to it, else from the LRU, else replayed from fen0."""
    node = state._position
    if node is None:
        node = _rebuilt(state)
        attach(state, node)
    return node


def attach(state: ChessState, node: Position) -> ChessState:
    """`state`, with `node` (which must be its own) kept as a cache of derived data, not a change of value."""
    object.__setattr__(state, "_position", node)
    return state


def _rebuilt(state: ChessState) -> Position:
    key = cache_key(state)
    with _cache_lock:
        node = _cache.get(key)
        if node is not None:
            _cache.move_to_end(key)
            return node
    node = _root(state.fen0, state.max_plies <= 0, state.draws)
    for i, uci in enumerate(state.moves):
        move = node.legal.get(uci)
        if move is None:
            raise ValueError(f"stored move {uci!r} at ply {i} is not legal")
        node = child_of(node, move, i + 1 >= state.max_plies, state.draws)
    return remember(key, node)
