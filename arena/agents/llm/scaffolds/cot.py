"""`cot`: GameBench's chain of thought: the model reasons out loud, then answers."""

from __future__ import annotations

from arena.agents.llm.prompts import ANSWER_FORMAT, PLAN_FORMAT
from arena.agents.llm.scaffolds.base import Scaffold
from games import Game

#: GameBench's chain-of-thought instruction, word for word.
COT_SENTENCE = (
    "First, let's reason out loud about which action you should take to maximize your probability of winning."
)


class ChainOfThought(Scaffold):
    name = "cot"

    def instruction(self, game: Game) -> str:
        return f"{COT_SENTENCE} {PLAN_FORMAT if game.document_actions else ANSWER_FORMAT}"
