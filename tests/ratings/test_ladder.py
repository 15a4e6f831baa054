"""(level, progress) exactly as BotzoneBench §4.5 defines it, on its own worked examples."""

from __future__ import annotations

import pytest

from ratings.maths.ladder import LadderRating, Record, Standing, ladder_rating
from ratings.maths.metrics import wilson_interval


def test_progress_is_twice_the_win_rate_at_the_first_level_not_beaten():
    # Beats Lv0 (10-0), then 34% of decisive games against Lv1 → (Lv1, 68%), the paper's example.
    rating = ladder_rating([Record(10, 0, 0), Record(17, 0, 33)], top_level=3)
    assert rating == LadderRating(level=1, progress=pytest.approx(0.68), topped=False)
    assert str(rating) == "Lv1, 68.0%"


def test_draws_are_excluded_from_the_win_rate():
    # GPT-5.2 passed chess Lv1 with 3 wins, 28 draws and 1 loss: 75% of decisive games.
    assert Record(3, 28, 1).rate() == pytest.approx(0.75)
    rating = ladder_rating([Record(3, 28, 1), Record(0, 2, 30)], top_level=4)
    assert rating.level == 1
    assert rating.progress == 0.0


def test_exactly_fifty_percent_advances():
    rating = ladder_rating([Record(5, 2, 5)], top_level=0)
    assert rating == LadderRating(level=1, progress=None, topped=True)
    assert str(rating) == "Lv1, topped"


def test_landlord_example_reproduces_table_2():
    # Gemini Landlord Lv4: 16 wins, 47 losses → 2·16/63 = 50.8%.
    rating = ladder_rating([Record(9, 0, 1)] * 4 + [Record(16, 0, 47)], top_level=4)
    assert rating.level == 4
    assert round(rating.progress * 100, 1) == 50.8


def test_tic_tac_toe_draw_rate_rule():
    # Against perfect play: 0-31-1 gives 96.9% (undoubled) and does not top the ladder.
    rating = ladder_rating([Record(8, 0, 0), Record(0, 31, 1)], top_level=1, draw_rate_levels=frozenset({1}))
    assert rating.level == 1
    assert round(rating.progress * 100, 1) == 96.9
    topped = ladder_rating([Record(8, 0, 0), Record(0, 32, 0)], top_level=1, draw_rate_levels=frozenset({1}))
    assert topped.topped


def test_all_draws_against_a_level_has_no_progress_figure():
    rating = ladder_rating([Record(0, 6, 0)], top_level=2)
    assert rating == LadderRating(level=0, progress=None, topped=False)


def standing(records: list[Record], top_level: int) -> Standing:
    return Standing(tuple(records), ladder_rating(records, top_level=top_level))


def test_the_next_level_is_played_only_after_every_level_below_is_beaten():
    assert standing([], top_level=2).level_to_play == 0
    assert standing([Record(10, 0, 0)], top_level=2).level_to_play == 1
    assert standing([Record(10, 0, 0), Record(7, 0, 3)], top_level=2).level_to_play == 2
    # Not beaten (with or without a progress figure), or topped: nothing more to play.
    assert standing([Record(10, 0, 0), Record(2, 0, 8)], top_level=2).level_to_play is None
    assert standing([Record(0, 6, 0)], top_level=2).level_to_play is None
    assert standing([Record(10, 0, 0)] * 3, top_level=2).level_to_play is None


def test_a_standing_reads_not_started_until_a_level_is_played():
    assert str(standing([], top_level=2)) == "not started"
    assert str(standing([Record(10, 0, 0), Record(17, 0, 33)], top_level=3)) == "Lv1, 68.0%"


def test_wilson_interval_known_values():
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4)
    assert high == pytest.approx(0.9433, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(0, 20)
    assert low == 0.0
    assert high == pytest.approx(0.1611, abs=1e-4)
