"""`grammar` and `grammar-reasoning`: llama.cpp constrained decoding holds the answer to the legal moves.

Plan games are written, not picked: they get no grammar.
"""

from __future__ import annotations

from typing import Any

from arena.agents.llm.scaffolds.direct import Direct
from games import Game

#: The longest reasoning line the `grammar-reasoning` scaffold lets a model write before its constrained answer.
REASONING_CHARS = 80


def gbnf_literal(text: str) -> str:
    """A GBNF string literal for `text`."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    return f'"{escaped}"'


def answer_grammar(legal_texts: list[str], *, reasoning: bool = False) -> str:
    """A GBNF grammar admitting exactly `Answer: <one legal move>` (llama.cpp constrained decoding), after one
    `Reasoning: ` line of at most REASONING_CHARS characters with `reasoning`."""
    moves = " | ".join(gbnf_literal(text) for text in dict.fromkeys(legal_texts))
    if reasoning:
        return (
            f'root ::= "Reasoning: " reason "\\nAnswer: " move\nreason ::= [^\\n]{{1,{REASONING_CHARS}}}\n'
            f"move ::= {moves}\n"
        )
    return f'root ::= "Answer: " move\nmove ::= {moves}\n'


class Grammar(Direct):
    """`direct`'s prompts, the answer held to `Answer: <legal move>`."""

    name = "grammar"
    constrained = True
    reasoning = False

    def request_fields(self, game: Game, legal_texts: list[str]) -> dict[str, Any]:
        if game.document_actions:
            return {}
        return {"grammar": answer_grammar(legal_texts, reasoning=self.reasoning)}


class GrammarReasoning(Grammar):
    """One short `Reasoning: ` line, then the constrained answer."""

    name = "grammar-reasoning"
    reasoning = True

    def reply_format(self) -> str:
        return (
            "Reply with two lines: `Reasoning: <one short sentence on your plan>`, then `Answer: <move>`, "
            "where <move> is one legal move written exactly as listed."
        )

    def instruction(self, game: Game) -> str:
        if game.document_actions:
            return super().instruction(game)
        return "Answer with two lines: `Reasoning: <one short sentence>`, then `Answer: <move>`."
