"""`botzone`: BotzoneBench's prompts. Appendix C's own for the games it shows (`templates.py`), else Arena's rules
and encoding with BotzoneBench's reply format and instruction (§3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from arena.agents.llm.parsing import Parsed
from arena.agents.llm.prompts import PLAN_FORMAT
from arena.agents.llm.scaffolds.base import Conversation, Scaffold
from arena.agents.llm.scaffolds.botzone.templates import Template, invalid_output, parse, template_for
from games import Game

BOTZONE_INSTRUCTION = (
    "Briefly evaluate a few promising moves, provide reason for your final choice, and output the action."
)
BOTZONE_FORMAT = "Evaluation: [Your Evaluation]\nReason: [Your Reason]\nAnswer: [Your Answer]"


@dataclass
class AppendixC:
    """A decision under a game's Appendix C prompt: its notation read, and a retry re-sends the user prompt with
    the previous invalid outputs appended (BotzoneBench's way)."""

    template: Template
    game: Game
    state: Any
    opening: list[dict[str, str]]
    invalid: list[str] = field(default_factory=list)

    def parse(self, reply: str) -> Parsed:
        return parse(self.template, self.game, self.state, reply)

    def retry(self, messages: list[dict], reply: str, parsed: Parsed) -> list[dict]:
        self.invalid.append(invalid_output(self.template, reply, parsed.verdict))
        system, user = self.opening
        return [system, {"role": "user", "content": f"{user['content']}\n{self.template.retry(self.invalid)}"}]


class Botzone(Scaffold):
    name = "botzone"

    def reply_format(self) -> str:
        return (
            f"Reply strictly in this format:\n{BOTZONE_FORMAT}\n"
            "where [Your Answer] is one legal move written exactly as listed."
        )

    def instruction(self, game: Game) -> str:
        return PLAN_FORMAT if game.document_actions else f"{BOTZONE_INSTRUCTION}\n{BOTZONE_FORMAT}"

    def first_messages(
        self,
        game: Game,
        state: Any,
        seat: int,
        *,
        legal_texts: list[str],
        legal_list: bool = True,
        budget_tokens: int | None = None,
    ) -> list[dict[str, str]]:
        """Appendix C's system and user prompts for its games (never shortened), else Arena's in its format."""
        if template := template_for(game, state):
            return _appendix_c_messages(template, game, state, seat)
        return super().first_messages(
            game, state, seat, legal_texts=legal_texts, legal_list=legal_list, budget_tokens=budget_tokens
        )

    def conversation(
        self, game: Game, state: Any, seat: int, *, legal_texts: list[str], config: dict[str, Any]
    ) -> Conversation:
        if template := template_for(game, state):
            return AppendixC(template, game, state, _appendix_c_messages(template, game, state, seat))
        return super().conversation(game, state, seat, legal_texts=legal_texts, config=config)


def _appendix_c_messages(template: Template, game: Game, state: Any, seat: int) -> list[dict[str, str]]:
    return [
        {"role": "system", "content": template.system},
        {"role": "user", "content": template.user(game, state, seat)},
    ]
