"""A leaderboard from plain match arrays: Bradley–Terry with intervals and rank ranges, Elo, PWER.

Pure numpy; `ratings.services` feeds it from the database and stores the result as a snapshot.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ratings import bradley_terry, elo

ANCHOR_RATING = 1000.0
PROVISIONAL_WIDTH = 200.0


@dataclass(frozen=True)
class Matches:
    """Two-seat results in time order: agent indices, seat 0's score, game, duration."""

    first: np.ndarray  # agent index in seat 0 (the first mover)
    second: np.ndarray
    score_first: np.ndarray  # 1, 0.5 or 0
    game: np.ndarray  # game slug per match
    duration_s: np.ndarray


def _finite(value: float) -> float | None:
    return None if not math.isfinite(value) else round(float(value), 1)


def compute(
    matches: Matches,
    *,
    n_agents: int,
    anchors: list[int],
    rounds: int,
    seed: int = 0,
    weight_games_equally: bool = True,
) -> dict:
    """Ratings (Elo-like scale, anchors' mean at 1000) with 95% bootstrap intervals and rank ranges.

    Agents that never played get no rating. Returns plain lists indexed by agent.
    """
    weights = bradley_terry.game_weights(matches.game) if weight_games_equally and matches.game.size else None
    fit = bradley_terry.fit(
        matches.first,
        matches.second,
        matches.score_first,
        n_agents=n_agents,
        weights=weights,
        first_mover=np.ones(matches.first.size),
    )
    boot = bradley_terry.bootstrap(
        matches.first,
        matches.second,
        matches.score_first,
        n_agents=n_agents,
        rounds=rounds,
        rng=np.random.default_rng(seed),
        weights=weights,
        first_mover=np.ones(matches.first.size),
    )
    played = np.bincount(np.r_[matches.first, matches.second], minlength=n_agents) > 0
    anchors = [a for a in anchors if played[a]]
    shift = fit.strengths[anchors].mean() if anchors else 0.0
    sample_shift = boot.samples[:, anchors].mean(axis=1, keepdims=True) if anchors else 0.0
    scale = bradley_terry.ELO_PER_NAT
    rating = ANCHOR_RATING + scale * (fit.strengths - shift)
    lower, upper = np.percentile(ANCHOR_RATING + scale * (boot.samples - sample_shift), [2.5, 97.5], axis=0)
    lower = np.where(np.isfinite(boot.lower), lower, -np.inf)
    upper = np.where(np.isfinite(boot.upper), upper, np.inf)
    lower[~played], upper[~played], rating[~played] = -np.inf, np.inf, np.nan
    ranks = bradley_terry.rank_ranges(np.where(played, lower, -np.inf), np.where(played, upper, -np.inf))
    serial = elo.sequential_elo(matches.first, matches.second, matches.score_first, n_agents=n_agents)
    # Board games have no surviving units (U = 0); T is the match's wall-clock duration (STAR's T).
    performance = elo.pwer(
        matches.first,
        matches.second,
        matches.score_first,
        n_agents=n_agents,
        winner_surviving=np.zeros(matches.first.size),
        winner_total=np.ones(matches.first.size),
        duration_s=matches.duration_s,
    )
    return {
        "rating": [_finite(x) for x in rating],
        "lower": [_finite(x) for x in lower],
        "upper": [_finite(x) for x in upper],
        "rank": [list(r) for r in ranks],
        "provisional": [
            bool(not p or not (hi - lo <= PROVISIONAL_WIDTH)) for p, lo, hi in zip(played, lower, upper, strict=True)
        ],
        "played": [bool(p) for p in played],
        "elo": [round(float(x), 1) for x in serial.ratings],
        "pwer": [round(float(x), 1) for x in performance.ratings],
        "elo_history": _history(matches, serial, n_agents),
        "first_move_advantage": None if fit.first_move_advantage is None else round(fit.first_move_advantage, 4),
        "first_move_interval": [boot.first_move_lower, boot.first_move_upper],
    }


#: Points kept per rating-history line: enough for a chart, small enough to keep snapshots light.
HISTORY_POINTS = 200


def _history(matches: Matches, run: elo.EloRun, n_agents: int) -> list[list[list[float]]]:
    """Each agent's [match number, Elo after it] in order, thinned evenly to HISTORY_POINTS (last kept)."""
    history: list[list[float]] = [[] for _ in range(n_agents)]
    for m in range(matches.first.size):
        history[int(matches.first[m])].append(round(float(run.after[m, 0]), 1))
        history[int(matches.second[m])].append(round(float(run.after[m, 1]), 1))
    thinned = []
    for line in history:
        keep = np.unique(np.linspace(0, len(line) - 1, min(len(line), HISTORY_POINTS)).round().astype(int))
        thinned.append([[int(i) + 1, line[i]] for i in keep] if line else [])
    return thinned
