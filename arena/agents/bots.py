"""Bots in a seat: the ladder's pure choosers with a reproducible RNG (the runner calls them in a worker thread,
several turns at a time, unless they only pick a random legal move: arena.runner.loop)."""

from __future__ import annotations

import random
import time
from typing import Any

from arena.agents.base import DecisionResult
from games import Game
from games.bots import get_bot
from games.bots.base import random_chooser


def decision_rng(match_seed: int, seat: int, ply: int) -> random.Random:
    """The RNG a bot uses at one decision: the same on a resumed run as on the first."""
    return random.Random(f"{match_seed}:{seat}:{ply}")


class BotAgent:
    """A ladder bot, e.g. `reversi-lv2`."""

    def __init__(self, bot_slug: str) -> None:
        self.bot = get_bot(bot_slug)
        #: It only picks a random legal move (Lv0): cheaper than handing the work to a thread and back.
        self.instant = self.bot.choose is random_chooser

    def choose(self, game: Game, state: Any, seat: int, match_seed: int) -> DecisionResult:
        started = time.perf_counter()
        action = self.bot.choose(game, state, decision_rng(match_seed, seat, state.ply))
        # Bots cannot err, so they leave no attempts: only the decision and its time.
        return DecisionResult(action=action, elapsed_ms=round((time.perf_counter() - started) * 1000))
