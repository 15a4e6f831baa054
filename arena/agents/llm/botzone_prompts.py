"""BotzoneBench's prompts (Appendix C), per game: the system prompt word for word, the user prompt with the
paper's state encoding and valid-move notation, the answer read in that notation, and the retry line.

The system prompts are Appendix C's text, quotes made ASCII. Where the paper abbreviates (hold'em's list of hand
rankings) the missing entries are ours, marked below; Reversi's second rule, cut off in the paper, ends as the
rule does. The encodings are Botzone's, drawn in the orientation of the authors' bots (Reversi's lines are
columns A–H, Ataxx's letters are Botzone's y), so a move reads as the paper's bots read it. docs/llm.md lists
the choices made where the paper shows nothing (chess's empty squares, hold'em's history lines, the landlord's
role paragraph, some retry lines).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import chess

from arena.agents import botzone
from arena.agents.llm.parsing import Parsed
from games import Game, IllegalAction

RESPONSE_FORMAT = "Your response format should be:\nEvaluation: [Your Evaluation]\nReason: [Your Reason]\n"

ATAXX_SYSTEM = (
    "You are an Ataxx game player.\n"
    "Ataxx is a two-player board game played on a 7x7 grid, where players take turns moving pieces.\n"
    "Each turn, a piece can either clone to an adjacent square or jump to a square two spaces away.\n"
    "After placing a piece, all adjacent opponent pieces are flipped.\n"
    "If there are no legal moves, the turn is skipped.\n"
    "Please check the current board state and provide your move legally. Unless there is truly no legal move, "
    "always choose a move.\n"
    "The board uses A-G / 1-7 coordinates (Pay attention to the Range!).\n"
    "Important instructions: Please output your answer directly in your reply without calling any tool functions.\n"
    "Provide your analysis and suggested move in plain text.\n"
    "Now is your turn, to your best ability, please briefly evaluate a few promising moves, provide reason for your "
    "final choice, and output the action with specified format.\n"
    f"{RESPONSE_FORMAT}Answer: [Your Answer]\n"
    "Output valid action if possible, the coordinate should be in the form of (A,1) -> (B,2).\n"
    "If there is no valid action, output 'None'."
)

CHESS_SYSTEM = (
    """You are a Chess player. Chess is a 2-player game playing on an 8x8 board, and the goal is to \
checkmate your opponent's king. Pieces & Movement:
* King (K): Moves one square in any direction.
* Queen (Q): Moves any distance in any straight or diagonal line.
* Rook (R): Moves any distance horizontally or vertically.
* Bishop (B): Moves any distance diagonally.
* Knight (N): Moves in "L" shape: 2 squares one way + 1 square perpendicular.
* Pawn (P):
- Forward 1 square (never backward)
- First move: optionally 2 squares forward
- Captures diagonally forward
- Promotion: Reaches last rank → any piece (except king)
Special rules:
* Castling: King moves 2 squares toward rook, rook jumps over. Conditions:
- Neither piece has moved
- No pieces between
- King not in check
- King doesn't pass through attacked squares
* En Passant: Pawn that moved 2 squares can be captured by adjacent enemy pawn as if it moved 1 square.
* Check: King under attack must escape immediately.
* Checkmate: King in check with no legal moves → game ends.
* Stalemate: King not in check but has no legal moves → draw.
Board and Chess piece Representation:
* Board is represented as [a-h][1-8]
* Origin: bottom-left corner (a1)
* White side: Bottom (ranks 1-2)
* Black side: Top (ranks 7-8)
* X-axis: Files a to h (left to right)
* Y-axis: Ranks 1 to 8 (bottom to top)
Piece encoding format: [Type][Color][2Step][Moved]
* Type (Piece Type):
- K - King
- Q - Queen
- R - Rook
- B - Bishop
- N - Knight
- P - Pawn
* Color (Player):
- W - White (moves first)
- B - Black
* 2Step (En Passant flag):
- F - Did NOT move 2 squares last turn
- T - Moved 2 squares last turn (en passant eligible)
* Moved (Movement flag):
- 1 - Has moved before
- 0 - Has NOT moved yet
Examples:
* PWF1: White Pawn, not available for en passant, already moved
* RBF0: Black Rook, never moved (castling eligible)
* KWT1: White King, irrelevant 2-step flag, has moved
* QWF0: White Queen, irrelevant 2-step flag, never moved
Now it is your turn. Choose your move to maximize your chances of winning.
Please briefly evaluate a few promising moves, provide the reason for your final choice, and output one of the \
valid actions with specified format.
"""
    + f"{RESPONSE_FORMAT}Answer: [Your Answer]"
)

GOMOKU_SYSTEM = (
    "You are a Gomoku (Five-in-a-Row) game player.\n"
    "Gomoku is a 15x15 board game. Columns are labeled A-O. Rows are labeled 1-15.\n"
    "The goal of Gomoku is to connect 5 stones in any row, column, or diagonal lines to win.\n"
    "Opponents may block your attempts by intercepting your lines.\n"
    "General Strategies:\n"
    "1. Board Survey: Identify 'Hot Zones' where stones are clustered. Where is the momentum?\n"
    "2. Threat Assessment: Does the opponent have any immediate lethal threats (4-in-a-row or open-3) in any rows, "
    "columns, or diagonal lines?\n"
    "3. Winning Moves: Can you create a 4-in-a-row or open-3 in any row/col/diag?\n"
    "4. Winning: If you have any locations to immediately form a 5-in-a-row, you should play that position to win.\n"
    'Prepare a valid JSON object like {"col": "H", "row": 8} for your answer, along with your explanation and '
    "reason.\n"
    "Now it is your turn. Choose your move to maximize your chances of winning. Briefly evaluate a few promising "
    "moves, provide the reason for your final choice, and output the action with specified format.\n"
    f"{RESPONSE_FORMAT}Answer: [Your Answer in JSON]"
)

REVERSI_SYSTEM = (
    "Reversi (also known as Othello) is a two-player board game where players take turns placing pieces on an 8x8 "
    "board. On each turn, a player may place a piece only in a position that meets both of the following "
    "conditions:\n"
    "1. The position is empty.\n"
    "2. From that position, in at least one of the eight directions (horizontal, vertical, or diagonal), there is a "
    "piece of the player's own color such that all positions between it and the new piece are occupied solely by "
    "the opponent's pieces, with no empty spaces in between.\n"
    "After placing the piece, the player must flip all of the opponent's pieces that are sandwiched between their "
    "new piece and any of their existing pieces in any direction.\n"
    "If a player has no valid move available, their turn is skipped.\n"
    "The game ends when both players have no valid moves. The player with the greater number of pieces on the board "
    "wins.\n"
    "The board is represented using coordinates A-H for columns and 1-8 for rows.\n"
    "You are a Reversi player, and it is currently your turn.\n"
    "Choose your move to maximize your chances of winning.\n"
    "Now is your turn, to your best ability, please briefly evaluate a few proimsing moves, provide reason for your "
    "final choice, and output the action with specified format.\n"
    f"{RESPONSE_FORMAT}Answer: [Your Answer]\n"
    "Output valid action if possible, the coordinate should be in the form of (A-H,1-8).\n"
    "If there is no valid action, output 'None'"
)

HOLDEM_SYSTEM = (
    "You are a 2-player Texas Hold'em Player.\n"
    "The game's objective is to make the best 5-card poker hand using any combination of your 2 private cards and "
    "the 5 community cards.\n"
    "Rounds in Texas Hold'em: 1. Pre-flop: Each player gets 2 face-down cards. Betting begins. 2. The Flop: 3 "
    "community cards dealt face-up. Another betting round. 3. The Turn: A 4th community card dealt face-up. Betting "
    "round. 4. The River: The 5th and final community card dealt face-up. Final betting round. 5. Showdown: "
    "Remaining players reveal their hands. The best hand wins the pot.\n"
    "Hand Rankings (High to Low): Royal Flush, Straight Flush, Four of a Kind, Full House, Flush, Straight, Three of "
    "a Kind, Two Pair, One Pair, High Card.\n"
    "The hand will be explained in detail below:\n"
    # As printed, "Note for Action representation:" before the list included. The paper abbreviates the list
    # ("[...] 2. ..."): entries 2-8 are ours, in its style; One Pair and High Card are its own, renumbered.
    "Note for Action representation: 1. Royal Flush: The highest possible hand: A, K, Q, J, 10, all the same suit. "
    "Example: Your hand: A of Spades, K of Spades | Board: Q of Spades, J of Spades, 10 of Spades, 5 of Diamonds, "
    "2 of Hearts.\n"
    "2. Straight Flush: Five cards in sequence, all the same suit. Example: 5, 6, 7, 8, 9 of Clubs.\n"
    "3. Four of a Kind: Four cards of the same rank. Example: Q of Spades, Q of Hearts, Q of Clubs, Q of Diamonds, "
    "4 of Hearts.\n"
    "4. Full House: Three cards of one rank and two of another. Example: 7 of Clubs, 7 of Hearts, 7 of Spades, "
    "J of Diamonds, J of Clubs.\n"
    "5. Flush: Five cards of the same suit, not in sequence. Example: A, J, 8, 6, 2 of Hearts.\n"
    "6. Straight: Five cards in sequence, of mixed suits. Example: 9 of Hearts, 8 of Clubs, 7 of Spades, 6 of "
    "Diamonds, 5 of Hearts.\n"
    "7. Three of a Kind: Three cards of the same rank. Example: 4 of Spades, 4 of Hearts, 4 of Clubs, K of "
    "Diamonds, 9 of Spades.\n"
    "8. Two Pair: Two cards of one rank and two of another. Example: 10 of Hearts, 10 of Clubs, 3 of Spades, 3 of "
    "Diamonds, A of Clubs.\n"
    "9. One Pair: Two cards of the same rank. Example: K of Hearts, K of Spades, Q of Diamonds, 10 of Clubs, 8 of "
    "Hearts. 10. High Card: No made hand; highest single card wins.\n"
    "Note for Action representation: -1 for Fold, -2 for All-in. 0 for Call/Check. >0 for the amount you raise the "
    "bet.\n"
    "When placing a raise, the chips bet must be at least twice the current maximum bet of this round. If no player "
    "has bet before in this round, the raise must be at least equal to the big blind.\n"
    "To call or raise, a player must have enough chips to cover the required bet. Otherwise, they can only fold or "
    "go all-in. An improper bet is considered an illegal action and will be treated as a fold.\n"
    "Now is your turn, to your best ability, please select an action from your valid actions that maximize your "
    "probability of winning. If you have more chips than your opponent by the last hand of the game, play "
    "accordingly to maximize final victory (e.g., more risk-averse or risk-seeking as appropriate).\n"
    "Please briefly evaluate a few promising moves, provide reason for your final choice, and output the action "
    "with specified format.\n"
    f"{RESPONSE_FORMAT}Answer: [Your Answer] (should be a number)"
)

LANDLORD_SYSTEM = (
    "You are a Fight The Landlord (Dou Dizhu) player. Introduction:\n"
    "Fight the Landlord is a poker climbing game primarily for three players.\n"
    "Players, Cards and Deal:\n"
    "This game uses a 54-card pack including two jokers, red and black. The cards rank from high to low: red joker, "
    "black joker, 2, A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3. Suits are irrelevant.\n"
    "Play:\n"
    "The landlord plays first, and may play a single card or any legal combination. Each subsequent player in "
    "anticlockwise order must either pass (play no card) or beat the previous play by playing a higher combination "
    "of the same number of cards and same type. Exceptions: a rocket beats any combination; a bomb beats any "
    "combination except a higher bomb or rocket.\n"
    "Combinations:\n"
    "1. Single card: ranking from three (low) up to red joker (high).\n"
    "2. Pair: two cards of the same rank.\n"
    "3. Triplet: three cards of the same rank.\n"
    "4. Triplet with an attached card: a triplet + any single card.\n"
    "5. Triplet with an attached pair: a triplet + a pair.\n"
    "6. Sequence: at least five consecutive cards, 3-A (2/jokers excluded).\n"
    "7. Sequence of pairs: at least three consecutive pairs, 3-A.\n"
    "8. Sequence of triplets: at least two consecutive triplets, 3-A.\n"
    "9. Sequence of triplets with attached cards: each triplet + one extra card.\n"
    "10. Sequence of triplets with attached pairs: each triplet + one extra pair.\n"
    "11. Bomb: four cards of the same rank. Beats everything except a rocket or higher bomb.\n"
    "12. Rocket: a pair of jokers. The highest combination, beats everything.\n"
    "13. Quadplex set: a bomb + two single cards OR two pairs.\n"
    'Use the EXACT card symbols provided in the Valid Moves list. Prepare a valid JSON object like "cards": ["♠3", '
    '"♥3"] for your answer, along with your explanation and reason. If you pass, output: "cards": []\n'
    "Now is your turn, to your best ability, choose your move to maximize your chances of winning.\n"
    "Please briefly evaluate a few proimsing moves, provide reason for your final choice, and output the action "
    "with specified format.\n"
    f"{RESPONSE_FORMAT}Answer: [Your Answer in JSON]"
)

TICTACTOE_SYSTEM = (
    "You are a TicTacToe expert. You and your opponent are playing as 'X' or 'O', on a 3x3 board. Columns are "
    "labeled from A-C. Rows are labeled from 1-3. You want to win or draw by forming a 3-in-a-row in any rows, "
    'columns, or diagonal lines. Please output a valid JSON object like {"col": \'Letter\', "row": Number} for '
    "your answer. Please briefly evaluate a few promising moves, provide reason for your final choice, and output "
    "the action with specified format. Your response format should be:\nEvaluation: [Your Evaluation]\n"
    "Reason: [Your Reason]\nAnswer: [Your Answer in JSON]"
)

#: A reply's answer: everything after its last `Answer:` (the authors' parsers read from there), else all of it.
_ANSWER = re.compile(r"answer\s*\**\s*[:：]", re.IGNORECASE)
_JSON = re.compile(r"\{[^{}]*\}")


def answer_part(reply: str) -> str:
    found = list(_ANSWER.finditer(reply))
    return (reply[found[-1].end() :] if found else reply).strip().lstrip("*_` ").strip()


def _letters(count: int) -> str:
    return "ABCDEFGHIJKLMNO"[:count]


@dataclass(frozen=True)
class Template:
    """One game's Appendix C prompt: system text, user prompt, the valid moves' notation and how answers read."""

    system: str
    #: (game, state, seat) → the user prompt, the valid moves included.
    user: Callable[[Game, Any, int], str]
    #: (game, state, answer text) → the named action; None when the answer names none in the game's notation.
    read: Callable[[Game, Any, str], Any]
    #: The line a retry adds after the user prompt, given the previous invalid outputs.
    retry: Callable[[list[str]], str]
    #: What a reply that names no move is quoted as in the retry line.
    unreadable: str = "(No Valid Move)"


# --- Point games: tic-tac-toe, Gomoku, Reversi ({"x": column, "y": row} from the top left) ---------------


def _points(game: Game, state: Any) -> dict[tuple[int, int], int]:
    """Botzone (x, y) → the seat whose stone or disc is there."""
    if game.slug == "reversi":
        cells = {}
        for index in range(64):
            owner = 0 if (state.black >> index) & 1 else 1 if (state.white >> index) & 1 else -1
            if owner >= 0:
                cells[(index % 8, index // 8)] = owner
        return cells
    board = state.board
    side = botzone.POINT_GAMES[game.slug][0]
    return {(i % side, i // side): owner for i, owner in enumerate(board) if owner >= 0}


def _point_moves(game: Game, state: Any) -> dict[tuple[int, int], Any]:
    """Botzone (x, y) → the legal action placing there (Reversi's pass left out)."""
    moves = {}
    for action in game.legal_actions(state):
        encoded = botzone.encode(game, state, action)
        if encoded["x"] != botzone.NO_MOVE:
            moves[(encoded["x"], encoded["y"])] = action
    return moves


def _read_col_row(game: Game, state: Any, answer: str) -> Any:
    """A {"col": "H", "row": 8} answer (or `col: H, row: 8`) as the action there; None if there is none."""
    side = botzone.POINT_GAMES[game.slug][0]
    found = None
    for text in reversed(_JSON.findall(answer)):
        try:
            move = json.loads(text.replace("'", '"'))
            found = (str(move["col"]).strip().upper(), int(move["row"]))
            break
        except (ValueError, KeyError, TypeError):
            continue
    if found is None:
        spelled = re.search(r"col\W*([A-Oa-o])\W*row\W*(\d+)", answer, re.IGNORECASE)
        bare = re.fullmatch(r"\W*([A-Oa-o])\s*(\d+)\W*", answer.splitlines()[0] if answer else "")
        match = spelled or bare
        if match is None:
            return None
        found = (match.group(1).upper(), int(match.group(2)))
    column, row = found
    if column not in _letters(side) or not 1 <= row <= side:
        raise IllegalAction(
            f"{column}{row} is off the board: columns {_letters(side)[0]}-{_letters(side)[-1]}, rows 1-{side}."
        )
    return botzone.decode(game, state, {"x": _letters(side).index(column), "y": row - 1})


def _grid(rows: list[tuple[str, list[str]]], header: str) -> str:
    width = max(len(label) for label, _ in rows)
    return "\n".join([" " * (width + 1) + header, *(f"{label:>{width}} {' '.join(cells)}" for label, cells in rows)])


def _tictactoe_user(game: Game, state: Any, seat: int) -> str:
    marks = {0: "X", 1: "O"}
    cells = _points(game, state)
    rows = [(str(y + 1), [marks.get(cells.get((x, y), -1), ".") for x in range(3)]) for y in range(3)]
    occupied = [f"{_letters(3)[x]}{y + 1}" for x in range(3) for y in range(3) if (x, y) in cells]
    valid = [f"{_letters(3)[x]}{y + 1}" for x, y in sorted(_point_moves(game, state))]
    return (
        f"It's your turn to move and you are playing as {marks[seat]}. Your board representation is:\n"
        f"{_grid(rows, 'A B C')}\n"
        f"The occupied coordinates are: {', '.join(occupied) or 'None (Board is empty)'}.\n"
        f"The valid moves are: {', '.join(valid)}."
    )


def _gomoku_user(game: Game, state: Any, seat: int) -> str:
    marks = {0: "X", 1: "O"}
    cells = _points(game, state)
    rows = [(str(y + 1), [marks.get(cells.get((x, y), -1), ".") for x in range(15)]) for y in range(15)]
    occupied = [f"{_letters(15)[x]}{y + 1}" for y in range(15) for x in range(15) if (x, y) in cells]
    name = ("Black (X)", "White (O)")[seat]
    return (
        f"You are playing as {name}. It is your turn to move.\nBoard 15x15:\n{_grid(rows, ' '.join(_letters(15)))}\n"
        f"Occupied Coordinates: {', '.join(occupied) or 'None (Board is empty)'} Analyze the board above.\n"
        "Find a winning move that is legally valid (Is it in the 'Occupied' list?).\n"
        "Remember to provide Explanation, Reason, and Answer."
    )


def _gomoku_retry(outputs: list[str]) -> str:
    """Appendix C.3's line when no move was read; Ataxx's (C.1) listing when one was read but is not valid."""
    if outputs[-1] == "(No Valid Move)":
        return 'Invalid format. Please output strictly JSON: {"col": "Letter", "row": Number}'
    return f"Your previous invalid outputs are: {', '.join(o for o in outputs if o != '(No Valid Move)')}."


def _reversi_user(game: Game, state: Any, seat: int) -> str:
    cells = _points(game, state)
    marks = {0: "*", 1: "@"}  # the first mover's discs are '*' (the authors' bots)
    mine, theirs = marks[seat], marks[1 - seat]
    # The paper's drawing: one line per column A-H (Botzone x), the rows 1-8 (Botzone y) across.
    rows = [(_letters(8)[x], [marks.get(cells.get((x, y), -1), ".") for y in range(8)]) for x in range(8)]
    valid = [f"({_letters(8)[x]}, {y + 1})" for x, y in sorted(_point_moves(game, state))]
    return (
        f"Your piece will be marked with '{mine}', opponent's with '{theirs}', and empty space with '.'. "
        f"This is your game state:\n{_grid(rows, ' '.join('12345678'))}\n"
        f"Your valid actions are: {', '.join(valid) or 'None'}"
    )


def _read_reversi(game: Game, state: Any, answer: str) -> Any:
    if re.search(r"\bnone\b", answer, re.IGNORECASE):
        return botzone.decode(game, state, {"x": botzone.NO_MOVE, "y": botzone.NO_MOVE})
    match = re.search(r"([A-Ha-h])\s*[,，]?\s*([1-8])", answer)
    if match is None:
        return None
    return botzone.decode(game, state, {"x": _letters(8).index(match.group(1).upper()), "y": int(match.group(2)) - 1})


# --- Ataxx ({"x0", "y0", "x1", "y1"}; the bots' board is indexed [x][y] and drawn with x as the row) --------


def _ataxx_user(game: Game, state: Any, seat: int) -> str:
    marks = {0: "@", 1: "*"}  # the first mover's pieces are '@' (the authors' bots)
    owner = {}
    for index in range(49):
        x, y = botzone._xy(game, index)
        owner[(x, y)] = 0 if (state.x >> index) & 1 else 1 if (state.o >> index) & 1 else -1
    rows = [(str(x + 1), [marks.get(owner[(x, y)], ".") for y in range(7)]) for x in range(7)]
    moves = []
    for action in game.legal_actions(state):
        if action == ():
            continue
        target = action[-1]
        tx, ty = botzone._xy(game, target)
        sources = [action[0]] if len(action) == 2 else _clone_sources(game, state, target)
        for source in sources:
            sx, sy = botzone._xy(game, source)
            moves.append(((sx, sy), (tx, ty)))
    valid = [f"({_letters(7)[sy]}, {sx + 1}) -> ({_letters(7)[ty]}, {tx + 1})" for (sx, sy), (tx, ty) in sorted(moves)]
    return (
        f"Your pieces are marked with '{marks[seat]}', opponents' are marked with '{marks[1 - seat]}', and empty "
        f"spaces are '.'\nThis is your board state representation.\n{_grid(rows, ' '.join(_letters(7)))}\n"
        f"Your valid actions are: {', '.join(valid) or 'None'}."
    )


def _clone_sources(game: Game, state: Any, target: int) -> list[int]:
    mover = state.x if game.current_player(state) == 0 else state.o
    tx, ty = botzone._xy(game, target)
    return [
        s
        for s in range(49)
        if mover >> s & 1 and max(abs(botzone._xy(game, s)[0] - tx), abs(botzone._xy(game, s)[1] - ty)) == 1
    ]


def _read_ataxx(game: Game, state: Any, answer: str) -> Any:
    point = r"\(?\s*([A-Ga-g])\s*[,，]?\s*(\d+)\s*\)?"
    match = re.search(point + r"\s*->\s*" + point, answer)
    if match is None:
        if re.search(r"\bnone\b", answer, re.IGNORECASE):
            return botzone.decode(game, state, botzone.first_request(game))
        return None
    (l0, n0, l1, n1) = match.groups()
    response = {"x0": int(n0) - 1, "y0": ord(l0.upper()) - 65, "x1": int(n1) - 1, "y1": ord(l1.upper()) - 65}
    action = botzone.decode(game, state, response)
    if len(action) == 1:  # a clone names its source too: it must be one of the mover's pieces beside the target
        source = botzone._index(game, response["x0"], response["y0"])
        if source not in _clone_sources(game, state, action[0]):
            raise IllegalAction("A clone's source must be one of your pieces next to the target.")
    return action


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


def _chess_user(game: Game, state: Any, seat: int) -> str:
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
        f"{_grid(rows, '    '.join('abcdefgh'))}\n"
        f"Your valid moves are (src-dst-promotion, or src-dst):\n[{', '.join(valid)}]\n"
        "Your answer format should be: Answer: piece-name: move.\n"
        "Piece-name and move (src-dst-promotion or src-dst) should be directly copied EXACTLY from valid move list.\n"
        "Example of valid output format: N: a1-b3; P: e7-e8-q; Piece B: g5-f4.\n"
        "Please select a move from your valid moves that maximize your probability of winning."
    )


def _read_chess(game: Game, state: Any, answer: str) -> Any:
    match = re.search(r"([a-h][1-8])\s*-\s*([a-h][1-8])(?:\s*-\s*([qrbnQRBN]))?", answer)
    if match is None:
        return None
    source, target, promotion = match.groups()
    return botzone.decode(game, state, {"source": source, "target": target, "promotion": (promotion or "*").lower()})


# --- Heads-up hold'em (Botzone's numbers: -1 fold, -2 all-in, 0 call/check, N > 0 put N more chips in) ------

_RANKS = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack", "T": "10"}
_SUITS = {"h": "Hearts", "d": "Diamonds", "s": "Spades", "c": "Clubs"}


def _card_name(card: str) -> str:
    return f"{_RANKS.get(card[0], card[0])} of {_SUITS[card[1]]}"


def _holdem_user(game: Game, state: Any, seat: int) -> str:
    view = game.player_view(state, seat)
    hand = view["current"]
    net = view["net"][seat]
    lines = [
        f"This is the {hand['number']} hand out of {state.hands} hands. Everyone starts with 20,000 chips each hand, "
        f"and you have {hand['stacks'][seat]}. Your cumulative win/loss on chips until last hand are {net}, but the "
        "cumulative win/loss chips are inaccessible and independent from your current chips (consider them as "
        "deposits/debts to a bank). "
        + ("You are currently leading your opponent." if net > 0 else "You are currently losing to your opponent."),
        f"Your cards are: {', '.join(_card_name(c) for c in hand['cards'][seat])}.",
        f"Current public cards are: {', '.join(_card_name(c) for c in hand['board'])}."
        if hand["board"]
        else "Currently there is no public card shown.",
        "The Game history is as follows:",
        *(f"* {line}" for line in hand["lines"]),
    ]
    valid = ["-2 (All-in)", "-1 (Fold)", "0 (Check)"]  # "Check" also when 0 calls, as the paper's example shows
    bounds = hand.get("raise_bounds")
    if bounds and bounds[0] < bounds[1]:
        least = bounds[0] - hand["street_bet"][seat]  # Botzone's N puts N more chips in now
        valid.append(f"{least} (raise the bet), or any value above {least} but lower than your current chips.")
    lines.append(f"Your valid actions are: [{', '.join(valid)}].")
    return "\n".join(lines)


def _read_holdem(game: Game, state: Any, answer: str) -> Any:
    match = re.search(r"-?\d[\d,]*", answer)
    return game.parse_action(state, match.group(0).replace(",", "")) if match else None


# --- Fight the Landlord (Botzone's: the landlord is P1, who plays first; no bidding) ------------------------

_JOKERS = {"BJ": "BlackJoker", "RJ": "RedJoker"}
_LANDLORD_RANKS = ("RJ", "BJ", "2", "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3")
_LANDLORD_ROLES = {
    # Ours (the paper shows a peasant's), in the paper's words for the peasant turned round.
    "landlord": (
        "You are playing as the landlord. Your aim is to play out all your cards before either peasant does. You "
        "are the Landlord. The Next Player (Right) and the Previous Player (Left) are Peasants (ENEMIES) and play "
        "together against you. You fight alone against both while trying to empty your own hand."
    ),
    "prev": (
        "You are playing as a peasant. Your aim is to play out all your cards before the landlord does, OR help your "
        "teammate (the other peasant) play out their cards before the landlord does. You are a Peasant. The Previous "
        "Player (Left) is the Landlord (ENEMY). The Next Player (Right) is your TEAMMATE (Peasant). You must "
        "cooperate with your teammate to beat the Landlord while trying to empty your own hand."
    ),
    "next": (
        "You are playing as a peasant. Your aim is to play out all your cards before the landlord does, OR help your "
        "teammate (the other peasant) play out their cards before the landlord does. You are a Peasant. The Next "
        "Player (Right) is the Landlord (ENEMY). The Previous Player (Left) is your TEAMMATE (Peasant). You must "
        "cooperate with your teammate to beat the Landlord while trying to empty your own hand."
    ),
}


def _card_rank(card: str) -> str:
    return card if card in _JOKERS else card[1:]


def _card_json(cards: list[str]) -> str:
    return json.dumps([_JOKERS.get(c, c) for c in cards], ensure_ascii=False)


def _landlord_user(game: Game, state: Any, seat: int) -> str:
    view = game.player_view(state, seat)
    seats = view["seats"]
    landlord = view["landlord"]
    after, before = (seat + 1) % 3, (seat + 2) % 3
    role = "landlord" if seat == landlord else "prev" if before == landlord else "next"
    hand = [c["text"] for c in seats[seat]["cards"]]

    def label(other: int) -> str:
        if other == landlord:
            return "Landlord (Opponent)"
        return "Peasant (Teammate)" if seat != landlord else "Peasant (Opponent)"

    names = {seats[after]["name"]: "Next Player", seats[before]["name"]: "Prev Player", seats[seat]["name"]: "You"}
    history, turn, played = [], 1, []
    for entry in view["history"]:
        who = names[entry["seat"]]
        cards = [] if entry["text"] == "pass" else entry["text"].split()
        played += cards
        history.append(f"Turn {turn} ({who}): {' '.join(_JOKERS.get(c, c) for c in cards) or 'Pass'}")
        turn += who == "You"
    counts = dict.fromkeys(_LANDLORD_RANKS, 4) | {"RJ": 1, "BJ": 1}
    for card in hand + played:
        counts[_card_rank(card)] -= 1
    unknown = ", ".join(f"{_JOKERS.get(rank, rank)}: {counts[rank]}" for rank in _LANDLORD_RANKS)
    to_beat = view["to_beat"]
    last = _card_json(to_beat["text"].split()) if to_beat else "None (Free Play)"
    return "\n".join(
        [
            _LANDLORD_ROLES[role],
            f"Your Hand: {_card_json(hand)}",
            f"Last Play to Beat: {last}",
            "--- Game History (Recent) ---:",
            *(history[-15:] or ["No history yet."]),
            "--- Player Info ---:",
            f"Cards Held by Next Player (Right) [{label(after)}]: {seats[after]['count']}",
            f"Cards Held by Prev Player (Left) [{label(before)}]: {seats[before]['count']}",
            "--- Cards Remaining Unknown (Card Counting) ---:",
            "(Format explanation: 'Rank: Count', e.g., '2: 4' means there are four 2s left unknown)",
            unknown,
            "Valid Moves:",
            *_landlord_moves(game, state, hand),
            "Select the best move from the Valid Moves list above. You can choose to pass even if you have valid moves "
            "that can beat the previous play, but you cannot pass if you are in a Free Play (there is no last play to "
            "beat). Ensure your response matches one of the valid moves exactly. Remember to provide Explanation, "
            "Reason, and Answer.",
        ]
    )


def _landlord_moves(game: Game, state: Any, hand: list[str]) -> list[str]:
    """Each legal play as the cards of the hand it takes (a rank's cards in the hand's order), as the paper lists."""
    lines = []
    for action in game.legal_actions(state):
        ranks = game.action_to_text(state, action).split()
        if ranks == ["pass"] or not ranks:
            lines.append("pass: []")
            continue
        if sorted(ranks) == ["BJ", "RJ"]:
            lines.append("rocket: [BlackJoker, RedJoker]")
            continue
        left, cards = list(hand), []
        for rank in ranks:
            card = next(c for c in left if _card_rank(c) == rank)
            left.remove(card)
            cards.append(card)
        lines.append(f'"cards": {_card_json(cards)}')
    return lines


def _read_landlord(game: Game, state: Any, answer: str) -> Any:
    found = re.search(r"(?:\"cards\"|cards|rocket|pass)\s*:\s*\[([^\]]*)\]", answer)
    if found is None:
        return None
    jokers = {name.lower(): short for short, name in _JOKERS.items()}
    ranks = []
    for card in re.findall(r"[^\s,\"']+", found.group(1)):
        if card.lower() in jokers:
            ranks.append(jokers[card.lower()])  # BlackJoker → BJ
        elif card[0] in "♠♥♣♦":
            ranks.append(card[1:])  # suits are irrelevant
        else:
            ranks.append(card)
    return game.parse_action(state, " ".join(ranks) if ranks else "pass")


def _listing(intro: str) -> Callable[[list[str]], str]:
    return lambda outputs: f"{intro}{', '.join(outputs)}."


TEMPLATES: dict[str, Template] = {
    "ataxx": Template(ATAXX_SYSTEM, _ataxx_user, _read_ataxx, _listing("Your previous invalid outputs are: ")),
    "chess": Template(CHESS_SYSTEM, _chess_user, _read_chess, _listing("Your previous invalid outputs are: ")),
    "fight-the-landlord": Template(
        LANDLORD_SYSTEM,
        _landlord_user,
        _read_landlord,
        lambda _outputs: 'Invalid format. Please output strictly JSON: "cards": [...]',
    ),
    "gomoku": Template(GOMOKU_SYSTEM, _gomoku_user, _read_col_row, _gomoku_retry),
    "holdem": Template(HOLDEM_SYSTEM, _holdem_user, _read_holdem, _listing("Your previous invalid outputs are: ")),
    "reversi": Template(REVERSI_SYSTEM, _reversi_user, _read_reversi, _listing("Your previous invalid outputs: ")),
    "tic-tac-toe": Template(
        TICTACTOE_SYSTEM, _tictactoe_user, _read_col_row, _listing("Your previous invalid outputs are: ")
    ),
}


def template_for(game: Game, scaffold: str, state: Any = None) -> Template | None:
    """The game's Appendix C prompt under the `botzone` scaffold; None for games the paper shows no prompt for,
    and for Fight the Landlord's bidding variant (Appendix C's prompt has no auction)."""
    if scaffold != "botzone" or game.document_actions:
        return None
    if game.slug == "fight-the-landlord" and state is not None and state.bidding:
        return None
    return TEMPLATES.get(game.slug)


def parse(template: Template, game: Game, state: Any, reply: str) -> Parsed:
    """The reply's answer read in the paper's notation: ok, unparseable (names no move) or illegal."""
    answer = answer_part(reply)
    try:
        action = template.read(game, state, answer)
    except IllegalAction as error:
        return Parsed("illegal", text=answer.splitlines()[0][:200] if answer else "", message=str(error))
    if action is None:
        return Parsed("unparseable", message="No move in the answer's format was found.")
    if not game.is_legal(state, action):
        text = game.action_to_text(state, action)
        return Parsed("illegal", text=text, message=f"{text!r} is not a valid action here.")
    return Parsed("ok", action=action, text=game.action_to_text(state, action))


def invalid_output(template: Template, reply: str, verdict: str) -> str:
    """How a rejected reply is quoted back: its answer's first line (as the authors' bots quote it), or the
    game's stand-in when it named no move in the answer's format."""
    answer = answer_part(reply)
    first = answer.splitlines()[0].strip() if answer else ""
    return first[:120] if first and verdict != "unparseable" else template.unreadable
