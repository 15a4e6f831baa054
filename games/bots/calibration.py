"""Seat-balanced bot-vs-bot series with fixed seeds, for ladder calibration and tests."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from games.base import Game
from games.bots.base import Bot


@dataclass(frozen=True)
class SeriesResult:
    """Games between a challenger and a defender, counted from the challenger's side."""

    wins: int
    draws: int
    losses: int

    @property
    def decisive(self) -> int:
        return self.wins + self.losses

    @property
    def win_rate(self) -> float | None:
        """Share of decisive games the challenger won (draws excluded, as in BotzoneBench)."""
        return self.wins / self.decisive if self.decisive else None


def play_game(game: Game, bots: list[Bot], seed: int) -> tuple[float, ...]:
    """One bot-vs-bot game from `seed`; returns the per-seat scores."""
    state = game.initial_state(seed=seed)
    rngs = [random.Random(seed * 7919 + seat) for seat in range(len(bots))]
    while (seat := game.current_player(state)) is not None:
        state = game.apply(state, bots[seat].choose(game, state, rngs[seat]))
    return game.outcome(state).scores


def play_series(
    game: Game,
    challenger: Bot,
    defender: Bot,
    games_per_seat: int,
    first_seed: int = 0,
    on_game: Callable[[], None] | None = None,
) -> SeriesResult:
    """`games_per_seat` games with the challenger first, the same seeds with it second."""
    wins = draws = losses = 0
    for seed in range(first_seed, first_seed + games_per_seat):
        for challenger_seat in (0, 1):
            bots = [challenger, defender] if challenger_seat == 0 else [defender, challenger]
            score = play_game(game, bots, seed)[challenger_seat]
            wins += score == 1.0
            draws += score == 0.5
            losses += score == 0.0
            if on_game:
                on_game()
    return SeriesResult(wins=wins, draws=draws, losses=losses)
