"""LLM seats: any OpenAI-compatible endpoint through the `openai` SDK (docs/llm.md).

Kept import-light on purpose: `arena.record.services` reads PROMPT_VERSION from here, and the
agent itself imports services. Import `LLMAgent` from `arena.agents.llm.agent`.
"""

from __future__ import annotations

from arena.agents.llm.prompts import PROMPT_VERSION

__all__ = ["PROMPT_VERSION"]
