"""Standard chess. Actions are UCI strings ("e2e4", "e7e8q"); White is seat 0.

Draws: stalemate, insufficient material, and the claimable draws (fifty-move rule, threefold
repetition) are applied automatically — the game ends in a draw as soon as the side to move
could claim one, as `chess.Board.is_game_over(claim_draw=True)` decides. A `max_plies` cap
(default 500) ends an overlong game as a draw with reason "move cap".

Variant "botzone" (option `draws="botzone"`): Botzone's chess judge, so its game logs replay exactly —
no repetition or insufficient-material draw, no move cap (`max_plies` is refused), and a draw once more than
50 plies have passed without a capture or pawn move (its published logs end on the 51st).

The state and the position worked out for it (board, legal moves, repetition counts, result) live
in `games.chess_game.position`; the legal moves come from bulletchess's C move generator in python-chess's order
(`games.chess_game.moves`). python-chess reads and writes the notation (SAN, FEN), draws the board for people and
models, and drives Stockfish for the bots.
"""

from __future__ import annotations

import re
from typing import Any

import chess

from games.base import Game, IllegalAction, Outcome
from games.chess_game.position import (
    DEFAULT_MAX_PLIES,
    DRAW_RULES,
    ChessState,
    cache_key,
    child_of,
    position_of,
    remember,
    successor,
)

SEATS = ("White", "Black")
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


class Chess(Game[ChessState, str]):
    slug = "chess"
    full_move_numbers = True
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
        if draws == "botzone" and "max_plies" in options:
            raise ValueError("Botzone's chess judge has no move cap: leave max_plies out with draws='botzone'")
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
        node = position_of(state)
        if node.outcome is not None:
            return None
        return 0 if node.white_to_move else 1

    def legal_actions(self, state: ChessState) -> list[str]:
        node = position_of(state)
        return [] if node.outcome is not None else list(node.legal)

    def is_legal(self, state: ChessState, action: str) -> bool:
        node = position_of(state)
        return node.outcome is None and isinstance(action, str) and action in node.legal

    def random_action(self, state: ChessState, rng: Any) -> str:
        node = position_of(state)
        if node.outcome is not None:
            raise IllegalAction("The game is over; no more moves can be made.")
        return node.draw(rng)  # the same choice as rng.choice(legal_actions): the moves in the same order

    def apply(self, state: ChessState, action: str) -> ChessState:
        node = position_of(state)
        move = node.move(action) if isinstance(action, str) and node.outcome is None else None
        if move is None:
            self.require_legal(state, action)  # raises with the reason
        return successor(state, action, child_of(node, move, state.ply + 1 >= state.max_plies, state.draws))

    def outcome(self, state: ChessState) -> Outcome | None:
        return position_of(state).outcome

    def to_json(self, state: ChessState) -> dict[str, Any]:
        node = remember(cache_key(state), position_of(state))  # so the state read back from this JSON finds it
        return {
            "seed": state.seed,
            "ply": state.ply,
            "fen0": state.fen0,
            "max_plies": state.max_plies,
            **({"draws": state.draws} if state.draws != "standard" else {}),
            "moves": list(state.moves),
            "fen": node.fen,  # derived, for readers; from_json ignores it
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
        node = position_of(state)
        board = node.python_board
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
        return uci if uci in position_of(state).legal else None

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
        board = position_of(state).python_board
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
        board = position_of(state).python_board
        cap = "" if state.draws == "botzone" else f" of at most {state.max_plies}"
        lines = [
            f"You play {SEATS[player]}. {SEATS[0 if board.turn == chess.WHITE else 1]} to move"
            f"{' (in check)' if board.is_check() else ''}. Ply {state.ply + 1}{cap}.",
            f"FEN: {board.fen()}",
            self.board_text(state),
            f"Moves so far: {self.move_list_text(state)}",
        ]
        return "\n".join(lines)

    def player_view(self, state: ChessState, player: int | None) -> dict[str, Any]:
        """Adds the 64 squares (in the viewer's orientation, with SVG coordinates), last move and check square."""
        board = position_of(state).python_board
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
