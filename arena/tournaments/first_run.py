"""How large the first run's record is: per game, the seeds of its Lv0–Lv2 round robin, sized by measurement."""

from __future__ import annotations

import math

import numpy as np

from games import get_game
from games.bots import LADDER_MODULES, ladder

#: Levels Lv0..FIRST_RUN_LEVELS-1 of each two-seat ladder play the first run's round robin.
FIRST_RUN_LEVELS = 3
PAIRINGS = FIRST_RUN_LEVELS * (FIRST_RUN_LEVELS - 1) // 2

#: Measured by `manage.py measure_first_run` (docs/operations.md, "First run"): for each game, the higher level's
#: mean score and its variance per match against the lower in Lv1–Lv0, Lv2–Lv0 and Lv2–Lv1 (a draw scores ½, so
#: draws make the variance less than p(1−p)), over 128 seeds per pairing in both seat orders (chess and Hive 240,
#: Hold'em 120).
MEASURED_SCORES: dict[str, tuple[tuple[float, float], tuple[float, float], tuple[float, float]]] = {
    "tic-tac-toe": ((0.707, 0.188), (0.824, 0.104), (0.766, 0.142)),
    "connect-four": ((0.812, 0.152), (0.980, 0.019), (0.816, 0.150)),
    "gomoku": ((0.695, 0.212), (0.977, 0.023), (0.891, 0.097)),
    "reversi": ((0.857, 0.110), (0.965, 0.030), (0.801, 0.156)),
    "ataxx": ((0.891, 0.097), (0.977, 0.023), (0.777, 0.173)),
    "chess": ((0.579, 0.055), (0.756, 0.071), (0.653, 0.080)),
    "santorini": ((0.855, 0.124), (0.988, 0.012), (0.871, 0.112)),
    "tower-defense": ((0.727, 0.142), (0.918, 0.050), (0.729, 0.150)),
    "battle-card": ((0.688, 0.164), (0.885, 0.074), (0.773, 0.132)),
    "attribute-battle": ((0.697, 0.153), (0.879, 0.083), (0.768, 0.144)),
    "kuhn-poker": ((0.748, 0.182), (0.723, 0.185), (0.795, 0.156)),
    "leduc-holdem": ((0.785, 0.167), (0.799, 0.156), (0.838, 0.133)),
    "holdem": ((0.704, 0.208), (0.748, 0.187), (0.787, 0.165)),
    "skirmish": ((0.824, 0.141), (0.969, 0.030), (0.793, 0.164)),
    "stratego": ((0.867, 0.115), (0.941, 0.055), (0.801, 0.160)),
    "sea-battle": ((0.705, 0.185), (0.891, 0.064), (0.729, 0.181)),
    "hive": ((0.650, 0.080), (0.726, 0.077), (0.634, 0.106)),
    "air-land-sea": ((0.863, 0.118), (0.945, 0.052), (0.852, 0.126)),
    "arctic-scavengers": ((0.758, 0.172), (0.959, 0.034), (0.729, 0.193)),
}

#: Seeds per pairing (each played in both seat orders) of each game's first-run round robin: the size its
#: MEASURED_SCORES call for (`separating_games_per_seat`), rounded up to a multiple of 8. Chess and Hive mostly
#: draw at these levels (75% and 59% of Lv1–Lv0 games), so their levels are close, but separable within minutes.
FIRST_RUN_GAMES_PER_SEAT: dict[str, int] = {
    "tic-tac-toe": 72,
    "connect-four": 64,
    "gomoku": 64,
    "reversi": 72,
    "ataxx": 112,
    "chess": 64,
    "santorini": 56,
    "tower-defense": 64,
    "battle-card": 56,
    "attribute-battle": 56,
    "kuhn-poker": 104,
    "leduc-holdem": 80,
    "holdem": 112,
    "skirmish": 72,
    "stratego": 88,
    "sea-battle": 72,
    "hive": 120,
    "air-land-sea": 64,
    "arctic-scavengers": 80,
}
#: A game not measured yet.
DEFAULT_GAMES_PER_SEAT = 16


#: The pairs of levels a first-run round robin plays, (lower, higher), in the order of a game's MEASURED_SCORES.
LEVEL_PAIRS = ((0, 1), (0, 2), (1, 2))
#: Intervals are 95% (z = 1.96). A size must let a fresh sample separate each adjacent pair 99.74% of the time
#: (z = 2.79), so that a whole first run shows all 38 pairs of its 19 games apart 90% of the time (0.9974³⁸).
INTERVAL_Z, SEPARATION_Z = 1.959964, 2.79


def separating_games_per_seat(scores: tuple[tuple[float, float], ...]) -> int | None:
    """The fewest seeds per pairing (each played in both seat orders) at which a fresh sample of a game's round
    robin shows Lv0 < Lv1 < Lv2 with non-overlapping 95% intervals, each adjacent pair with probability
    Φ(SEPARATION_Z), given
    the higher level's mean score and its variance per match in each of LEVEL_PAIRS; None if the levels are not
    in order (no size separates them).

    The leaderboard fits Bradley–Terry with Lv0 as the anchor and resamples matches: its intervals for Lv1 and
    Lv2 are those of s − s_Lv0, about ±1.96 standard errors of the sandwich covariance H⁻¹JH⁻¹ (H: the model's
    information, J: the scores' spread, draws included, plus any misfit of three pairs to one scale). Lv1's
    lower bound must clear Lv0 and Lv2's lower bound Lv1's upper one, with SEPARATION_Z standard errors of the
    gap to spare. Every standard error shrinks as 1/√n, so the smallest n follows in closed form."""
    strengths = np.zeros(3)
    for _ in range(100):  # Newton on the fit's score equations, Lv0 held at 0
        gradient, hessian = np.zeros(3), np.zeros((3, 3))
        for (low, high), (mean, _) in zip(LEVEL_PAIRS, scores, strict=True):
            expected = 1.0 / (1.0 + math.exp(strengths[low] - strengths[high]))
            x = np.zeros(3)
            x[high], x[low] = 1.0, -1.0
            gradient += (mean - expected) * x
            hessian += expected * (1.0 - expected) * np.outer(x, x)
        step = np.linalg.solve(hessian[1:, 1:], gradient[1:])
        strengths[1:] += step
        if np.abs(step).max() < 1e-12:
            break
    information, spread = np.zeros((2, 2)), np.zeros((2, 2))
    for (low, high), (mean, variance) in zip(LEVEL_PAIRS, scores, strict=True):
        expected = 1.0 / (1.0 + math.exp(strengths[low] - strengths[high]))
        x = np.zeros(3)
        x[high], x[low] = 1.0, -1.0
        information += expected * (1.0 - expected) * np.outer(x[1:], x[1:])
        spread += (variance + (mean - expected) ** 2) * np.outer(x[1:], x[1:])
    inverse = np.linalg.inv(information)
    covariance = inverse @ spread @ inverse / 2  # one seed: two matches, one in each seat order
    se1, se2 = np.sqrt(np.diag(covariance))
    se_gap = math.sqrt(covariance[0, 0] + covariance[1, 1] - 2 * covariance[0, 1])
    gap1, gap2 = strengths[1], strengths[2] - strengths[1]
    if gap1 <= 0 or gap2 <= 0:
        return None
    return math.ceil(
        max(
            ((INTERVAL_Z + SEPARATION_Z) * se1 / gap1) ** 2,
            ((INTERVAL_Z * (se1 + se2) + SEPARATION_Z * se_gap) / gap2) ** 2,
        )
    )


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
