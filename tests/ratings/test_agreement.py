"""Kappa against hand-computed values."""

from __future__ import annotations

import numpy as np
import pytest

from ratings.maths.agreement import cohen_kappa, fleiss_kappa, label_counts


def test_cohen_kappa_hand_computed():
    # 10 items; raters agree on 7. Rater A: 6 yes / 4 no; rater B: 5 yes / 5 no.
    a = ["y", "y", "y", "y", "y", "y", "n", "n", "n", "n"]
    b = ["y", "y", "y", "y", "n", "n", "y", "n", "n", "n"]
    # p_o = 7/10; p_e = .6·.5 + .4·.5 = .5; κ = (.7 − .5)/(1 − .5) = 0.4
    assert cohen_kappa(a, b) == pytest.approx(0.4)
    assert cohen_kappa(a, a) == pytest.approx(1.0)
    assert cohen_kappa(["y"], ["y"]) is None  # p_e = 1: undefined


def test_fleiss_kappa_wikipedia_example():
    # The worked example from Fleiss (1971) as reproduced on Wikipedia: 10 items, 14 raters, 5 categories.
    table = np.array(
        [
            [0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
            [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7],
        ]
    )  # fmt: skip
    assert fleiss_kappa(table) == pytest.approx(0.210, abs=5e-4)


def test_fleiss_kappa_two_raters_matches_hand_computation():
    # Three decisions, two annotators each, glyphs: (?, ?), (!, ?), (!, !).
    counts = label_counts([["?", "?"], ["!", "?"], ["!", "!"]], ["!", "?"])
    # P_i = 1, 0, 1 → P̄ = 2/3; p = (.5, .5) → P_e = .5; κ = (2/3 − 1/2)/(1/2) = 1/3
    assert fleiss_kappa(counts) == pytest.approx(1 / 3)
    assert fleiss_kappa(label_counts([["?"]], ["?", "!"])) is None  # nobody to agree with
