"""The seat protocol: given the game and the state, produce a decision and the attempts behind it.

The decision's shape (`DecisionResult`, `AttemptData`) is the record's, in `arena.record.decisions`."""

from __future__ import annotations

from typing import Any, Protocol

from arena.record.decisions import AttemptData, DecisionResult
from arena.record.errors import ServiceError
from games import Game

__all__ = ["AgentConfigError", "AttemptData", "DecisionResult", "SeatAgent"]


class AgentConfigError(ServiceError):
    """An agent's config that cannot work, of any kind; the message says which field to fix."""


class SeatAgent(Protocol):
    async def decide(self, game: Game, state: Any, seat: int, match_seed: int) -> DecisionResult: ...
