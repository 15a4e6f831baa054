"""Multi-seat results as weighted pairwise outcomes, checked against matches worked by hand."""

from __future__ import annotations

import pytest

from ratings.maths.pairwise import Pair, match_pairs


def test_two_seat_match_is_one_pair_of_weight_one():
    assert match_pairs(["A", "B"], [0, 1], [0.0, 1.0]) == [Pair("A", "B", 0.0, 1.0)]


def test_codenames_two_against_two():
    # Seats 0, 1 red (A spymaster, B guesser), 2, 3 blue (C, D); red wins.
    # Cross-side pairs: A–C, A–D, B–C, B–D, four of them, so each weighs 1/4 and the match sums to 1.
    pairs = match_pairs(["A", "B", "C", "D"], [0, 0, 1, 1], [1.0, 1.0, 0.0, 0.0])
    assert pairs == [
        Pair("A", "C", 1.0, 0.25),
        Pair("A", "D", 1.0, 0.25),
        Pair("B", "C", 1.0, 0.25),
        Pair("B", "D", 1.0, 0.25),
    ]


def test_one_agent_on_both_seats_of_a_side_is_one_agent():
    # A is spymaster and guesser for red; blue is C and D: pairs A–C and A–D, ½ each.
    pairs = match_pairs(["A", "A", "C", "D"], [0, 0, 1, 1], [0.0, 0.0, 1.0, 1.0])
    assert pairs == [Pair("A", "C", 0.0, 0.5), Pair("A", "D", 0.0, 0.5)]


def test_werewolf_eight_seats():
    # Seats 0–7; the deal made seats 2 and 5 werewolves (side 1), the rest the village (side 0).
    # Agents: the model M in seat 2 (a wolf), bot W1 in seat 5 (the other wolf), bot V1 in the six village seats.
    # Village side {V1}, wolf side {M, W1}: pairs V1–M and V1–W1, so each weighs ½. The wolves win.
    agents = ["V1", "V1", "M", "V1", "V1", "W1", "V1", "V1"]
    sides = [0, 0, 1, 0, 0, 1, 0, 0]
    scores = [0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    assert match_pairs(agents, sides, scores) == [Pair("V1", "M", 0.0, 0.5), Pair("V1", "W1", 0.0, 0.5)]


def test_werewolf_eight_different_agents():
    # Six villagers against two wolves, all different agents: 6 × 2 = 12 pairs of weight 1/12; a draw-free village win.
    agents = [f"P{i}" for i in range(8)]
    sides = [0, 0, 1, 0, 0, 1, 0, 0]
    scores = [1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0]
    pairs = match_pairs(agents, sides, scores)
    assert len(pairs) == 12
    assert [p.weight for p in pairs] == pytest.approx([1 / 12] * 12)
    assert sum(p.weight for p in pairs) == pytest.approx(1.0)
    assert {(p.a, p.b) for p in pairs} == {(v, w) for v in ("P0", "P1", "P3", "P4", "P6", "P7") for w in ("P2", "P5")}
    assert all(p.score_a == 1.0 for p in pairs)


def test_an_agent_on_both_sides_is_not_paired_with_itself():
    # A bot B fills seats on both sides with person H on side 0: only H–B is informative (B–B is self-play).
    pairs = match_pairs(["H", "B", "B", "B"], [0, 0, 1, 1], [1.0, 1.0, 0.0, 0.0])
    assert pairs == [Pair("H", "B", 1.0, 1.0)]
    assert match_pairs(["B", "B"], [0, 1], [1.0, 0.0]) == []


def test_free_for_all_compares_scores():
    # Three players, each its own side, scores 1, 0.5, 0.5: X beats Y and Z, Y and Z draw; three pairs of 1/3.
    pairs = match_pairs(["X", "Y", "Z"], [0, 1, 2], [1.0, 0.5, 0.5])
    assert pairs == [Pair("X", "Y", 1.0, 1 / 3), Pair("X", "Z", 1.0, 1 / 3), Pair("Y", "Z", 0.5, 1 / 3)]
