"""STAR's SER and PWER against sequences worked by hand (K = 32, ξ = 400, start 1000, α = β = 0.5)."""

from __future__ import annotations

import numpy as np
import pytest

from ratings.maths.elo import expected_score, order_spread, performance_multiplier, pwer, sequential_elo


def test_expected_score_is_the_logistic_in_base_ten():
    # 400 points ahead: 1 / (1 + 10^-1) = 10/11.
    assert expected_score(1400, 1000) == pytest.approx(10 / 11)
    assert expected_score(1000, 1000) == 0.5


def test_ser_by_hand():
    # Match 1, A beats B from 1000 each: E = 0.5, Δ = 32·(1 − 0.5) = 16 → A 1016, B 984.
    # Match 2, B beats A: E_B = 1/(1 + 10^(32/400)) = 1/(1 + 1.2022644) = 0.4540781,
    #   Δ = 32·(1 − 0.4540781) = 17.4695015 → A 998.5304985, B 1001.4695015.
    # Match 3, draw: E_A = 1/(1 + 10^(2.939003/400)) = 1/(1 + 1.0170607) = 0.4957705,
    #   Δ_A = 32·(0.5 − 0.4957705) = 0.1353429 → A 998.6658413, B 1001.3341587.
    run = sequential_elo([0, 1, 0], [1, 0, 1], [1.0, 1.0, 0.5], n_agents=2)
    assert run.ratings == pytest.approx([998.6658413, 1001.3341587])
    assert run.before[1] == pytest.approx([984.0, 1016.0])  # a of match 2 is B
    assert run.after[1] == pytest.approx([1001.4695015, 998.5304985])  # (rating of a = B, rating of b = A)
    assert run.after[0] == pytest.approx([1016.0, 984.0])
    assert list(run.multiplier) == [1.0, 1.0, 1.0]


def test_ser_parameters_are_configurable():
    # K = 16 and a start of 1500: the first decisive game moves each side by 8.
    run = sequential_elo([0], [1], [0.0], n_agents=3, k=16, initial=1500)
    assert run.ratings == pytest.approx([1492.0, 1508.0, 1500.0])


def test_performance_multiplier_by_hand():
    # Winner keeps 3 of 5 units after turn 4 of 12: M = 1 + 0.5·0.6 + 0.5·(1 − 4/12) = 1.6333…
    # A draw: M = 1. Missing game time: T = 0, so 5 of 5 units gives M = 1.5.
    # Past the horizon (250 ticks of 240): T = 0, no units known: M = 1.
    m = performance_multiplier(
        [1.0, 0.5, 0.0, 1.0], [3, 4, 5, None], [5, 5, 5, None], [4, 1, np.nan, 250], [12, 12, 12, 240]
    )
    assert m == pytest.approx([1 + 0.3 + 1 / 3, 1.0, 1.5, 1.0])


def test_pwer_by_hand():
    # 1) A beats B, keeping 3/5 units at turn 4 of 12: M = 1.6333, Δ = 32·1.6333·0.5 = 26.1333
    #    → A 1026.1333, B 973.8667.
    # 2) Draw (M = 1): E_A = 1/(1 + 10^(−52.2667/400)) = 1/(1 + 0.7400251) = 0.5746555,
    #    Δ_A = 32·(0.5 − 0.5746555) = −2.3889746 → A 1023.7443588, B 976.2556412.
    # 3) B beats A, all 5 of 5 units, no game time (T = 0): M = 1.5,
    #    E_B = 1/(1 + 10^(47.4887176/400)) = 1/(1 + 1.3143787) = 0.4320807,
    #    Δ_B = 32·1.5·(1 − 0.4320807) = 27.2601273 → A 996.4842314, B 1003.5157686.
    run = pwer(
        [0, 0, 1],
        [1, 1, 0],
        [1.0, 0.5, 1.0],
        n_agents=2,
        winner_surviving=[3, None, 5],
        winner_total=[5, None, 5],
        game_time=[4, 6, None],
        game_time_max=[12, 12, 12],
    )
    assert run.multiplier == pytest.approx([1.6333333, 1.0, 1.5])
    assert run.after[0] == pytest.approx([1026.1333333, 973.8666667])
    assert run.after[1] == pytest.approx([1023.7443588, 976.2556412])
    assert run.ratings == pytest.approx([996.4842314, 1003.5157686])


def test_pwer_with_all_multipliers_one_is_ser():
    a, b, s = [0, 1, 2, 0], [1, 2, 0, 2], [1.0, 0.0, 0.5, 1.0]
    plain = sequential_elo(a, b, s, n_agents=3)
    weighted = pwer(a, b, s, n_agents=3, winner_surviving=None, winner_total=None, game_time=None, game_time_max=None)
    assert weighted.ratings == pytest.approx(plain.ratings)


def test_order_spread_is_seeded_zero_sum_and_zero_for_one_match():
    a, b, s = [0, 1, 2, 0, 1], [1, 2, 0, 2, 0], [1.0, 1.0, 0.0, 0.5, 1.0]
    mean, std = order_spread(a, b, s, n_agents=3, rng=np.random.default_rng(7), shuffles=200)
    again = order_spread(a, b, s, n_agents=3, rng=np.random.default_rng(7), shuffles=200)
    assert np.array_equal(mean, again[0])
    assert np.array_equal(std, again[1])
    assert mean.sum() == pytest.approx(3000.0)  # every update is zero-sum
    assert (std > 0).all()
    one_mean, one_std = order_spread([0], [1], [1.0], n_agents=2, rng=np.random.default_rng(0), shuffles=10)
    assert one_mean == pytest.approx([1016.0, 984.0])
    assert one_std == pytest.approx([0.0, 0.0])


def test_order_spread_by_hand():
    # A beats B, then B beats A. In that order A ends at 998.5304985 (see test_ser_by_hand); in the other
    # order B wins first (B 1016, A 984) and A's win then gains 17.4695015, so A ends at 1001.4695015.
    # Over shuffles A takes each value about half the time: mean ≈ 1000, std = 2.939003·√(p(1 − p)) ≈ 1.4695.
    mean, std = order_spread([0, 1], [1, 0], [1.0, 1.0], n_agents=2, rng=np.random.default_rng(3), shuffles=2000)
    assert mean == pytest.approx([1000.0, 1000.0], abs=0.2)
    assert std == pytest.approx([1.4695, 1.4695], abs=0.01)


def test_invalid_input_is_rejected():
    with pytest.raises(ValueError, match="itself"):
        sequential_elo([0], [0], [1.0], n_agents=1)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        sequential_elo([0], [1], [2.0], n_agents=2)
