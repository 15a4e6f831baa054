"""How large the first run's record is: per game, the seeds of its Lv0–Lv2 round robin, sized by measurement."""

from __future__ import annotations

from games import get_game
from games.bots import LADDER_MODULES, ladder

#: Levels Lv0..FIRST_RUN_LEVELS-1 of each two-seat ladder play the first run's round robin.
FIRST_RUN_LEVELS = 3
PAIRINGS = FIRST_RUN_LEVELS * (FIRST_RUN_LEVELS - 1) // 2

#: Seeds per pairing (each played in both seat orders) of each game's first-run round robin, measured by
#: `manage.py measure_first_run` and a whole first run (docs/operations.md, "First run"): about twice the smallest
#: measured size at which the game's Lv0 < Lv1 < Lv2 came out with non-overlapping 95% intervals where its matches
#: are cheap (at the smallest size a fresh sample separates only about half the time), half again where they are
#: slow, and less where separating would take far longer than minutes.
FIRST_RUN_GAMES_PER_SEAT: dict[str, int] = {
    "tic-tac-toe": 32,
    "connect-four": 64,
    "gomoku": 32,
    "reversi": 48,
    "ataxx": 96,
    "santorini": 64,
    "tower-defense": 48,
    "battle-card": 32,
    "attribute-battle": 32,
    "kuhn-poker": 96,
    "leduc-holdem": 64,
    "skirmish": 32,
    "stratego": 64,
    "sea-battle": 48,
    "air-land-sea": 32,
    "arctic-scavengers": 64,
    # Not separated within minutes: Lv1 and Lv2 are 35-130 points apart (chess and Hive mostly draw at these
    # levels), or the matches are slow (Hold'em, 1.7 s each). A small record, ranked with overlapping intervals.
    "chess": 8,
    "hive": 8,
    "holdem": 4,
}
#: A game not measured yet.
DEFAULT_GAMES_PER_SEAT = 16


def first_run_games() -> list[str]:
    """The games the first run seeds: two-seat games whose ladder has FIRST_RUN_LEVELS levels."""
    return [g for g in LADDER_MODULES if get_game(g).num_players == 2 and len(ladder(g)) >= FIRST_RUN_LEVELS]


def first_run_matches() -> int:
    """The matches of the whole measured first run (ARENA_SEED_MATCHES' default)."""
    return sum(games_per_seat(first_run_games(), 10**9).values()) * 2 * PAIRINGS


def games_per_seat(games: list[str], matches: int) -> dict[str, int]:
    """Seeds per pairing for each of `games` (first-run games only): the measured sizes, scaled down evenly when
    they would come to more than `matches`; a game scaled to no seed is left out."""
    wanted = {g: FIRST_RUN_GAMES_PER_SEAT.get(g, DEFAULT_GAMES_PER_SEAT) for g in games if g in first_run_games()}
    total = sum(wanted.values()) * 2 * PAIRINGS
    sizes = {g: n if total <= matches else n * matches // total for g, n in wanted.items()}
    return {g: n for g, n in sizes.items() if n > 0}
