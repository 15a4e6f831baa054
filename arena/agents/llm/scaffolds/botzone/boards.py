"""BotzoneBench's user prompts and answers for the board games: tic-tac-toe, Gomoku, Reversi and Ataxx.

The encodings are Botzone's, drawn in the orientation of the authors' bots (Reversi's lines are columns A-H,
Ataxx's letters are Botzone's y), so a move reads as the paper's bots read it.
"""

from __future__ import annotations

import json
import re
from typing import Any

from arena.agents import botzone
from games import Game, IllegalAction

_JSON = re.compile(r"\{[^{}]*\}")


def letters(count: int) -> str:
    return "ABCDEFGHIJKLMNO"[:count]


def grid(rows: list[tuple[str, list[str]]], header: str) -> str:
    width = max(len(label) for label, _ in rows)
    return "\n".join([" " * (width + 1) + header, *(f"{label:>{width}} {' '.join(cells)}" for label, cells in rows)])


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


def read_col_row(game: Game, state: Any, answer: str) -> Any:
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
    if column not in letters(side) or not 1 <= row <= side:
        raise IllegalAction(
            f"{column}{row} is off the board: columns {letters(side)[0]}-{letters(side)[-1]}, rows 1-{side}."
        )
    return botzone.decode(game, state, {"x": letters(side).index(column), "y": row - 1})


def tictactoe_user(game: Game, state: Any, seat: int) -> str:
    marks = {0: "X", 1: "O"}
    cells = _points(game, state)
    rows = [(str(y + 1), [marks.get(cells.get((x, y), -1), ".") for x in range(3)]) for y in range(3)]
    occupied = [f"{letters(3)[x]}{y + 1}" for x in range(3) for y in range(3) if (x, y) in cells]
    valid = [f"{letters(3)[x]}{y + 1}" for x, y in sorted(_point_moves(game, state))]
    return (
        f"It's your turn to move and you are playing as {marks[seat]}. Your board representation is:\n"
        f"{grid(rows, 'A B C')}\n"
        f"The occupied coordinates are: {', '.join(occupied) or 'None (Board is empty)'}.\n"
        f"The valid moves are: {', '.join(valid)}."
    )


def gomoku_user(game: Game, state: Any, seat: int) -> str:
    marks = {0: "X", 1: "O"}
    cells = _points(game, state)
    rows = [(str(y + 1), [marks.get(cells.get((x, y), -1), ".") for x in range(15)]) for y in range(15)]
    occupied = [f"{letters(15)[x]}{y + 1}" for y in range(15) for x in range(15) if (x, y) in cells]
    name = ("Black (X)", "White (O)")[seat]
    return (
        f"You are playing as {name}. It is your turn to move.\nBoard 15x15:\n{grid(rows, ' '.join(letters(15)))}\n"
        f"Occupied Coordinates: {', '.join(occupied) or 'None (Board is empty)'} Analyze the board above.\n"
        "Find a winning move that is legally valid (Is it in the 'Occupied' list?).\n"
        "Remember to provide Explanation, Reason, and Answer."
    )


def gomoku_retry(outputs: list[str]) -> str:
    """Appendix C.3's line when no move was read; Ataxx's (C.1) listing when one was read but is not valid."""
    if outputs[-1] == "(No Valid Move)":
        return 'Invalid format. Please output strictly JSON: {"col": "Letter", "row": Number}'
    return f"Your previous invalid outputs are: {', '.join(o for o in outputs if o != '(No Valid Move)')}."


def reversi_user(game: Game, state: Any, seat: int) -> str:
    cells = _points(game, state)
    marks = {0: "*", 1: "@"}  # the first mover's discs are '*' (the authors' bots)
    mine, theirs = marks[seat], marks[1 - seat]
    # The paper's drawing: one line per column A-H (Botzone x), the rows 1-8 (Botzone y) across.
    rows = [(letters(8)[x], [marks.get(cells.get((x, y), -1), ".") for y in range(8)]) for x in range(8)]
    valid = [f"({letters(8)[x]}, {y + 1})" for x, y in sorted(_point_moves(game, state))]
    return (
        f"Your piece will be marked with '{mine}', opponent's with '{theirs}', and empty space with '.'. "
        f"This is your game state:\n{grid(rows, ' '.join('12345678'))}\n"
        f"Your valid actions are: {', '.join(valid) or 'None'}"
    )


def read_reversi(game: Game, state: Any, answer: str) -> Any:
    if re.search(r"\bnone\b", answer, re.IGNORECASE):
        return botzone.decode(game, state, {"x": botzone.NO_MOVE, "y": botzone.NO_MOVE})
    match = re.search(r"([A-Ha-h])\s*[,，]?\s*([1-8])", answer)
    if match is None:
        return None
    return botzone.decode(game, state, {"x": letters(8).index(match.group(1).upper()), "y": int(match.group(2)) - 1})


# --- Ataxx ({"x0", "y0", "x1", "y1"}; the bots' board is indexed [x][y] and drawn with x as the row) --------


def ataxx_user(game: Game, state: Any, seat: int) -> str:
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
    valid = [f"({letters(7)[sy]}, {sx + 1}) -> ({letters(7)[ty]}, {tx + 1})" for (sx, sy), (tx, ty) in sorted(moves)]
    return (
        f"Your pieces are marked with '{marks[seat]}', opponents' are marked with '{marks[1 - seat]}', and empty "
        f"spaces are '.'\nThis is your board state representation.\n{grid(rows, ' '.join(letters(7)))}\n"
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


def read_ataxx(game: Game, state: Any, answer: str) -> Any:
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
