"""The scaffolds an LLM seat can play under, one module each, by the name stored in its config (docs/llm.md)."""

from __future__ import annotations

from arena.agents.llm.scaffolds.base import Scaffold
from arena.agents.llm.scaffolds.botzone import Botzone
from arena.agents.llm.scaffolds.cot import ChainOfThought
from arena.agents.llm.scaffolds.direct import Direct
from arena.agents.llm.scaffolds.grammar import Grammar, GrammarReasoning
from arena.agents.llm.scaffolds.rap import Rap
from arena.agents.llm.scaffolds.rap_verbal import RapVerbal
from arena.agents.llm.scaffolds.self_consistency import SelfConsistency

#: Every scaffold by its stored name, in `llm_config.SCAFFOLDS`' order.
REGISTRY: dict[str, Scaffold] = {
    scaffold.name: scaffold
    for scaffold in (
        Direct(),
        ChainOfThought(),
        SelfConsistency(),
        Grammar(),
        GrammarReasoning(),
        Rap(),
        RapVerbal(),
        Botzone(),
    )
}


def get_scaffold(name: str) -> Scaffold:
    """The scaffold stored as `name`; KeyError for none."""
    return REGISTRY[name]
