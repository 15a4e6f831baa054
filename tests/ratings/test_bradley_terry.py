"""Bradley–Terry: agreement with choix, ties, the first-mover term, per-game weights, bootstrap and rank ranges."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ratings.maths import bradley_terry as bt


def synthetic(strengths, matches: int, seed: int, advantage: float = 0.0):
    """Random pairings, random first mover, decisive results drawn from the model itself."""
    rng = np.random.default_rng(seed)
    k = len(strengths)
    s = np.asarray(strengths, dtype=float)
    a = rng.integers(0, k, matches)
    b = (a + rng.integers(1, k, matches)) % k
    first = rng.integers(0, 2, matches)
    p = 1.0 / (1.0 + np.exp(-(s[a] - s[b] + advantage * (2 * first - 1))))
    return a, b, (rng.random(matches) < p).astype(float), first


def test_agrees_with_choix_on_decisive_data():
    import choix  # here: it loads scipy.stats, a second of every test process's collection

    truth = [1.2, 0.6, 0.1, -0.3, -0.5, -1.1, 0.0, 0.4]
    a, b, score, _ = synthetic(truth, 3000, seed=1)
    ours = bt.fit(a, b, score, n_agents=8)
    data = [(int(x), int(y)) if won else (int(y), int(x)) for x, y, won in zip(a, b, score, strict=True)]
    reference = choix.ilsr_pairwise(8, data, alpha=0.0, max_iter=10_000, tol=1e-14)
    reference -= reference.mean()
    assert ours.converged
    assert ours.strengths.mean() == pytest.approx(0.0, abs=1e-12)
    assert np.abs(ours.strengths - reference).max() < 1e-6
    optimised = choix.opt_pairwise(8, data, alpha=1e-9, tol=1e-12)
    assert np.abs(ours.strengths - (optimised - optimised.mean())).max() < 1e-5


def test_weights_act_like_repeated_matches():
    a, b, score, _ = synthetic([0.5, 0.0, -0.5], 200, seed=2)
    weights = np.random.default_rng(3).integers(1, 4, a.size)
    weighted = bt.fit(a, b, score, n_agents=3, weights=weights)
    repeated = bt.fit(np.repeat(a, weights), np.repeat(b, weights), np.repeat(score, weights), n_agents=3)
    assert weighted.strengths == pytest.approx(repeated.strengths, abs=1e-9)


def test_ties_count_half_by_hand():
    # Chain 0–1–2 with no 0–2 games, so each pair's MLE is its own: 0 scores 1.5 of 2 against 1
    # (a win and a draw) ⇒ σ(s0 − s1) = 0.75 ⇒ s0 − s1 = ln 3; likewise s1 − s2 = ln 3.
    # Mean zero ⇒ s = (ln 3, 0, −ln 3). The reversed listing (b first) must give the same.
    # The exact MLE needs prior = 0; the default prior (1e-6) moves it by ~λ·s/information ≈ 3e-6 here.
    exact = bt.fit([0, 0, 1, 2], [1, 1, 2, 1], [1.0, 0.5, 0.5, 0.0], n_agents=3, prior=0.0)
    assert exact.strengths == pytest.approx([math.log(3), 0.0, -math.log(3)], abs=1e-9)
    default = bt.fit([0, 0, 1, 2], [1, 1, 2, 1], [1.0, 0.5, 0.5, 0.0], n_agents=3)
    assert default.strengths == pytest.approx(exact.strengths, abs=1e-5)


def test_a_draw_equals_half_a_win_plus_half_a_loss():
    a, b, score = [0, 1, 2, 0], [1, 2, 0, 2], [0.5, 1.0, 0.5, 1.0]
    # Each draw becomes a win and a loss of weight ½ each; decisive games keep weight 1.
    halves = bt.fit(
        [0, 0, 1, 2, 2, 0], [1, 1, 2, 0, 0, 2], [1, 0, 1, 1, 0, 1], n_agents=3, weights=[0.5, 0.5, 1, 0.5, 0.5, 1]
    )
    assert bt.fit(a, b, score, n_agents=3).strengths == pytest.approx(halves.strengths, abs=1e-9)


def test_first_move_advantage_is_recovered():
    truth = np.array([0.8, 0.3, 0.0, -0.4, -0.7])
    a, b, score, first = synthetic(truth, 40_000, seed=4, advantage=0.4)
    fit = bt.fit(a, b, score, n_agents=5, first_mover=first)
    # Standard error of h here is about 2/√40000 = 0.01.
    assert fit.first_move_advantage == pytest.approx(0.4, abs=0.05)
    assert fit.strengths == pytest.approx(truth - truth.mean(), abs=0.06)
    without = bt.fit(a, b, score, n_agents=5)
    assert without.first_move_advantage is None


def test_first_mover_half_means_no_first_mover():
    a, b, score, _ = synthetic([0.5, -0.5], 300, seed=5)
    neutral = bt.fit(a, b, score, n_agents=2, first_mover=np.full(a.size, 0.5))
    assert neutral.strengths == pytest.approx(bt.fit(a, b, score, n_agents=2).strengths, abs=1e-9)


def test_game_weights_make_each_game_count_equally():
    # Game X: 80 matches, agent 0 wins 60 (75%). Game Y: 20 matches, agent 0 wins 5 (25%).
    # Pooled, 0 wins 65/100 ⇒ s0 − s1 = logit(0.65). Weighted N/(G·n): X 100/160 = 0.625, Y 100/40 = 2.5;
    # weighted wins 60·0.625 + 5·2.5 = 50 of 100 ⇒ s0 − s1 = 0: the games cancel.
    games = ["x"] * 80 + ["y"] * 20
    score = [1.0] * 60 + [0.0] * 20 + [1.0] * 5 + [0.0] * 15
    a, b = [0] * 100, [1] * 100
    weights = bt.game_weights(games)
    assert weights[:80] == pytest.approx([0.625] * 80)
    assert weights[80:] == pytest.approx([2.5] * 20)
    assert weights.sum() == pytest.approx(100.0)
    pooled = bt.fit(a, b, score, n_agents=2).strengths
    assert pooled[0] - pooled[1] == pytest.approx(math.log(0.65 / 0.35), abs=1e-6)
    balanced = bt.fit(a, b, score, n_agents=2, weights=weights).strengths
    assert balanced[0] - balanced[1] == pytest.approx(0.0, abs=1e-6)


def test_all_wins_and_absent_agents_stay_finite():
    # Agent 0 beats everyone every time (no MLE); agent 3 never plays. The tiny prior keeps both finite.
    fit = bt.fit([0, 0, 1, 2, 1], [1, 2, 2, 1, 0], [1, 1, 1, 0.5, 0], n_agents=4)
    assert fit.converged
    assert np.isfinite(fit.strengths).all()
    assert fit.strengths[0] > fit.strengths[1] > fit.strengths[2]
    assert fit.strengths[0] > 5


def test_bootstrap_contains_truth_and_is_reproducible():
    truth = np.array([1.0, 0.5, 0.0, -0.2, -0.4, -0.9])
    a, b, score, first = synthetic(truth, 4000, seed=6, advantage=0.3)
    result = bt.bootstrap(a, b, score, n_agents=6, rounds=300, rng=np.random.default_rng(11), first_mover=first)
    centred = truth - truth.mean()
    assert ((result.lower <= centred) & (centred <= result.upper)).all()
    assert result.first_move_lower < 0.3 < result.first_move_upper
    assert (result.upper - result.lower < 0.5).all()
    again = bt.bootstrap(a, b, score, n_agents=6, rounds=300, rng=np.random.default_rng(11), first_mover=first)
    assert np.array_equal(result.samples, again.samples)
    other = bt.bootstrap(a, b, score, n_agents=6, rounds=300, rng=np.random.default_rng(12), first_mover=first)
    assert not np.array_equal(result.samples, other.samples)


def test_bootstrap_refits_converge_to_each_resample():
    # Each bootstrap row must be the MLE of its own resample, not a warm start left unconverged.
    a, b, score, _ = synthetic([0.7, 0.0, -0.7], 20_000, seed=7)
    result = bt.bootstrap(a, b, score, n_agents=3, rounds=5, rng=np.random.default_rng(3), prior=0.0)
    full = bt.fit(a, b, score, n_agents=3, prior=0.0).strengths
    assert np.abs(result.samples - full).max() < 0.1  # near the full fit…
    assert np.abs(result.samples - full).max() > 1e-4  # …but genuinely refitted


def test_bootstrap_with_anchor_pins_the_anchor_at_zero():
    a, b, score, _ = synthetic([0.5, 0.0, -0.5], 600, seed=8)
    result = bt.bootstrap(a, b, score, n_agents=3, rounds=50, rng=np.random.default_rng(0), anchor=2)
    assert result.lower[2] == result.upper[2] == 0.0
    assert result.lower[0] > 0.0


def test_multinomial_sampler_matches_the_multinomial_moments():
    p = np.array([0.5, 0.3, 0.15, 0.05, 0.0])
    draws = bt._multinomial(np.random.default_rng(1), 20_000, p, 4000)
    assert (draws.sum(axis=1) == 20_000).all()
    assert draws[:, -1].max() == 0
    # Mean n·p and variance n·p(1 − p), each within a few standard errors.
    assert draws.mean(axis=0) == pytest.approx(20_000 * p, abs=3.0)
    assert draws.var(axis=0) == pytest.approx(20_000 * p * (1 - p), rel=0.08, abs=1e-9)
    # Covariance −n·p_i·p_j between the two largest categories.
    assert np.cov(draws[:, 0], draws[:, 1])[0, 1] == pytest.approx(-20_000 * 0.5 * 0.3, rel=0.08)


def test_elo_scale_anchors_the_random_bot():
    ratings = bt.elo_scale(np.array([math.log(10), 0.0, -1.0]), anchor=1)
    assert ratings == pytest.approx([1400.0, 1000.0, 1000.0 - 400 / math.log(10)])
    assert bt.elo_scale(np.array([[0.0, 1.0]]), anchor=0, anchor_rating=1500)[0, 1] == pytest.approx(1673.7177928)


def test_rank_ranges_on_hand_made_intervals():
    # best = 1 + #(others' lower > my upper); worst = #(uppers ≥ my lower), me included.
    lower = [0.9, 0.5, 0.4, -1.0]
    upper = [1.2, 1.0, 0.6, -0.5]
    # Agent 0: nobody's lower > 1.2 → best 1; uppers ≥ 0.9: 1.2, 1.0 → worst 2.
    # Agent 1: nobody's lower > 1.0 → 1; uppers ≥ 0.5: 1.2, 1.0, 0.6 → 3.
    # Agent 2: lower 0.9 > 0.6 → 2; uppers ≥ 0.4: three → 3.
    # Agent 3: three lowers > −0.5 → 4; all four uppers ≥ −1 → 4.
    assert bt.rank_ranges(lower, upper) == [(1, 2), (1, 3), (2, 3), (4, 4)]


def test_is_provisional_by_width():
    assert bt.is_provisional([900, 950, 0], [1100, 1151, 10], max_width=200).tolist() == [False, True, False]


def test_invalid_input_is_rejected():
    with pytest.raises(ValueError, match="itself"):
        bt.fit([0], [0], [1.0], n_agents=2)
    with pytest.raises(ValueError, match="range"):
        bt.fit([0], [2], [1.0], n_agents=2)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        bt.fit([0], [1], [1.5], n_agents=2)


def test_first_mover_fit_solves_the_score_equations():
    # At the MLE each agent's expected score equals its actual score, and the first movers' expected
    # wins equal their actual wins: the gradient of the log-likelihood is zero (both priors off here).
    a, b, score, first = synthetic([0.6, 0.1, -0.2, -0.5], 2000, seed=9, advantage=0.25)
    fit = bt.fit(a, b, score, n_agents=4, first_mover=first, prior=0.0, first_move_prior=0.0)
    s, h = fit.strengths, fit.first_move_advantage
    residual = score - 1.0 / (1.0 + np.exp(-(s[a] - s[b] + h * (2 * first - 1))))
    per_agent = np.bincount(a, residual, minlength=4) - np.bincount(b, residual, minlength=4)
    assert np.abs(per_agent).max() < 1e-8
    assert abs(float(residual @ (2 * first - 1))) < 1e-8


def two_agents_each_first(n: int, first_mover_wins: float):
    """A and B each move first in n matches (weight n); the first mover scores `first_mover_wins` of them."""
    a, b, first = [0, 1], [1, 0], [1.0, 1.0]
    # A cell's weight n with score fraction w/n: a wins-and-losses split as two weighted rows each.
    return (
        [*a, *a],
        [*b, *b],
        [1.0, 1.0, 0.0, 0.0],
        [first_mover_wins, first_mover_wins, n - first_mover_wins, n - first_mover_wins],
        [*first, *first],
    )


def test_the_first_move_term_is_the_posterior_mode_under_its_gaussian_prior():
    # By symmetry s_A = s_B, and ∂/∂h of the penalised log-likelihood is 2w − 2n·σ(h) − h/σ_h². With n = 10 and
    # the first mover scoring w = 10·σ(ln 3) + ln 3/(2σ_h²) = 7.5 + 0.32·ln 3, the mode is exactly h = ln 3.
    w = 7.5 + 0.5 * bt.FIRST_MOVE_PRIOR * math.log(3.0)
    a, b, score, weights, first = two_agents_each_first(10, w)
    fit = bt.fit(a, b, score, n_agents=2, weights=weights, first_mover=first)
    assert fit.first_move_advantage == pytest.approx(math.log(3.0), abs=1e-9)
    assert fit.strengths == pytest.approx([0.0, 0.0], abs=1e-9)
    assert bt.FIRST_MOVE_SCALE == 1.25


def test_first_movers_winning_every_match_give_a_bounded_first_move_term():
    # 10 + 10 matches, every one won by the first mover: the MLE of h is +∞ (a near-flat ridge held only by a
    # 1e-6 prior gave ~17 log-odds). Under N(0, 1.25²) the mode solves 20·σ(−h) = h/1.25², h = 2.46…
    a, b, score, weights, first = two_agents_each_first(10, 10.0)
    h = bt.fit(a, b, score, n_agents=2, weights=weights, first_mover=first).first_move_advantage
    assert 20.0 / (1.0 + math.exp(h)) == pytest.approx(h * bt.FIRST_MOVE_PRIOR, abs=1e-9)
    assert h == pytest.approx(2.4599, abs=1e-4)
    boot = bt.bootstrap(
        a, b, score, n_agents=2, rounds=200, rng=np.random.default_rng(1), weights=weights, first_mover=first, draws=20
    )
    assert 1.0 < boot.first_move_lower < h < boot.first_move_upper < 4.0  # reported with a finite interval


def test_bounds_the_data_cannot_fix_are_infinite():
    # 0 beats 1 and 2 every time; 1 and 2 split; 3 never plays. Anchored at 2 (the random bot):
    # 0's rating has no upper bound (nobody ever scored against it) but a lower one (it beat 2);
    # 1 is linked to 2 both ways, so both its bounds are finite; 3 is unknown both ways.
    a, b, score = [0, 0, 1, 2, 1, 0], [1, 2, 2, 1, 0, 2], [1, 1, 1, 0.5, 0, 1]
    result = bt.bootstrap(a, b, score, n_agents=4, rounds=50, rng=np.random.default_rng(0), anchor=2)
    assert np.isfinite(result.lower[0])
    assert result.upper[0] == np.inf
    assert np.isfinite([result.lower[1], result.upper[1]]).all()
    assert (result.lower[3], result.upper[3]) == (-np.inf, np.inf)
    assert bt.is_provisional(bt.elo_scale(result.lower, None), bt.elo_scale(result.upper, None))[[0, 3]].all()
    # Without an anchor the mean moves with 0, so 1 and 2 lose their lower bounds too.
    free = bt.bootstrap(a, b, score, n_agents=4, rounds=50, rng=np.random.default_rng(0))
    assert free.upper[0] == np.inf
    assert free.lower[1] == free.lower[2] == -np.inf


def test_no_matches_at_all():
    assert bt.fit([], [], [], n_agents=2).strengths.tolist() == [0.0, 0.0]
    result = bt.bootstrap([], [], [], n_agents=2, rounds=5, rng=np.random.default_rng(0))
    assert result.lower.tolist() == [-np.inf, -np.inf]
    assert result.upper.tolist() == [np.inf, np.inf]
