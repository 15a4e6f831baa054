"""Sequential Elo (STAR's SER) and performance-weighted Elo (STAR's PWER) over an ordered list of results.

STAR §3 (paper 001): E_A = 1 / (1 + 10^((R_B − R_A)/ξ)), R'_A = R_A + K·M·(S_A − E_A) with ξ = 400,
K = 32, start 1000; SER has M = 1, PWER has M = 1 + α·U + β·T, U = N_surviving / N_total of the
winner and T = 1 − min(T_game / T_max, 1). The paper leaves α and β open; its code uses α = β = 0.5,
applies the winner's M to both players (so updates stay zero-sum), uses M = 1 for ties and treats a
missing game time as T_max. We follow the code; T_game and T_max are the match's own game time and
horizon (turns or ticks), given per match. Pure numpy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

K_FACTOR = 32.0
SCALE = 400.0
INITIAL_RATING = 1000.0
ALPHA = 0.5
BETA = 0.5


@dataclass(frozen=True)
class EloRun:
    """Final ratings plus, per match in order, both players' ratings before and after and the multiplier M."""

    ratings: np.ndarray  # (n_agents,)
    before: np.ndarray  # (matches, 2): rating of a, rating of b before the match
    after: np.ndarray  # (matches, 2)
    multiplier: np.ndarray  # (matches,): 1 for SER


def expected_score(rating_a, rating_b, scale: float = SCALE):
    """E_A = 1 / (1 + 10^((R_B − R_A)/scale)), elementwise."""
    return 1.0 / (1.0 + np.power(10.0, (np.asarray(rating_b, dtype=float) - np.asarray(rating_a, dtype=float)) / scale))


def _arrays(a, b, score_a):
    a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    score = np.asarray(score_a, dtype=float)
    if not (a.shape == b.shape == score.shape) or a.ndim != 1:
        raise ValueError("a, b and score_a must be 1-d arrays of the same length")
    if np.any(a == b):
        raise ValueError("an agent cannot play itself")
    if np.any((score < 0) | (score > 1)):
        raise ValueError("score_a must lie in [0, 1]")
    return a, b, score


def sequential_elo(
    a,
    b,
    score_a,
    *,
    n_agents: int,
    k: float = K_FACTOR,
    scale: float = SCALE,
    initial: float = INITIAL_RATING,
    multiplier=None,
) -> EloRun:
    """Elo updated match by match in the given order (SER); `multiplier` (per match) scales K, as PWER does."""
    a, b, score = _arrays(a, b, score_a)
    m = np.ones(a.size) if multiplier is None else np.asarray(multiplier, dtype=float)
    ratings = np.full(n_agents, float(initial))
    before = np.empty((a.size, 2))
    after = np.empty((a.size, 2))
    for index in range(a.size):
        ra, rb = ratings[a[index]], ratings[b[index]]
        delta = k * m[index] * (score[index] - expected_score(ra, rb, scale))
        before[index] = ra, rb
        ratings[a[index]] = ra + delta
        ratings[b[index]] = rb - delta  # (1 − S_A) − (1 − E_A) = −(S_A − E_A): zero-sum
        after[index] = ratings[a[index]], ratings[b[index]]
    return EloRun(ratings=ratings, before=before, after=after, multiplier=m)


def performance_multiplier(
    score_a,
    winner_surviving,
    winner_total,
    game_time,
    game_time_max,
    *,
    alpha: float = ALPHA,
    beta: float = BETA,
) -> np.ndarray:
    """STAR's M = 1 + α·U + β·T per match from the winner's units and the game's length; 1 for a tie.

    U = surviving / total units of the winner, T = 1 − min(game_time / game_time_max, 1). Missing
    values (None or NaN) count as no bonus: U = 0 without unit counts (the paper gives no rule;
    assuming a fixed army, as STAR's script does, would invent data) and T = 0 without a game time
    (STAR's script treats a missing duration as T_max).
    """
    score = np.asarray(score_a, dtype=float)
    surviving = np.asarray(winner_surviving, dtype=float)
    total = np.asarray(winner_total, dtype=float)
    elapsed = np.asarray(game_time, dtype=float)
    horizon = np.asarray(game_time_max, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        units = np.where(total > 0, surviving / total, np.nan)
        time_efficiency = np.where(horizon > 0, 1.0 - np.minimum(elapsed / horizon, 1.0), np.nan)
    units = np.nan_to_num(np.clip(units, 0.0, 1.0), nan=0.0)
    time_efficiency = np.nan_to_num(np.maximum(time_efficiency, 0.0), nan=0.0)
    return np.where(score == 0.5, 1.0, 1.0 + alpha * units + beta * time_efficiency)


def pwer(
    a,
    b,
    score_a,
    *,
    n_agents: int,
    winner_surviving,
    winner_total,
    game_time,
    game_time_max,
    weights=None,
    alpha: float = ALPHA,
    beta: float = BETA,
    k: float = K_FACTOR,
    scale: float = SCALE,
    initial: float = INITIAL_RATING,
) -> EloRun:
    """Performance-weighted Elo: sequential Elo with K·M (times a pair's weight), M from `performance_multiplier`."""
    a, b, score = _arrays(a, b, score_a)
    m = performance_multiplier(
        score,
        _as_float(winner_surviving, a.size),
        _as_float(winner_total, a.size),
        _as_float(game_time, a.size),
        _as_float(game_time_max, a.size),
        alpha=alpha,
        beta=beta,
    )
    if weights is not None:
        m = m * np.asarray(weights, dtype=float)
    return sequential_elo(a, b, score, n_agents=n_agents, k=k, scale=scale, initial=initial, multiplier=m)


def _as_float(values, size: int) -> np.ndarray:
    """Sequence with None → NaN, so missing data can be passed straight from the record."""
    if values is None:
        return np.full(size, np.nan)
    return np.array([np.nan if v is None else float(v) for v in values], dtype=float)


def order_spread(
    a,
    b,
    score_a,
    *,
    n_agents: int,
    rng: np.random.Generator,
    shuffles: int = 1000,
    multiplier=None,
    k: float = K_FACTOR,
    scale: float = SCALE,
    initial: float = INITIAL_RATING,
) -> tuple[np.ndarray, np.ndarray]:
    """Mean and standard deviation of final ratings over random match orders (STAR's "±", per its code).

    This measures sensitivity to order, not sampling uncertainty. All shuffles run at once.
    """
    a, b, score = _arrays(a, b, score_a)
    m = np.ones(a.size) if multiplier is None else np.asarray(multiplier, dtype=float)
    orders = np.argsort(rng.random((shuffles, a.size)), axis=1)
    ratings = np.full((shuffles, n_agents), float(initial))
    rows = np.arange(shuffles)
    for step in range(a.size):
        index = orders[:, step]
        ia, ib = a[index], b[index]
        ra, rb = ratings[rows, ia], ratings[rows, ib]
        delta = k * m[index] * (score[index] - expected_score(ra, rb, scale))
        ratings[rows, ia] = ra + delta
        ratings[rows, ib] = rb - delta
    return ratings.mean(axis=0), ratings.std(axis=0)
