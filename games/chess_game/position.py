"""Chess positions for `games.chess_game`: the state, and the position worked out for it once.

The state's value is the starting FEN and the move list. Its position (board, legal moves, repetition
counts, result) is attached to the state on first use, so a game played forwards costs one board set up
from a FEN, one move applied and one legal-move generation per move (bulletchess, `games.chess_game.moves`). A state
read back from JSON finds its position in a small module-level LRU (filled by `remember`, which `to_json` calls)
or replays the moves.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import bulletchess as bc
import chess

from games.base import Outcome
from games.chess_game.moves import identity, legal_moves

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

    def __getstate__(self) -> dict[str, Any]:
        """Pickled and copied without its position (bulletchess boards do not pickle); worked out again on use."""
        return {**self.__dict__, "_position": None}


#: The draw rules a state may follow.
DRAW_RULES = ("standard", "botzone")


class Position:
    """The position of one state, computed once: board, legal moves, repetition counts, result.

    The board is bulletchess's (`games.chess_game.moves`), without history: each position's board is set up from
    its parent's FEN, so a kept state holds one board, not every earlier move. `python_board` is the same
    position for python-chess (notation, views), made when first asked."""

    __slots__ = (
        "_legal",
        "_python_board",
        "board",
        "counts",
        "drawn",
        "fen",
        "key",
        "moves",
        "outcome",
        "repeats",
        "white_to_move",
    )

    def __init__(self, board: bc.Board, counts: dict[str, int], repeats: int, max_plies_hit: bool, draws: str) -> None:
        self.board = board
        self.white_to_move = board.turn == bc.WHITE
        self.moves = legal_moves(board)  # drops an en passant square no capture can use, before the FEN is read
        self.fen = board.fen()
        self.key = identity(self.fen)
        count = counts[self.key] = counts.get(self.key, 0) + 1
        self.counts = counts  # position identity -> occurrences since the last irreversible move
        self.repeats = max(repeats, count)  # the highest of the counts
        self._legal: dict[str, bc.Move] | None = None
        self._python_board: chess.Board | None = None
        self.drawn: tuple[str, bc.Move] | None = None  # the move `random_action` last drew here
        self.outcome = _botzone_result(self) if draws == "botzone" else _result(self, max_plies_hit)

    @property
    def legal(self) -> dict[str, bc.Move]:
        """The legal moves by UCI, in generation order; built when first asked (random playouts never ask)."""
        if self._legal is None:
            self._legal = {move.uci(): move for move in self.moves}
        return self._legal

    @property
    def python_board(self) -> chess.Board:
        """This position as a python-chess board, without move stack (for notation and views)."""
        if self._python_board is None:
            self._python_board = chess.Board(self.fen)
        return self._python_board

    def draw(self, rng: Any) -> str:
        """A uniformly random legal move's UCI, remembered so that applying it needs no lookup."""
        move = rng.choice(self.moves)
        uci = move.uci()
        self.drawn = (uci, move)
        return uci

    def move(self, uci: str) -> bc.Move | None:
        """The legal move `uci` names, or None."""
        drawn = self.drawn
        if drawn is not None and drawn[0] == uci:
            return drawn[1]
        return self.legal.get(uci)


def _botzone_result(node: Position) -> Outcome | None:
    """Botzone's judge: mate, stalemate, and 50 plies without a capture or pawn move; nothing else (no move cap)."""
    board = node.board
    if not node.moves:
        return (
            Outcome.win(1 if node.white_to_move else 0, "checkmate") if board in bc.CHECK else Outcome.draw("stalemate")
        )
    if board.halfmove_clock > 50:  # its judge lets the 51st such ply be played, then draws (replayed logs)
        return Outcome.draw("over 50 plies without capture or pawn move (Botzone)")
    return None


def _result(node: Position, max_plies_hit: bool) -> Outcome | None:
    """python-chess's `outcome(claim_draw=True)`, with repetition counts kept incrementally."""
    board = node.board
    if not node.moves and board in bc.CHECK:
        return Outcome.win(1 if node.white_to_move else 0, "checkmate")
    if board in bc.INSUFFICIENT_MATERIAL:
        return Outcome.draw("insufficient material")
    if not node.moves:
        return Outcome.draw("stalemate")
    if board.halfmove_clock >= 99 and node.python_board.can_claim_fifty_moves():  # rare: python-chess decides
        return Outcome.draw("fifty-move rule")
    if node.counts[node.key] >= 3:
        return Outcome.draw("threefold repetition")
    if node.repeats >= 2 and _repeats_a_third_time(node):
        return Outcome.draw("threefold repetition")
    if max_plies_hit:
        return Outcome.draw("move cap")
    return None


def _repeats_a_third_time(node: Position) -> bool:
    """Whether a legal move brings back a position that has occurred twice. A move that leaves an en passant
    square cannot: it is a pawn's, and no counted position has the pawns it leaves."""
    board, counts = node.board, node.counts
    for move in node.moves:
        board.apply(move)
        key = identity(board.fen())
        board.undo()
        if counts.get(key, 0) >= 2:
            return True
    return False


def _may_castle(key: str) -> bool:
    """Whether a position identity (placement, turn, castling, en passant) has any castling right."""
    return key[key.index(" ") + 3] != "-"


def _root(fen0: str, max_plies_hit: bool, draws: str) -> Position:
    return Position(bc.Board.from_fen(fen0), {}, 0, max_plies_hit, draws)


def child_of(parent: Position, move: bc.Move, max_plies_hit: bool, draws: str) -> Position:
    board = bc.Board.from_fen(parent.fen)  # not a copy: a copy would carry the whole move history along
    board.apply(move)
    # After a capture, a pawn move or lost castling rights no earlier position can come back, so the counts
    # start afresh (`is_irreversible` would also restart when an en passant right lapses: a cost, not a need).
    if board.halfmove_clock == 0 or (_may_castle(parent.key) and board.castling_rights != parent.board.castling_rights):
        return Position(board, {}, 0, max_plies_hit, draws)
    return Position(board, dict(parent.counts), parent.repeats, max_plies_hit, draws)


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


def successor(state: ChessState, action: str, node: Position) -> ChessState:
    """The state after `action`, with its position `node` attached. Its fields are written in one go: the frozen
    dataclass's `__init__` sets them one at a time, at about twice the cost (callgrind: 15k → 7k instructions)."""
    after = object.__new__(ChessState)
    after.__dict__.update(state.__dict__, ply=state.ply + 1, moves=(*state.moves, action), _position=node)
    return after


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
