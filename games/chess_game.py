"""Standard chess through python-chess. Actions are UCI strings ("e2e4", "e7e8q"); White is seat 0.

Draws: stalemate, insufficient material, and the claimable draws (fifty-move rule, threefold
repetition) are applied automatically — the game ends in a draw as soon as the side to move
could claim one, as `chess.Board.is_game_over(claim_draw=True)` decides. A `max_plies` cap
(default 500) ends an overlong game as a draw with reason "move cap".

Variant "botzone" (option `draws="botzone"`): Botzone's chess judge, so its game logs replay exactly —
no repetition or insufficient-material draw, and a draw once more than 50 plies have passed without a
capture or pawn move (its published logs end on the 51st).

The state's value is the starting FEN and the move list. The position worked out for it (board,
legal moves, repetition counts, result) is attached to the state on first use, so a game played
forwards costs one board copy, one push and one legal-move generation per move. A state read
back from JSON finds its position in a small module-level LRU (filled by `to_json`) or replays
the moves.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

import chess

from games.base import Game, IllegalAction, Outcome

SEATS = ("White", "Black")
DEFAULT_MAX_PLIES = 500
_CACHE_SIZE = 4096
_UCI = re.compile(r"([a-h][1-8])([a-h][1-8])([qrbn])?")
_MOVE_NUMBER = re.compile(r"^\d+\s*\.+\s*")
_ANNOTATION = re.compile(r"(?:[+#!?]|e\.?p\.?)+$")
_CASTLING = {"o-o": "O-O", "0-0": "O-O", "o-o-o": "O-O-O", "0-0-0": "O-O-O"}
_FIGURINES = str.maketrans("♔♕♖♗♘♚♛♜♝♞", "KQRBNKQRBN", "♙♟")
GLYPHS = {
    "K": "♔", "Q": "♕", "R": "♖", "B": "♗", "N": "♘", "P": "♙",
    "k": "♚", "q": "♛", "r": "♜", "b": "♝", "n": "♞", "p": "♟",
}  # fmt: skip
PIECE_NAMES = {"k": "king", "q": "queen", "r": "rook", "b": "bishop", "n": "knight", "p": "pawn"}


@dataclass(frozen=True)
class ChessState:
    seed: int
    ply: int  # moves played in this game: len(moves)
    moves: tuple[str, ...]  # UCI, from fen0
    fen0: str = chess.STARTING_FEN
    max_plies: int = DEFAULT_MAX_PLIES
    draws: str = "standard"  # "botzone": Botzone's judge (see the module docstring)
    #: The position worked out for this state, attached on first use (`_attach`); derived, so not part of its
    #: value and not an argument: `dataclasses.replace` makes a state that works its own out.
    _position: _Node | None = field(default=None, init=False, compare=False, repr=False)


#: The draw rules a state may follow.
DRAW_RULES = ("standard", "botzone")


class _Node:
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


def _botzone_result(node: _Node, max_plies_hit: bool) -> Outcome | None:
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


def _result(node: _Node, max_plies_hit: bool) -> Outcome | None:
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


def _root(fen0: str, max_plies_hit: bool, draws: str) -> _Node:
    board = chess.Board(fen0)
    key = board._transposition_key()
    return _Node(board, {key: 1}, key, max_plies_hit, draws)


def _child(parent: _Node, move: chess.Move, max_plies_hit: bool, draws: str) -> _Node:
    board = parent.board.copy(stack=False)  # repetitions are tracked in `counts`, not the move stack
    board.push(move)
    key = board._transposition_key()
    # After a capture, a pawn move or lost castling rights no earlier position can come back, so the counts
    # start afresh (`is_irreversible` would also restart when an en passant right lapses: a cost, not a need).
    irreversible = board.halfmove_clock == 0 or board.castling_rights != parent.board.castling_rights
    counts = {} if irreversible else dict(parent.counts)
    counts[key] = counts.get(key, 0) + 1
    return _Node(board, counts, key, max_plies_hit, draws)


_cache: OrderedDict[tuple[str, int, str, tuple[str, ...]], _Node] = OrderedDict()
_cache_lock = threading.Lock()


def _remember(key: tuple[str, int, str, tuple[str, ...]], node: _Node) -> _Node:
    with _cache_lock:
        _cache[key] = node
        if len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return node


def _cache_key(state: ChessState) -> tuple[str, int, str, tuple[str, ...]]:
    return (state.fen0, state.max_plies, state.draws, state.moves)  # the cap and the draw rules decide the result


def _node(state: ChessState) -> _Node:
    """The position of `state`: attached to it, else from the LRU, else replayed from fen0."""
    node = state._position
    if node is None:
        node = _rebuilt(state)
        _attach(state, node)
    return node


def _attach(state: ChessState, node: _Node) -> ChessState:
    """`state`, with `node` (which must be its own) kept as a cache of derived data, not a change of value."""
    object.__setattr__(state, "_position", node)
    return state


def _rebuilt(state: ChessState) -> _Node:
    key = _cache_key(state)
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
        node = _child(node, move, i + 1 >= state.max_plies, state.draws)
    return _remember(key, node)


class Chess(Game[ChessState, str]):
    slug = "chess"
    name = "Chess"
    seat_names = SEATS
    variants = {"botzone": {"draws": "botzone"}}

    def initial_state(self, *, seed: int, **options: Any) -> ChessState:
        """Options: `fen` (start, default standard), `max_plies` (draw cap, default 500), `draws` (DRAW_RULES)."""
        unknown = set(options) - {"fen", "max_plies", "draws"}
        if unknown:
            raise ValueError(f"chess takes options fen, max_plies and draws, got {sorted(unknown)}")
        draws = options.get("draws", "standard")
        if draws not in DRAW_RULES:
            raise ValueError(f"draws must be one of {', '.join(DRAW_RULES)}, got {draws!r}")
        fen0 = chess.STARTING_FEN
        if options.get("fen"):
            try:
                board = chess.Board(options["fen"])
            except ValueError as error:
                raise ValueError(f"not a valid FEN: {error}") from None
            if not board.is_valid():
                raise ValueError(f"not a legal chess position: {board.status()!r}")
            fen0 = board.fen()
        max_plies = int(options.get("max_plies", DEFAULT_MAX_PLIES))
        if max_plies < 1:
            raise ValueError("max_plies must be at least 1")
        return ChessState(seed=seed, ply=0, moves=(), fen0=fen0, max_plies=max_plies, draws=draws)

    def board(self, state: ChessState) -> chess.Board:
        """A fresh `chess.Board` for `state`, with the full move stack (callers may mutate it)."""
        board = chess.Board(state.fen0)
        for uci in state.moves:
            board.push(chess.Move.from_uci(uci))
        return board

    def current_player(self, state: ChessState) -> int | None:
        node = _node(state)
        if node.outcome is not None:
            return None
        return 0 if node.board.turn == chess.WHITE else 1

    def legal_actions(self, state: ChessState) -> list[str]:
        node = _node(state)
        return [] if node.outcome is not None else list(node.legal)

    def is_legal(self, state: ChessState, action: str) -> bool:
        node = _node(state)
        return node.outcome is None and isinstance(action, str) and action in node.legal

    def random_action(self, state: ChessState, rng: Any) -> str:
        node = _node(state)
        if node.outcome is not None:
            raise IllegalAction("The game is over; no more moves can be made.")
        return node.draw(rng)  # the same choice as rng.choice(legal_actions): the moves in the same order

    def apply(self, state: ChessState, action: str) -> ChessState:
        node = _node(state)
        move = node.move(action) if isinstance(action, str) and node.outcome is None else None
        if move is None:
            self.require_legal(state, action)  # raises with the reason
        moves = (*state.moves, action)
        child = _child(node, move, len(moves) >= state.max_plies, state.draws)
        after = ChessState(
            seed=state.seed,
            ply=state.ply + 1,
            moves=moves,
            fen0=state.fen0,
            max_plies=state.max_plies,
            draws=state.draws,
        )
        return _attach(after, child)

    def outcome(self, state: ChessState) -> Outcome | None:
        return _node(state).outcome

    def to_json(self, state: ChessState) -> dict[str, Any]:
        node = _remember(_cache_key(state), _node(state))  # so the state read back from this JSON finds it
        return {
            "seed": state.seed,
            "ply": state.ply,
            "fen0": state.fen0,
            "max_plies": state.max_plies,
            **({"draws": state.draws} if state.draws != "standard" else {}),
            "moves": list(state.moves),
            "fen": node.board.fen(),  # derived, for readers; from_json ignores it
        }

    def from_json(self, data: dict[str, Any]) -> ChessState:
        moves = tuple(str(m) for m in data["moves"])
        if int(data["ply"]) != len(moves):
            raise ValueError("ply must equal the number of moves")
        return ChessState(
            seed=int(data["seed"]),
            ply=len(moves),
            moves=moves,
            fen0=str(data.get("fen0", chess.STARTING_FEN)),
            max_plies=int(data.get("max_plies", DEFAULT_MAX_PLIES)),
            draws=str(data.get("draws", "standard")),
        )

    # -- notation ------------------------------------------------------------------------

    def action_to_text(self, state: ChessState, action: str) -> str:
        return action

    def action_label(self, state: ChessState, action: str) -> str:
        """SAN, from the position before the move: `g1f3` → `Nf3`, `e7e8q` → `e8=Q+`."""
        return self.board(state).san(chess.Move.from_uci(action))

    def action_cells(self, state: ChessState, action: str) -> tuple[str, ...]:
        """From and to squares; the four promotions of one pawn move share them (the page asks which piece)."""
        return (action[:2], action[2:4])

    def parse_action(self, state: ChessState, text: str) -> str:
        """UCI ("e2e4", "e7e8q", "e1h1" castling) or SAN ("Nf3", "O-O", "0-0", "exd5", "e8=Q+", "Nbd7!?").

        Syntactically valid UCI is returned even when illegal, so `apply` reports it as illegal;
        SAN is resolved against the position and raises IllegalAction when no legal move matches.
        A UCI pawn move to the last rank without a piece letter promotes to a queen.
        """
        raw = text.strip()
        cleaned = _clean(raw)
        if not cleaned:
            raise IllegalAction("Empty move; write a move in UCI like e2e4 or SAN like Nf3.")
        node = _node(state)
        board = node.board
        match = _UCI.fullmatch(cleaned.lower().replace("-", "").replace("x", ""))
        if match:
            uci = match[0]
            if uci not in node.legal:
                try:  # king-takes-rook castling, or a promotion written without its piece
                    move = board.parse_uci(uci)
                    uci = move.uci()
                except ValueError:
                    if (uci + "q") in node.legal:
                        uci += "q"
            if uci not in node.legal and (first := self._first_word(state, raw)):
                return first  # "1. d4 d5" means d4, not a move from d4 to d5
            return uci
        for candidate in _san_candidates(cleaned):
            try:
                move = board.parse_san(candidate)
            except chess.AmbiguousMoveError:
                raise IllegalAction(
                    f"{raw!r} is ambiguous here; name the piece's file or rank (e.g. Nbd2) or use UCI."
                ) from None
            except ValueError:
                continue
            if move and move.uci() in node.legal:
                return move.uci()
        first = self._first_word(state, raw)
        if first:
            return first
        raise IllegalAction(
            f"Could not read {raw!r} as a legal move here; write UCI like e2e4 (e7e8q to promote) "
            f"or SAN like Nf3 or O-O. {self.legal_summary(state)}"
        )

    def _first_word(self, state: ChessState, raw: str) -> str | None:
        """The legal move written as the first of several words ("Nf3, developing", "e4 is best"), if any."""
        words = _MOVE_NUMBER.sub("", raw.strip()).split()
        if len(words) < 2:
            return None
        try:
            uci = self.parse_action(state, words[0])
        except IllegalAction:
            return None
        return uci if uci in _node(state).legal else None

    # -- text for people and models ------------------------------------------------------

    def rules_text(self) -> str:
        return (
            "Chess, standard FIDE rules. White (moves first) and Black alternate moves; checkmate wins. "
            "Castling, en passant and promotion are allowed. The game is drawn by stalemate, by insufficient "
            "mating material, and as soon as the side to move could claim a draw under the fifty-move rule "
            "or by threefold repetition (those draws are applied automatically). A game that reaches the "
            "move cap (500 plies unless configured otherwise) is drawn.\n"
            "Board encoding: the position is given as a FEN string and as an ASCII board printed from rank 8 "
            "(top) to rank 1, files a–h left to right; uppercase letters are White pieces (K king, Q queen, "
            "R rook, B bishop, N knight, P pawn), lowercase are Black pieces, '.' is an empty square. The "
            "moves so far are listed in SAN.\n"
            "Answer with one move in UCI notation: from-square then to-square, plus the promotion piece if "
            "any, e.g. e2e4, g1f3, e1g1 (castling), e7e8q. SAN such as Nf3, O-O or exd5 is also accepted."
        )

    def board_text(self, state: ChessState) -> str:
        board = _node(state).board
        rows = []
        for rank in range(7, -1, -1):
            pieces = [board.piece_at(chess.square(file, rank)) for file in range(8)]
            rows.append(f"{rank + 1} {' '.join(p.symbol() if p else '.' for p in pieces)}")
        return "\n".join([*rows, "  a b c d e f g h"])

    def san_moves(self, state: ChessState) -> list[str]:
        """The game's moves in SAN, from fen0."""
        board = chess.Board(state.fen0)
        sans = []
        for uci in state.moves:
            move = chess.Move.from_uci(uci)
            sans.append(board.san(move))
            board.push(move)
        return sans

    def move_list_text(self, state: ChessState) -> str:
        """Numbered SAN, e.g. '1. e4 e5 2. Nf3'."""
        board = chess.Board(state.fen0)
        return board.variation_san([chess.Move.from_uci(u) for u in state.moves]) if state.moves else "(none)"

    def observation_text(self, state: ChessState, player: int) -> str:
        board = _node(state).board
        lines = [
            f"You play {SEATS[player]}. {SEATS[0 if board.turn == chess.WHITE else 1]} to move"
            f"{' (in check)' if board.is_check() else ''}. Ply {state.ply + 1} of at most {state.max_plies}.",
            f"FEN: {board.fen()}",
            self.board_text(state),
            f"Moves so far: {self.move_list_text(state)}",
        ]
        return "\n".join(lines)

    def player_view(self, state: ChessState, player: int | None) -> dict[str, Any]:
        """Adds the 64 squares (in the viewer's orientation, with SVG coordinates), last move and check square."""
        board = _node(state).board
        flipped = player == 1
        last = state.moves[-1] if state.moves else ""
        last_squares = {last[:2], last[2:4]} if last else set()
        check = board.king(board.turn) if board.is_check() else None
        squares = []
        for rank in range(7, -1, -1):
            for file in range(8):
                square = chess.square(file, rank)
                piece = board.piece_at(square)
                col, row = (7 - file, rank) if flipped else (file, 7 - rank)
                name = chess.square_name(square)
                symbol = piece.symbol() if piece else ""
                colour = "" if not piece else ("white" if piece.color == chess.WHITE else "black")
                label = f"{name}, {colour} {PIECE_NAMES[symbol.lower()]}" if piece else f"{name}, empty"
                squares.append(
                    {
                        "name": name,
                        "x": col * 10,
                        "y": row * 10,
                        "light": (file + rank) % 2 == 1,
                        "piece": symbol,
                        "glyph": GLYPHS.get(symbol, ""),
                        "fill_glyph": GLYPHS.get(symbol.lower(), ""),  # solid silhouette under a white outline
                        "colour": colour,
                        "label": label,
                        "last": name in last_squares,
                        "check": square == check,
                    }
                )
        files = "hgfedcba" if flipped else "abcdefgh"
        ranks = "12345678" if flipped else "87654321"
        return {
            **self.to_json(state),
            "squares": squares,
            "file_labels": [{"text": f, "x": i * 10 + 5} for i, f in enumerate(files)],
            "rank_labels": [{"text": r, "y": i * 10 + 5} for i, r in enumerate(ranks)],
            "turn": SEATS[0 if board.turn == chess.WHITE else 1],
            "last_move": last,
            "check_square": chess.square_name(check) if check is not None else "",
            "san_moves": self.san_moves(state),
            "flipped": flipped,
        }


def _clean(text: str) -> str:
    """Strip quotes, a leading move number, spaces and trailing annotations (+, #, !?, e.p.)."""
    text = text.strip().strip("`'\"*[]().,;:").strip()
    text = _MOVE_NUMBER.sub("", text).translate(_FIGURINES)
    text = re.sub(r"\s+", "", text)
    text = _ANNOTATION.sub("", text)
    return text.rstrip(".")


def _san_candidates(text: str) -> list[str]:
    """SAN as written first, then case-normalised readings (a leading 'b' may be a pawn or a bishop)."""
    castle = _CASTLING.get(text.lower())
    if castle:
        return [castle]
    lower = text.lower()
    candidates = [text]
    if lower[0] in "nbrqk" and len(lower) > 2:
        candidates.append(lower[0].upper() + lower[1:])  # piece move written in any case
    if text[0] not in "NBRQK" or len(text) == 2:
        candidates.append(lower)  # pawn move written in capitals, e.g. "E4"; never reread "Bxc3" as a pawn
    if lower[:1] in "abcdefgh" and re.fullmatch(r"[a-h]x?[a-h]?[18]", lower):
        candidates.append(lower + "=Q")  # promotion without the piece
    return list(dict.fromkeys(candidates))
