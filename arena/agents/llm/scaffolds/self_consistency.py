"""`self-consistency`: `samples` answers to the same prompt, the most common legal one played."""

from __future__ import annotations

from typing import Any

from arena.agents.llm.prompts import ANSWER_FORMAT, PLAN_FORMAT
from arena.agents.llm.scaffolds.base import Scaffold
from games import Game


class SelfConsistency(Scaffold):
    name = "self-consistency"

    def instruction(self, game: Game) -> str:
        return f"Think briefly about your options. {PLAN_FORMAT if game.document_actions else ANSWER_FORMAT}"

    def samples(self, config: dict[str, Any]) -> int:
        return int(config["samples"])
