"""LLM seats: any OpenAI-compatible endpoint through the `openai` SDK (docs/llm.md).

Kept import-light on purpose: it names only the prompts' version. Import `LLMAgent` from
`arena.agents.llm.agent`.
"""

from __future__ import annotations

from arena.agents.llm.prompts import PROMPT_VERSION

__all__ = ["PROMPT_VERSION"]
