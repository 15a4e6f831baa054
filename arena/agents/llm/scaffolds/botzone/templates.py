"""BotzoneBench's prompts (Appendix C) as one `Template` per game: the system prompt word for word, the user
prompt with the paper's state encoding and valid-move notation, the answer read in that notation, and the retry
line; and how a reply is read and quoted back.

The system prompts are in `system.py` (Appendix C's text, quotes made ASCII; where the paper abbreviates, the
missing entries are ours, marked there), the user prompts and readers in `boards.py`, `chess_board.py` and
`cards.py`. docs/llm.md lists the choices made where the paper shows nothing (chess's empty squares, hold'em's
history lines, the landlord's role paragraph, some retry lines).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arena.agents.llm.parsing import Parsed
from arena.agents.llm.scaffolds.botzone.boards import (
    ataxx_user,
    gomoku_retry,
    gomoku_user,
    read_ataxx,
    read_col_row,
    read_reversi,
    reversi_user,
    tictactoe_user,
)
from arena.agents.llm.scaffolds.botzone.cards import holdem_user, landlord_user, read_holdem, read_landlord
from arena.agents.llm.scaffolds.botzone.chess_board import chess_user, read_chess
from arena.agents.llm.scaffolds.botzone.system import (
    ATAXX_SYSTEM,
    CHESS_SYSTEM,
    GOMOKU_SYSTEM,
    HOLDEM_SYSTEM,
    LANDLORD_SYSTEM,
    REVERSI_SYSTEM,
    TICTACTOE_SYSTEM,
)
from games import Game, IllegalAction

#: A reply's answer: everything after its last `Answer:` (the authors' parsers read from there), else all of it.
_ANSWER = re.compile(r"answer\s*\**\s*[:：]", re.IGNORECASE)


def answer_part(reply: str) -> str:
    found = list(_ANSWER.finditer(reply))
    return (reply[found[-1].end() :] if found else reply).strip().lstrip("*_` ").strip()


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


def _listing(intro: str) -> Callable[[list[str]], str]:
    return lambda outputs: f"{intro}{', '.join(outputs)}."


TEMPLATES: dict[str, Template] = {
    "ataxx": Template(ATAXX_SYSTEM, ataxx_user, read_ataxx, _listing("Your previous invalid outputs are: ")),
    "chess": Template(CHESS_SYSTEM, chess_user, read_chess, _listing("Your previous invalid outputs are: ")),
    "fight-the-landlord": Template(
        LANDLORD_SYSTEM,
        landlord_user,
        read_landlord,
        lambda _outputs: 'Invalid format. Please output strictly JSON: "cards": [...]',
    ),
    "gomoku": Template(GOMOKU_SYSTEM, gomoku_user, read_col_row, gomoku_retry),
    "holdem": Template(HOLDEM_SYSTEM, holdem_user, read_holdem, _listing("Your previous invalid outputs are: ")),
    "reversi": Template(REVERSI_SYSTEM, reversi_user, read_reversi, _listing("Your previous invalid outputs: ")),
    "tic-tac-toe": Template(
        TICTACTOE_SYSTEM, tictactoe_user, read_col_row, _listing("Your previous invalid outputs are: ")
    ),
}


def template_for(game: Game, state: Any) -> Template | None:
    """The game's Appendix C prompt; None for games the paper shows no prompt for, for plan games, and for Fight
    the Landlord's bidding variant (Appendix C's prompt has no auction)."""
    if game.document_actions:
        return None
    if game.slug == "fight-the-landlord" and state.bidding:
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
