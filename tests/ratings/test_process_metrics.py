"""Every process metric against a small decision trace worked out by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ratings.maths import process_metrics as pm
from ratings.maths.metrics import Estimate, wilson_interval


def played(match, number, won, **fields) -> pm.RoundRecord:
    first = {"g1": True}.get(match, False)
    return pm.RoundRecord(agent="m", match=match, round=number, won=won, first_mover=first, **fields)


# One model, three matches of three rounds. g1 it moves first; g2 and g3 second.
TRACE = [
    played("g1", 1, False, rule_violation=True, over_budget=True, value=-5.0),
    played("g1", 2, False, revised=True, value=-2.0, similarity=0.4),  # fixed the violation, still lost
    played("g1", 3, False, revised=True, value=-3.0, similarity=0.6),  # lost again, no violation to fix
    played("g2", 1, True, value=4.0),
    played("g2", 2, False, value=-1.0),  # kept its plan and lost…
    played("g2", 3, True, value=1.0),  # …and kept it again (no revision after the loss)
    played("g3", 1, False, rule_violation=True, over_budget=True, value=-4.0),
    played("g3", 2, True, revised=True, value=2.0, similarity=0.5),  # a correction that wins
    played("g3", 3, True, revised=True, value=3.0, similarity=0.9),  # revised after a win: not a correction
]


def assert_proportion(estimate: Estimate, successes: int, trials: int) -> None:
    assert estimate.value == pytest.approx(successes / trials)
    assert (estimate.low, estimate.high) == pytest.approx(wilson_interval(successes, trials))
    assert estimate.n == trials


def test_wilson_interval_by_hand():
    # 0 of 10: centre and half-width meet at 0, upper = z²/(n + z²) = 3.8415/13.8415 = 0.27753.
    low, high = wilson_interval(0, 10)
    assert low == 0.0
    assert high == pytest.approx(0.27753, abs=1e-5)


def test_win_rates():
    # Wins: g2 r1, g2 r3, g3 r2, g3 r3 → 4 of 9. Round 1: only g2 won → 1 of 3.
    assert_proportion(pm.win_rate(TRACE), 4, 9)
    assert_proportion(pm.initial_win_rate(TRACE), 1, 3)
    per_round = pm.per_round_win_rates(TRACE)
    assert [per_round[n].value for n in (1, 2, 3)] == pytest.approx([1 / 3, 1 / 3, 2 / 3])


def test_improvement_slope():
    # Per-round WR (1/3, 1/3, 2/3) at rounds (1, 2, 3): x̄ = 2, ȳ = 4/9,
    # Σ dx·dy = (−1)(−1/9) + 0 + (1)(2/9) = 1/3, Σ dx² = 2 ⇒ β = 1/6.
    slope = pm.improvement_slope(TRACE, rng=np.random.default_rng(0), rounds=400)
    assert slope.value == pytest.approx(1 / 6)
    assert slope.low <= slope.value <= slope.high
    assert slope.n == 3
    again = pm.improvement_slope(TRACE, rng=np.random.default_rng(0), rounds=400)
    assert (again.low, again.high) == (slope.low, slope.high)
    assert pm.improvement_slope(TRACE[:1], rng=np.random.default_rng(0)).value is None


def test_over_correction_risk_rate():
    # Rounds not won that have a next round: g1 r1, g1 r2, g2 r2, g3 r1 → 4.
    # Revised next round: g1 r2, g1 r3, g3 r2 → 3. ORR = 3/4.
    assert_proportion(pm.over_correction_risk_rate(TRACE), 3, 4)


def test_correction_success_rate():
    # Corrections (revision after a round not won): g1 r1→r2, g1 r2→r3, g3 r1→r2.
    # g1 r2 lost but removed r1's rule violation ⇒ success; g1 r3 lost with nothing to fix ⇒ failure;
    # g3 r2 won ⇒ success. CSR = 2/3.
    assert_proportion(pm.correction_success_rate(TRACE), 2, 3)


def test_constructive_rate():
    # Same corrections, V before → after: −5 → −2 (up), −2 → −3 (down), −4 → 2 (up) ⇒ 2/3.
    assert_proportion(pm.constructive_rate(TRACE), 2, 3)
    unscored = [pm.RoundRecord(agent="m", match="x", round=1, won=False), played("x", 2, True, revised=True, value=1.0)]
    assert pm.constructive_rate(unscored).value is None


def test_strategy_similarity():
    # SIM of the three corrections: 0.4, 0.6, 0.5 (g3 r3's 0.9 follows a win) ⇒ mean 0.5.
    similarity = pm.strategy_similarity(TRACE, rng=np.random.default_rng(1), rounds=500)
    assert similarity.value == pytest.approx(0.5)
    assert 0.4 <= similarity.low <= 0.5 <= similarity.high <= 0.6
    assert similarity.n == 3


def test_similarity_helpers():
    # Weighted SIM: 0.5·1 + 0.3·0.5 + 0.2·0 = 0.65; equal weights: (1 + 0.5 + 0)/3 = 0.5.
    assert pm.multi_aspect_similarity([1.0, 0.5, 0.0], [0.5, 0.3, 0.2]) == pytest.approx(0.65)
    assert pm.multi_aspect_similarity([1.0, 0.5, 0.0]) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="summing to 1"):
        pm.multi_aspect_similarity([1.0, 0.5], [0.5, 0.6])
    # {a, b, c} vs {b, c, d}: 2 shared of 4 ⇒ 0.5 (up to ε).
    assert pm.jaccard("abc", "bcd") == pytest.approx(0.5)
    assert pm.jaccard([], []) == 0.0


def test_budget_and_rule_violations():
    # Over budget: g1 r1 and g3 r1 of 9 proposals. Rule violations in round 1: g1 and g3 of 3;
    # over every round: 2 of 9.
    assert_proportion(pm.over_budget_rate(TRACE), 2, 9)
    assert_proportion(pm.rule_violation_rate(TRACE), 2, 3)
    assert_proportion(pm.rule_violation_rate(TRACE, initial_only=False), 2, 9)


def test_first_mover_advantage():
    rng = np.random.default_rng(2)
    # WR per instance: first g1 = 0; second g2 = 2/3, g3 = 2/3 ⇒ FMA = 0 − 2/3.
    wr = pm.first_mover_advantage(TRACE, "win_rate", rng=rng, rounds=300)
    assert wr.value == pytest.approx(-2 / 3)
    assert wr.n == 3
    # ORR: g1 2/2 = 1; g2 0/1 = 0, g3 1/1 = 1 ⇒ 1 − 0.5 = 0.5.
    assert pm.first_mover_advantage(TRACE, "over_correction_risk_rate", rng=rng).value == pytest.approx(0.5)
    # CSR: g1 1/2; g2 has no correction (left out), g3 1/1 ⇒ 0.5 − 1 = −0.5.
    csr = pm.first_mover_advantage(TRACE, "correction_success_rate", rng=rng)
    assert csr.value == pytest.approx(-0.5)
    assert csr.n == 2
    # Only first-mover instances: undefined.
    assert pm.first_mover_advantage(TRACE[:3], rng=rng).value is None


def test_by_agent_groups_and_orders():
    mixed = [*reversed(TRACE), pm.RoundRecord(agent="other", match="g1", round=1, won=True)]
    groups = pm.by_agent(mixed)
    assert set(groups) == {"m", "other"}
    assert [(r.match, r.round) for r in groups["m"]][:3] == [("g1", 1), ("g1", 2), ("g1", 3)]


def attempt(decision, number, verdict, latency, tokens, transient=False) -> pm.AttemptRecord:
    match = "M2" if decision in ("d4", "d5") else "M1"
    return pm.AttemptRecord(decision, match, number, verdict, transient, latency, tokens, tokens / 10_000)


ATTEMPTS = [
    attempt("d1", 1, "ok", 100, 50),
    attempt("d2", 1, "unparseable", 200, 40),
    attempt("d2", 2, "illegal", 300, 60),
    attempt("d2", 3, "ok", 250, 70),
    attempt("d3", 1, "api_error", 50, 0, transient=True),  # provider trouble: not the agent's
    attempt("d3", 2, "illegal", 400, 80),
    attempt("d3", 3, "timeout", 1000, 0),
    attempt("d3", 4, "ok", 350, 90),
    attempt("d4", 1, "timeout", 2000, 0),
    attempt("d4", 2, "unparseable", 150, 30),  # never recovered
    attempt("d5", 1, "over_budget", 500, 500),
    attempt("d5", 2, "ok", 120, 40),
]


def test_verdict_rates_exclude_transient_attempts():
    # 11 non-transient attempts: ok 4, unparseable 2, illegal 2, timeout 2, over_budget 1.
    assert_proportion(pm.parse_failure_rate(ATTEMPTS), 2, 11)
    assert_proportion(pm.illegal_rate(ATTEMPTS), 2, 11)
    assert_proportion(pm.timeout_rate(ATTEMPTS), 2, 11)
    assert_proportion(pm.verdict_rate(ATTEMPTS, "over_budget"), 1, 11)


def test_grounding_accuracy():
    # Judged replies (ok, unparseable, illegal): 4 + 2 + 2 = 8, of which 4 ok ⇒ 0.5.
    assert_proportion(pm.grounding_accuracy(ATTEMPTS), 4, 8)


def test_retry_success_at_k():
    # Decisions with an invalid attempt: d2 (unparseable, illegal, ok), d3 (illegal, timeout, ok once the
    # transient try is skipped), d4 (timeout, unparseable), d5 (over_budget, ok).
    # k = 1: only d5 recovers on the next try ⇒ 1/4; k = 2: d2, d3, d5 ⇒ 3/4; k = 3: still 3/4.
    assert_proportion(pm.retry_success_at(ATTEMPTS, 1), 1, 4)
    assert_proportion(pm.retry_success_at(ATTEMPTS, 2), 3, 4)
    assert_proportion(pm.retry_success_at(ATTEMPTS, 3), 3, 4)


def test_latency_quantiles():
    rng = np.random.default_rng(3)
    # Non-transient latencies sorted: 100 120 150 200 250 300 350 400 500 1000 2000.
    # Median = 6th = 300; p95 at position 0.95·10 = 9.5 ⇒ (1000 + 2000)/2 = 1500.
    median = pm.latency_quantile(ATTEMPTS, 0.5, rng=rng, rounds=300)
    assert median.value == pytest.approx(300.0)
    assert median.low <= 300.0 <= median.high
    assert pm.latency_quantile(ATTEMPTS, 0.95, rng=rng).value == pytest.approx(1500.0)
    # Per decision: d1 100, d2 750, d3 1750, d4 2150, d5 620 ⇒ median 750.
    assert pm.latency_quantile(ATTEMPTS, 0.5, rng=rng, per="decision").value == pytest.approx(750.0)


def test_tokens_and_cost_per_decision_and_match():
    rng = np.random.default_rng(4)
    # Per decision, every attempt counted: 50, 170, 170, 30, 540 ⇒ mean 960/5 = 192.
    tokens = pm.per_decision(ATTEMPTS, "tokens", rng=rng, rounds=300)
    assert tokens.value == pytest.approx(192.0)
    assert tokens.low <= 192.0 <= tokens.high
    assert tokens.n == 5
    assert pm.per_decision(ATTEMPTS, "cost", rng=rng).value == pytest.approx(0.0192)
    # Per match: M1 50 + 170 + 170 = 390, M2 30 + 540 = 570 ⇒ mean 480.
    assert pm.per_match(ATTEMPTS, "tokens", rng=rng).value == pytest.approx(480.0)


def test_pearson_by_hand_and_against_scipy():
    import scipy.stats  # here, not at collection: it takes most of a second to load

    # x = 1..5, y = (2, 4, 5, 4, 5): Σdx·dy = 6, Σdx² = 10, Σdy² = 6 ⇒ r = 6/√60 = 0.7745967;
    # t = r·√(3/(1 − r²)) = 2.1213203 with 3 degrees of freedom ⇒ two-sided p ≈ 0.1240.
    r, p = pm.pearson([1, 2, 3, 4, 5], [2, 4, 5, 4, 5])
    assert r == pytest.approx(6 / math.sqrt(60))
    assert p == pytest.approx(0.1240, abs=5e-4)
    rng = np.random.default_rng(5)
    for n in (3, 12, 40):
        x = rng.normal(size=n)
        y = -0.5 * x + rng.normal(size=n)
        reference = scipy.stats.pearsonr(x, y)
        got = pm.pearson(x, y)
        assert got == pytest.approx((reference.statistic, reference.pvalue), rel=1e-9, abs=1e-12)
    assert pm.pearson([1, 2], [3, 4]) == (None, None)
    assert pm.pearson([1, 1, 1], [3, 4, 5]) == (None, None)
