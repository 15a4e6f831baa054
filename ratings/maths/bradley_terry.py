"""Bradley–Terry ratings (GameBench §3.3): MLE with a first-mover term, per-game weights and bootstrap intervals.

Model: P(a beats b) = σ(s_a − s_b + h·c), where c = +1 when a moved first, −1 when b did, 0 when
neither (pass first_mover = 0.5) — the classic "home advantage" term, fitted as one log-odds h.
A tie scores 0.5 and a partial score counts as that fraction of a win (GameBench's fractional scores).
Pure numpy; no Django.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Natural-log strength to Elo points: a difference of 1 in s is 400/ln 10 ≈ 173.7 Elo.
ELO_PER_NAT = 400.0 / np.log(10.0)

#: The default L2 prior λ (penalty λ/2·Σθ²). Small enough that, on data where the MLE exists,
#: strengths move by far less than 1e-6; large enough that an agent with only wins gets a finite
#: strength (about ln(n_wins/λ)) and an agent with no matches gets 0.
DEFAULT_PRIOR = 1e-6

#: The first-move term's Gaussian prior h ~ N(0, FIRST_MOVE_SCALE²), as a ridge penalty h²/(2·scale²). Gelman et al.
#: (2008)'s weakly informative default for a logistic coefficient is scale 2.5 on a binary input coded to differ by 1;
#: c = ±1 differs by 2, so h's scale is 1.25 log-odds. It keeps h finite when first movers won every match so far
#: (seeding), and gives way to the data within a few dozen matches.
FIRST_MOVE_SCALE = 1.25
FIRST_MOVE_PRIOR = 1.0 / FIRST_MOVE_SCALE**2


@dataclass(frozen=True)
class Fit:
    """Maximum (penalised) likelihood strengths; mean zero over agents, natural-log scale.

    Where the MLE does not exist (an agent never lost or never scored) the prior alone holds the
    strength, near ±ln(games/prior); `bootstrap` reports such bounds as ±inf.
    """

    strengths: np.ndarray
    first_move_advantage: float | None  # log-odds h; None when fitted without first_mover
    iterations: int
    converged: bool


@dataclass(frozen=True)
class Bootstrap:
    """Percentile intervals from `rounds` refits; `samples` is (rounds, n_agents) for custom summaries.

    A bound is ±inf where the data cannot bound it (an agent that never lost, never scored, or
    never played; with an anchor, an agent not linked to it both ways by chains of points taken).
    """

    lower: np.ndarray
    upper: np.ndarray
    samples: np.ndarray
    first_move_lower: float | None
    first_move_upper: float | None
    first_move_samples: np.ndarray | None


class _Model:
    """Matches folded into unique cells (i < j, first-mover sign c) with summed weight n and i's weighted score y.

    Every refit works on cells, not matches: at most n_agents² × 3 / 2 of them, however many matches.
    """

    def __init__(
        self, a, b, score_a, n_agents: int, weights, first_mover, prior: float, tol: float, first_move_prior: float
    ):
        a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
        score = np.asarray(score_a, dtype=float)
        if not (a.shape == b.shape == score.shape) or a.ndim != 1:
            raise ValueError("a, b and score_a must be 1-d arrays of the same length")
        if np.any(a == b):
            raise ValueError("an agent cannot play itself")
        if a.size and (min(a.min(), b.min()) < 0 or max(a.max(), b.max()) >= n_agents):
            raise ValueError("agent index out of range")
        if np.any((score < 0) | (score > 1)):
            raise ValueError("score_a must lie in [0, 1]")
        self.weights = np.ones(a.size) if weights is None else np.asarray(weights, dtype=float)
        c = np.zeros(a.size) if first_mover is None else 2.0 * np.asarray(first_mover, dtype=float) - 1.0
        if self.weights.shape != a.shape or c.shape != a.shape or np.any(self.weights < 0):
            raise ValueError("weights and first_mover need one entry per match; weights must be ≥ 0")
        swap = a > b
        i, j = np.where(swap, b, a), np.where(swap, a, b)
        self.score = np.where(swap, 1.0 - score, score)  # the lower-numbered agent's score
        sign = np.rint(np.where(swap, -c, c)).astype(np.int64)
        key, self.cell_of_match = np.unique((i * n_agents + j) * 3 + (sign + 1), return_inverse=True)
        self.n = np.bincount(self.cell_of_match, weights=self.weights, minlength=key.size)
        self.y = np.bincount(self.cell_of_match, weights=self.weights * self.score, minlength=key.size)
        pair = key // 3
        self.pair_starts = np.flatnonzero(np.r_[key.size > 0, pair[1:] != pair[:-1]])
        self.i, self.j, self.sign = pair // n_agents, pair % n_agents, (key % 3 - 1).astype(float)
        self.k, self.with_first_move = n_agents, first_mover is not None
        self.size = n_agents + (1 if self.with_first_move else 0)
        self.tol = tol
        # Ridge precisions: λ for every strength, the first-move term's own prior for h.
        self.precision = np.full(self.size, float(prior))
        if self.with_first_move:
            self.precision[-1] = first_move_prior
        self.pi, self.pj = self.i[self.pair_starts], self.j[self.pair_starts]
        # Scatter plans (cell values → per-agent sums) by reduceat over contiguous runs: no BLAS
        # threads, which under CPU contention were measured ~7× slower than one core.
        self.i_agents, self.i_starts = np.unique(self.i, return_index=True)
        self.j_order = np.argsort(self.j, kind="stable")
        self.j_agents, self.j_starts = np.unique(self.j[self.j_order], return_index=True)
        self.pj_order = np.argsort(self.pj, kind="stable")
        self.pi_agents, self.pi_starts = np.unique(self.pi, return_index=True)
        self.pj_agents, self.pj_starts = np.unique(self.pj[self.pj_order], return_index=True)
        # The likelihood is blind to a common shift of s; adding (Σs)²/2k to the Hessian pins the
        # gauge without moving the optimum, because every Newton step then keeps Σs = 0.
        self.fixed = np.diag(self.precision)
        self.fixed[:n_agents, :n_agents] += 1.0 / n_agents

    def eta(self, theta) -> np.ndarray:
        """Log-odds per (row, cell): θ_i − θ_j + h·c."""
        eta = theta[:, self.i] - theta[:, self.j]
        if self.with_first_move:
            eta += theta[:, -1:] * self.sign
        return eta

    def scatter(self, values) -> np.ndarray:
        """Per-parameter sums Σ_cells values·∂η/∂θ (the transpose of `eta`)."""
        out = np.zeros((values.shape[0], self.size))
        out[:, self.i_agents] += np.add.reduceat(values, self.i_starts, axis=1)
        out[:, self.j_agents] -= np.add.reduceat(values[:, self.j_order], self.j_starts, axis=1)
        if self.with_first_move:
            out[:, -1] = (values * self.sign).sum(axis=1)
        return out

    def loglik(self, eta, n, y, theta) -> np.ndarray:
        """Penalised log-likelihood per row; stable for any η."""
        softplus = np.maximum(eta, 0.0) + np.log1p(np.exp(-np.abs(eta)))  # log(1 + e^η)
        return (y * eta - n * softplus).sum(axis=1) - 0.5 * (self.precision * theta * theta).sum(axis=1)

    def backtrack(self, eta, step_eta, theta, step, n, y) -> np.ndarray:
        """Per-row step scale (1, 1/2, 1/4, …) at which the penalised log-likelihood does not fall."""
        base = self.loglik(eta, n, y, theta)
        scale = np.ones(eta.shape[0])
        for _ in range(60):
            trial = self.loglik(eta + scale[:, None] * step_eta, n, y, theta + scale[:, None] * step)
            worse = trial < base - 1e-12 * np.abs(base)
            if not worse.any():
                break
            scale[worse] *= 0.5
        return scale

    def newton(self, theta, n, y, max_iter: int = 200) -> tuple[np.ndarray, int, bool]:
        """Damped Newton on every row of θ at once (rows = bootstrap rounds) until each |step| < tol."""
        k, size = self.k, self.size
        theta = theta.copy()
        if self.i.size == 0:
            return theta, 0, True
        active = np.arange(theta.shape[0])
        eta = self.eta(theta)
        iterations = 0
        while active.size and iterations < max_iter:
            iterations += 1
            t, na, ya = theta[active], n[active], y[active]
            e = np.exp(-np.abs(eta))
            p = np.where(eta >= 0.0, 1.0, e)
            p /= 1.0 + e  # σ(η) without overflow
            v = na * p
            gradient = self.scatter(ya - v) - self.precision * t
            v *= 1.0 - p
            vp = np.add.reduceat(v, self.pair_starts, axis=1)
            hessian = np.broadcast_to(self.fixed, (active.size, size, size)).copy()
            hessian[:, self.pi, self.pj] -= vp
            hessian[:, self.pj, self.pi] -= vp
            hessian[:, self.pi_agents, self.pi_agents] += np.add.reduceat(vp, self.pi_starts, axis=1)
            hessian[:, self.pj_agents, self.pj_agents] += np.add.reduceat(vp[:, self.pj_order], self.pj_starts, axis=1)
            if self.with_first_move:
                vc = v * self.sign
                cross = self.scatter(vc)[:, :k]
                hessian[:, :k, -1] = cross
                hessian[:, -1, :k] = cross
                hessian[:, -1, -1] += (vc * self.sign).sum(axis=1)
            try:
                step = np.linalg.solve(hessian, gradient[..., None])[..., 0]
            except np.linalg.LinAlgError:  # a disconnected comparison graph with prior = 0
                step = np.stack([np.linalg.lstsq(h, g, rcond=None)[0] for h, g in zip(hessian, gradient, strict=True)])
            step_eta = self.eta(step)
            # Along a Newton step φ'(0) = −φ''(0) = c, and σ' changes by at most e^|Δη|; so when no
            # log-odds moves by more than 1, φ(1) − φ(0) ≥ c·(1 − ∫(1−α)e^α dα) = c·(3 − e) > 0: the
            # full step is an ascent. Only rows with larger steps (far from the optimum) are checked.
            big = np.flatnonzero(np.abs(step_eta).max(axis=1) > 1.0)
            if big.size:
                scale = self.backtrack(eta[big], step_eta[big], t[big], step[big], na[big], ya[big])
                step[big] *= scale[:, None]
                step_eta[big] *= scale[:, None]
            theta[active] = t + step
            moving = np.abs(step).max(axis=1) >= self.tol
            active = active[moving]
            eta = (eta + step_eta)[moving]
        return theta, iterations, active.size == 0

    def reachable(self) -> np.ndarray:
        """R[u, v]: a chain u scored against … scored against v exists (u = v included).

        A point u takes off v caps s_v − s_u, so s_v − s_u is bounded exactly when R[u, v]; where
        it is not, the MLE runs off to infinity and only the prior holds the fit (Ford's condition).
        """
        edges = np.eye(self.k, dtype=bool)
        edges[self.i[self.y > 0], self.j[self.y > 0]] = True
        edges[self.j[self.n - self.y > 0], self.i[self.n - self.y > 0]] = True
        reach = edges.astype(np.int64)
        while True:
            grown = (reach @ reach > 0).astype(np.int64)
            if np.array_equal(grown, reach):
                return reach.astype(bool)
            reach = grown

    def fit(self, max_iter: int = 200) -> tuple[np.ndarray, int, bool]:
        return self.newton(np.zeros((1, self.size)), self.n[None, :], self.y[None, :], max_iter)


def _multinomial(rng: np.random.Generator, n: int, p: np.ndarray, rounds: int) -> np.ndarray:
    """`rounds` rows of Multinomial(n, p), exactly: Poisson(λp) rows with Σ ≤ n, topped up by n − Σ categorical draws.

    Given its total s, a Poisson(λp) vector is Multinomial(s, p); adding Multinomial(n − s, p)
    makes it Multinomial(n, p). With λ = n − 2.5√n a row overshoots n with probability ~0.6%
    (redrawn). Several times faster than numpy's conditional-binomial sampler for many categories.
    """
    if n < 10_000:
        return rng.multinomial(n, p, size=rounds)
    lam = (n - 2.5 * np.sqrt(n)) * p
    counts = rng.poisson(lam, size=(rounds, p.size))
    totals = counts.sum(axis=1)
    while (over := totals > n).any():
        counts[over] = rng.poisson(lam, size=(int(over.sum()), p.size))
        totals = counts.sum(axis=1)
    cumulative = np.cumsum(p)
    rows = np.repeat(np.arange(rounds), n - totals)
    picks = np.searchsorted(cumulative, rng.random(rows.size) * cumulative[-1], side="right")
    picks = np.minimum(picks, p.size - 1)
    counts += np.bincount(rows * p.size + picks, minlength=rounds * p.size).reshape(rounds, p.size)
    return counts


def fit(
    a,
    b,
    score_a,
    *,
    n_agents: int,
    weights=None,
    first_mover=None,
    prior: float = DEFAULT_PRIOR,
    first_move_prior: float = FIRST_MOVE_PRIOR,
    tol: float = 1e-10,
    max_iter: int = 200,
) -> Fit:
    """MLE strengths for matches a[m] vs b[m] with a's score in [0, 1]; Newton to |step| < tol. `prior` is the
    strengths' ridge precision λ, `first_move_prior` the first-move term's (1 / its prior variance)."""
    model = _Model(a, b, score_a, n_agents, weights, first_mover, prior, tol, first_move_prior)
    theta, iterations, converged = model.fit(max_iter)
    strengths = theta[0, :n_agents] - theta[0, :n_agents].mean()
    advantage = float(theta[0, -1]) if model.with_first_move else None
    return Fit(strengths=strengths, first_move_advantage=advantage, iterations=iterations, converged=converged)


def reachability(a, b, score_a, *, n_agents: int, weights=None) -> np.ndarray:
    """R[u, v]: a chain of points taken, u from … from v, exists (u = v included). s_v − s_u is bounded above
    by the data exactly when R[u, v] (Ford's condition): agents reachable both ways are in one bounded group."""
    return _Model(a, b, score_a, n_agents, weights, None, DEFAULT_PRIOR, 1e-10, FIRST_MOVE_PRIOR).reachable()


def bootstrap(
    a,
    b,
    score_a,
    *,
    n_agents: int,
    rounds: int = 1000,
    rng: np.random.Generator,
    weights=None,
    first_mover=None,
    level: float = 0.95,
    anchor: int | None = None,
    draws: int | None = None,
    prior: float = DEFAULT_PRIOR,
    first_move_prior: float = FIRST_MOVE_PRIOR,
    tol: float = 1e-10,
) -> Bootstrap:
    """Percentile intervals from multinomial resampling of matches (probability ∝ weight) and refits.

    Each round draws counts ~ Multinomial(n, w/Σw) over matches and refits with the counts as
    weights (GameBench, Chatbot Arena). Matches that share (pair, first mover, score) are
    exchangeable, so the draw is made over those sub-cells: the same distribution, far fewer
    categories. Rounds are refitted together in blocks, warm-started from the full-data fit.
    With `anchor`, samples are s − s[anchor] (the anchor's interval is then [0, 0]). `draws` is each
    resample's size (default: one per row; the number of matches when rows are a match's weighted pairs).
    """
    model = _Model(a, b, score_a, n_agents, weights, first_mover, prior, tol, first_move_prior)
    full, _, _ = model.fit()
    # Sub-cells: unique (cell, score), sorted so each cell's sub-cells are contiguous.
    scores, score_index = np.unique(model.score, return_inverse=True)
    sub, sub_of_match = np.unique(model.cell_of_match * scores.size + score_index, return_inverse=True)
    sub_weight = np.bincount(sub_of_match, weights=model.weights, minlength=sub.size)
    sub_cell, sub_score = sub // scores.size, scores[sub % scores.size]
    starts = np.flatnonzero(np.r_[sub.size > 0, sub_cell[1:] != sub_cell[:-1]])
    probabilities = sub_weight / max(sub_weight.sum(), 1e-300)
    theta = np.repeat(full, rounds, axis=0)
    # Rounds go in blocks of about 2^17 sub-cells: fresh multi-megabyte temporaries cost page
    # faults that, measured here, made numpy's elementwise work several times slower.
    block = max(1, 2**17 // max(1, sub.size))
    for first in range(0, rounds if sub.size else 0, block):
        count = min(block, rounds - first)
        counts = _multinomial(rng, model.score.size if draws is None else draws, probabilities, count)
        n = np.add.reduceat(counts, starts, axis=1).astype(float)
        y = np.add.reduceat(counts * sub_score, starts, axis=1)
        theta[first : first + count] = model.newton(theta[first : first + count], n, y)[0]
    samples = theta[:, :n_agents] - theta[:, :n_agents].mean(axis=1, keepdims=True)
    if anchor is not None:
        samples = samples - samples[:, anchor : anchor + 1]
    tail = 50.0 * (1.0 - level)
    lower, upper = np.percentile(samples, [tail, 100.0 - tail], axis=0)
    reach = model.reachable()
    if anchor is None:  # s_i − mean(s) is bounded above only if every agent who played can reach i, …
        played = np.bincount(np.r_[model.i, model.j], np.r_[model.n, model.n], minlength=n_agents) > 0
        upper[~reach[played].all(axis=0) | ~played] = np.inf
        lower[~reach[:, played].all(axis=1) | ~played] = -np.inf
    else:
        upper[~reach[anchor, :]], lower[~reach[:, anchor]] = np.inf, -np.inf
    advantage = theta[:, -1].copy() if model.with_first_move else None
    bounds = (
        (None, None) if advantage is None else tuple(float(x) for x in np.percentile(advantage, [tail, 100 - tail]))
    )
    return Bootstrap(
        lower=lower,
        upper=upper,
        samples=samples,
        first_move_lower=bounds[0],
        first_move_upper=bounds[1],
        first_move_samples=advantage,
    )


def game_weights(game_ids) -> np.ndarray:
    """Per-match weight so every game counts equally: N / (G · n_game), which sums to N (mean weight 1)."""
    _, inverse, counts = np.unique(np.asarray(game_ids), return_inverse=True, return_counts=True)
    total, games = inverse.size, counts.size
    return total / (games * counts[inverse].astype(float))


def elo_scale(strengths, anchor: int | None, anchor_rating: float = 1000.0) -> np.ndarray:
    """Elo points: anchor_rating + 400/ln 10 · (s − s[anchor]) along the last axis (no shift when anchor is None)."""
    s = np.asarray(strengths, dtype=float)
    reference = 0.0 if anchor is None else s[..., anchor : anchor + 1]
    return anchor_rating + ELO_PER_NAT * (s - reference)


def rank_ranges(lower, upper) -> list[tuple[int, int]]:
    """(best, worst) rank per agent: best = 1 + #(lower_k > upper_i), worst = #(upper_k ≥ lower_i), self included."""
    lo, hi = np.asarray(lower, dtype=float), np.asarray(upper, dtype=float)
    best = 1 + (lo[None, :] > hi[:, None]).sum(axis=1)
    worst = (hi[None, :] >= lo[:, None]).sum(axis=1)
    return [(int(x), int(y)) for x, y in zip(best, worst, strict=True)]


def is_provisional(lower, upper, max_width: float = 200.0) -> np.ndarray:
    """True where the interval (in Elo points) is wider than `max_width`: too few games to rank."""
    return (np.asarray(upper, dtype=float) - np.asarray(lower, dtype=float)) > max_width
