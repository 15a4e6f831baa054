"""A leaderboard from plain match arrays: Bradley–Terry with intervals and rank ranges, Elo with its order spread, PWER.

Pure numpy; `ratings.record.refit` and `ratings.record.replay` feed it from the database, `ratings.record.services`
stores the result.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ratings.maths import bradley_terry, elo

ANCHOR_RATING = 1000.0
PROVISIONAL_WIDTH = 200.0
#: Match orders behind Elo's "±" (STAR uses 1,000): the replay is sequential, about 2.6 s per 100,000
#: results at 100 orders on the 2-core dev machine and 17 s at 1,000; 100 estimate a spread to about ±7%.
ORDER_SHUFFLES = 100


@dataclass(frozen=True)
class Matches:
    """Pairwise results in time order (`ratings.maths.pairwise`): a match of N seats is one or more rows whose
    weights sum to 1. Per row: agent indices, a's score, the pair's weight, whether a moved first, the
    match it belongs to, its rating key (game or game:variant) and STAR's PWER inputs (NaN when unknown)."""

    first: np.ndarray  # agent index a (in two-seat games the agent in seat 0, the first mover)
    second: np.ndarray
    score_first: np.ndarray  # a's score: 1, 0.5, 0 or a fraction
    weight: np.ndarray  # the pair's share of its match
    first_mover: np.ndarray  # 1 when a moved first, 0.5 when the pair has no move order (multi-seat games)
    match: np.ndarray  # match number, the same for the rows of one match
    game: np.ndarray  # rating key per row
    winner_surviving: np.ndarray
    winner_total: np.ndarray
    game_time: np.ndarray  # turns or ticks
    game_time_max: np.ndarray


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
    """Ratings (Elo-like scale, every anchor at 1000) with 95% bootstrap intervals and rank ranges, and the
    sequential Elo, its order spread, PWER and Elo history. Agents that never played get no rating.
    Returns plain lists indexed by agent."""
    cells = as_cells(matches, weight_games_equally=weight_games_equally)
    draws = np.unique(matches.match).size
    fitted = fit_cells(cells, n_agents=n_agents, anchors=anchors, rounds=rounds, draws=draws, seed=seed)
    return fitted | sequential(matches, n_agents=n_agents, rounds=rounds, seed=seed)


@dataclass(frozen=True)
class Cells:
    """Pairwise results for Bradley–Terry, one per row or summed per (pair, first mover, score): the fit is the same."""

    first: np.ndarray
    second: np.ndarray
    score_first: np.ndarray
    weight: np.ndarray  # summed pair weights, times the per-game weight when games count equally
    first_mover: np.ndarray


def as_cells(matches: Matches, *, weight_games_equally: bool = True) -> Cells:
    """The rows as Bradley–Terry sees them: each pair's weight times its match's per-game weight."""
    weights = matches.weight * (_game_weights(matches) if weight_games_equally else 1.0)
    return Cells(matches.first, matches.second, matches.score_first, weights, matches.first_mover)


def fit_cells(cells: Cells, *, n_agents: int, anchors: list[int], rounds: int, draws: int, seed: int = 0) -> dict:
    """Bradley–Terry ratings with 95% bootstrap intervals (each resample draws `draws` matches), rank ranges,
    provisional flags and the first-move term.

    Every anchor (each game's Lv0, a uniform-random player) is pinned at ANCHOR_RATING: the anchors are fitted as
    one agent, GameBench's single random agent, so each game's bots sit on the scale of their own game's Lv0 and
    intervals are of s − s_anchor."""
    played = np.bincount(np.r_[cells.first, cells.second], minlength=n_agents) > 0
    anchors = [a for a in anchors if played[a]]
    merged = np.arange(n_agents)
    merged[anchors] = anchors[0] if anchors else 0
    first, second = merged[cells.first], merged[cells.second]
    keep = first != second  # two anchors never meet (each is its own game's); kept safe all the same
    fit = bradley_terry.fit(
        first[keep],
        second[keep],
        cells.score_first[keep],
        n_agents=n_agents,
        weights=cells.weight[keep],
        first_mover=cells.first_mover[keep],
    )
    anchor = anchors[0] if anchors else None
    boot = bradley_terry.bootstrap(
        first[keep],
        second[keep],
        cells.score_first[keep],
        n_agents=n_agents,
        rounds=rounds,
        rng=np.random.default_rng(seed),
        weights=cells.weight[keep],
        first_mover=cells.first_mover[keep],
        draws=draws,
        anchor=anchor,
    )
    # Without an anchor the scale is the mean strength (s − mean(s) bounded only where every agent links to it).
    shift = 0.0 if anchor is None else fit.strengths[anchor]
    scale = bradley_terry.ELO_PER_NAT
    rating = ANCHOR_RATING + scale * (fit.strengths[merged] - shift)
    samples = boot.samples[:, merged]
    lower, upper = np.percentile(ANCHOR_RATING + scale * samples, [2.5, 97.5], axis=0)
    lower = np.where(np.isfinite(boot.lower[merged]), lower, -np.inf)
    upper = np.where(np.isfinite(boot.upper[merged]), upper, np.inf)
    lower[~played], upper[~played], rating[~played] = -np.inf, np.inf, np.nan
    ranks = bradley_terry.rank_ranges(np.where(played, lower, -np.inf), np.where(played, upper, -np.inf))
    return {
        "rating": [_finite(x) for x in rating],
        "lower": [_finite(x) for x in lower],
        "upper": [_finite(x) for x in upper],
        "rank": [list(r) for r in ranks],
        "provisional": [
            bool(not p or not (hi - lo <= PROVISIONAL_WIDTH)) for p, lo, hi in zip(played, lower, upper, strict=True)
        ],
        "played": [bool(p) for p in played],
        "first_move_advantage": None if fit.first_move_advantage is None else round(fit.first_move_advantage, 4) + 0.0,
        "first_move_interval": [boot.first_move_lower, boot.first_move_upper],
    }


def sequential(matches: Matches, *, n_agents: int, rounds: int, seed: int = 0) -> dict:
    """What depends on the order of matches: sequential Elo, its spread over random orders, PWER, Elo history."""
    serial = elo.sequential_elo(
        matches.first, matches.second, matches.score_first, n_agents=n_agents, multiplier=matches.weight
    )
    _, spread = elo.order_spread(
        matches.first,
        matches.second,
        matches.score_first,
        n_agents=n_agents,
        rng=np.random.default_rng(seed),
        shuffles=min(rounds, ORDER_SHUFFLES),
        multiplier=matches.weight,
    )
    performance = elo.pwer(
        matches.first,
        matches.second,
        matches.score_first,
        n_agents=n_agents,
        winner_surviving=matches.winner_surviving,
        winner_total=matches.winner_total,
        game_time=matches.game_time,
        game_time_max=matches.game_time_max,
        weights=matches.weight,
    )
    return {
        "elo": [round(float(x), 1) for x in serial.ratings],
        "elo_spread": [round(float(x), 1) for x in spread],
        "pwer": [round(float(x), 1) for x in performance.ratings],
        "elo_history": _history(matches, serial, n_agents),
    }


def _game_weights(matches: Matches) -> np.ndarray:
    """Per row, its match's per-game weight (`bradley_terry.game_weights` over matches, not rows)."""
    if not matches.match.size:
        return np.ones(0)
    _, first_row, row_match = np.unique(matches.match, return_index=True, return_inverse=True)
    return bradley_terry.game_weights(matches.game[first_row])[row_match]


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
