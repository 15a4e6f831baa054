"""Graded game bots: pure functions of (game, state, rng) at a fixed level."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.base import Game

Chooser = Callable[[Game, Any, random.Random], Any]


@dataclass(frozen=True)
class Bot:
    """One rung of a game's ladder. Lv0 always plays a uniformly random legal action."""

    game: str
    level: int
    description: str
    choose: Chooser

    @property
    def slug(self) -> str:
        return f"{self.game}-lv{self.level}"


def random_chooser(game: Game, state: Any, rng: random.Random) -> Any:
    """Lv0: a uniformly random legal action."""
    return game.random_action(state, rng)
