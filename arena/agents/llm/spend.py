"""What a search scaffold's calls cost and said (`rap`, `rap-verbal`), charged to the decision's first answer
attempt."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from arena.agents.llm.client import Completion


@dataclass
class Spend:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int = 0
    cost: float = 0.0
    latency_ms: int = 0
    #: Each call's prompt and reply, readable, for the decision's reasoning text.
    log: list[str] = field(default_factory=list)

    def charge(self, result: Completion, config: dict[str, Any]) -> None:
        """Count one call's tokens, time and price (the agent's `price_*_per_mtok`)."""
        prices = (float(config.get("price_in_per_mtok") or 0), float(config.get("price_out_per_mtok") or 0))
        self.prompt_tokens += result.prompt_tokens
        self.completion_tokens += result.completion_tokens
        self.reasoning_tokens += result.reasoning_tokens
        self.cost += (result.prompt_tokens * prices[0] + result.completion_tokens * prices[1]) / 1_000_000
        self.latency_ms += result.latency_ms
