"""A study's pooled human baseline on the leaderboard's scale, with intervals from resampling participants.

Pure numpy (no Django). Rows are pairwise results as the leaderboard fits them (`ratings.maths.leaderboard`); the
study's participants are one pooled agent. A bootstrap round draws participants with replacement and weights
each participant's rows by how often they were drawn, while rows between other agents keep their weight: the
interval says how much the baseline depends on which people took part, not on which of their matches.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ratings.maths import bradley_terry
from ratings.maths.leaderboard import ANCHOR_RATING


@dataclass(frozen=True)
class Rows:
    """Pairwise results: agent indices a and b, a's score, weight, 1 when a moved first (0.5: no order), and the
    study participant whose row it is (index 0…P−1) or −1 for rows between other agents."""

    a: np.ndarray
    b: np.ndarray
    score_a: np.ndarray
    weight: np.ndarray
    first_mover: np.ndarray
    participant: np.ndarray


def pooled_rating(rows: Rows, *, n_agents: int, pooled: int, anchors: list[int], weight=None) -> float:
    """The pooled agent's rating: ANCHOR_RATING + 400/ln 10 · (s_pooled − mean s over the anchors that played);
    ±inf when, with these weights, it never dropped a point (or never scored one) — the data cannot bound it."""
    weight = rows.weight if weight is None else weight
    mine = (weight > 0) & ((rows.a == pooled) | (rows.b == pooled))
    if not mine.any():
        return float("nan")
    scored = np.where(rows.a[mine] == pooled, rows.score_a[mine], 1.0 - rows.score_a[mine])
    if (scored >= 1.0).all():
        return float("inf")
    if (scored <= 0.0).all():
        return float("-inf")
    fit = bradley_terry.fit(
        rows.a, rows.b, rows.score_a, n_agents=n_agents, weights=weight, first_mover=rows.first_mover
    )
    played = np.bincount(np.r_[rows.a[weight > 0], rows.b[weight > 0]], minlength=n_agents) > 0
    anchors = [i for i in anchors if played[i]]
    shift = fit.strengths[anchors].mean() if anchors else 0.0
    return float(ANCHOR_RATING + bradley_terry.ELO_PER_NAT * (fit.strengths[pooled] - shift))


def resample_ratings(rows: Rows, *, n_agents: int, pooled: int, anchors: list[int], counts: np.ndarray) -> np.ndarray:
    """The pooled rating for each resample: `counts[r, p]` is how often participant p was drawn in round r."""
    counts = np.asarray(counts, dtype=float)
    ratings = np.empty(counts.shape[0])
    own = rows.participant >= 0
    for r, drawn in enumerate(counts):
        multiplier = np.where(own, drawn[np.where(own, rows.participant, 0)], 1.0)
        ratings[r] = pooled_rating(
            rows, n_agents=n_agents, pooled=pooled, anchors=anchors, weight=rows.weight * multiplier
        )
    return ratings


def participant_draws(participants: int, rounds: int, rng: np.random.Generator) -> np.ndarray:
    """`rounds` bootstrap draws of `participants` participants with replacement, as counts per participant."""
    return rng.multinomial(participants, np.full(participants, 1.0 / participants), size=rounds)


def interval(samples: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """Percentile interval without interpolation (the lower bound rounds down, the upper up), so an unbounded
    resample (±inf) gives an infinite bound only when it falls in the tails."""
    tail = 50.0 * (1.0 - level)
    finite = samples[~np.isnan(samples)]
    if not finite.size:
        return float("-inf"), float("inf")
    low = float(np.percentile(finite, tail, method="lower"))
    high = float(np.percentile(finite, 100.0 - tail, method="higher"))
    return low, high
