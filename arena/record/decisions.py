"""What an agent hands the record for one seat's turn: the decision and every try that led to it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class AttemptData:
    """One try at a decision, as an agent reports it (see Attempt for the fields)."""

    verdict: str
    raw_text: str = ""
    reasoning_text: str = ""
    parsed_action: str = ""
    message: str = ""
    messages: list[dict[str, Any]] = field(default_factory=list)
    transient: bool = False
    latency_ms: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int = 0
    cost: float = 0.0
    model_reported: str = ""


@dataclass
class DecisionResult:
    """What a seat decided, and every try that led to it."""

    action: Any
    attempts: list[AttemptData] = field(default_factory=list)
    elapsed_ms: int = 0
    #: "" when the agent chose itself; otherwise the fallback policy that chose (or the rule of the agent's own
    #: protocol: "botzone_fold", Botzone's hold'em judge folding for an invalid answer).
    fallback: str = ""
    #: The agent gave no valid answer and its own protocol ends the match with its loss (a Botzone program: the
    #: judge ends the game), whatever the match's fallback policy.
    forfeits: bool = False
    #: Why the agent could not be reached at all (its server's failures, not its answers), when so.
    outage: str = ""
