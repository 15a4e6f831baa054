"""Seat-balanced bot-vs-bot series with fixed seeds, for ladder calibration and tests."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from games import get_game
from games.base import Game
from games.bots import ladder, ladder_variant
from games.bots.base import Bot


@dataclass(frozen=True)
class SeriesResult:
    """Games between a challenger and a defender, counted from the challenger's side."""

    wins: int
    draws: int
    losses: int
    #: Thinking time of the challenger, to check the ladder's per-move budget.
    challenger_seconds: float = 0.0
    challenger_moves: int = 0

    @property
    def decisive(self) -> int:
        return self.wins + self.losses

    @property
    def win_rate(self) -> float | None:
        """Share of decisive games the challenger won (draws excluded, as in BotzoneBench)."""
        return self.wins / self.decisive if self.decisive else None

    @property
    def challenger_ms_per_move(self) -> float:
        return 1000 * self.challenger_seconds / self.challenger_moves if self.challenger_moves else 0.0


def variant_options(game: Game, variant: str) -> dict:
    """The `initial_state` options of a named variant of `game`; "" is the standard rules."""
    return game.variants[variant] if variant else {}


def play_game(
    game: Game, bots: list[Bot], seed: int, variant: str = ""
) -> tuple[tuple[float, ...], list[float], list[int]]:
    """One bot game from `seed` (`bots` per seat) in `variant` ("" the standard rules): per-seat ladder scores,
    thinking seconds and move counts."""
    state = game.initial_state(seed=seed, **variant_options(game, variant))
    rngs = [random.Random(seed * 7919 + seat) for seat in range(len(bots))]
    seconds = [0.0] * len(bots)
    moves = [0] * len(bots)
    while (seat := game.current_player(state)) is not None:
        started = time.perf_counter()
        action = bots[seat].choose(game, state, rngs[seat])
        seconds[seat] += time.perf_counter() - started
        moves[seat] += 1
        state = game.apply(state, action)
    return game.ladder_scores(state), seconds, moves


def play_series(
    game: Game,
    challenger: Bot,
    defender: Bot,
    games_per_seat: int,
    first_seed: int = 0,
    on_game: Callable[[], None] | None = None,
    variant: str = "",
) -> SeriesResult:
    """`games_per_seat` games with the challenger on side 0, the same seeds with it on each other side in turn.

    A side is a seat in two-player games and a team (`game.team_of`) in team games: the challenger
    then fills every seat of its team. In free-for-all games (more than two sides, e.g. Diplomacy, Mahjong) the
    challenger plays each side in turn against defenders on all the others, and its result is its pairwise
    score against them (as the ratings count it): a win above ½, a draw at ½, a loss below. Every game is played
    in `variant` (a name in `game.variants`, "" the standard rules), which may set the sides (Pit's gamebench).
    """
    wins = draws = losses = moves = 0
    seconds = 0.0
    for seed in range(first_seed, first_seed + games_per_seat):
        start = game.initial_state(seed=seed, **variant_options(game, variant))
        sides = [game.team_of(start, seat) for seat in range(game.num_players)]
        for side in sorted(set(sides)):
            bots = [challenger if sides[seat] == side else defender for seat in range(game.num_players)]
            scores, game_seconds, game_moves = play_game(game, bots, seed, variant)
            mine = [seat for seat in range(game.num_players) if sides[seat] == side]
            score = scores[mine[0]]
            if len(set(sides)) > 2:
                others = [scores[seat] for seat in range(game.num_players) if sides[seat] != side]
                pairwise = sum(1.0 if score > o else 0.5 if score == o else 0.0 for o in others) / len(others)
                score = 1.0 if pairwise > 0.5 else 0.5 if pairwise == 0.5 else 0.0
            wins += score == 1.0
            draws += score == 0.5
            losses += score == 0.0
            seconds += sum(game_seconds[seat] for seat in mine)
            moves += sum(game_moves[seat] for seat in mine)
            if on_game:
                on_game()
    return SeriesResult(wins, draws, losses, challenger_seconds=seconds, challenger_moves=moves)


def play_unit(unit: tuple[str, int, int]) -> dict:
    """One seed of one adjacent ladder pair (game slug, pair index, seed), the challenger on each side once.

    Pure computation on `games/` alone, so a calibration worker process needs nothing else imported.
    """
    slug, pair, seed = unit
    bots = ladder(slug)
    variant = ladder_variant(slug)
    result = play_series(get_game(slug), bots[pair + 1], bots[pair], 1, first_seed=seed, variant=variant)
    return {
        "game": slug,
        "variant": variant,
        "pair": pair,
        "challenger": bots[pair + 1].slug,
        "defender": bots[pair].slug,
        # A retuned level keeps its slug but not its description: its old units are then not reused.
        "levels": [bots[pair + 1].description, bots[pair].description],
        "seed": seed,
        "wins": result.wins,
        "draws": result.draws,
        "losses": result.losses,
        "seconds": result.challenger_seconds,
        "moves": result.challenger_moves,
    }
