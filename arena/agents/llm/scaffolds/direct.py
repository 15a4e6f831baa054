"""`direct`: the model answers at once, one line naming its move."""

from __future__ import annotations

from arena.agents.llm.scaffolds.base import Scaffold

#: The system prompt's answer line for scaffolds that answer at once.
ONE_LINE_ONLY = "Reply with one line only: `Answer: <move>`, where <move> is one legal move written exactly as listed."


class Direct(Scaffold):
    name = "direct"

    def reply_format(self) -> str:
        return ONE_LINE_ONLY
