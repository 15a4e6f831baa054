"""The seat protocol: given the game and the state, produce a decision and the attempts behind it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from arena.record.services import AttemptData
from games import Game


@dataclass
class DecisionResult:
    """What a seat decided, and every try that led to it."""

    action: Any
    attempts: list[AttemptData] = field(default_factory=list)
    elapsed_ms: int = 0
    #: "" when the agent chose itself; otherwise the fallback policy that chose.
    fallback: str = ""


class SeatAgent(Protocol):
    async def decide(self, game: Game, state: Any, seat: int, match_seed: int) -> DecisionResult: ...
