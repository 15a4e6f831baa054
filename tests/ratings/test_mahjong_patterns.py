"""BotzoneBench Table 4 (Mahjong scoring-pattern diversity): on hand-scored hands, and per agent from real matches."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync

from arena.record.agents import bots_ensure
from arena.record.services import match_create
from arena.runner.loop import run_match
from ratings.record.game_metrics import mahjong_pattern_diversity, mahjong_patterns
from ratings.record.reports import botzonebench
from ratings.record.reports.base import ReportFilters

STRAIGHT_HAND = [(16, 1, "Pure Straight"), (4, 1, "Fully Concealed Hand"), (1, 1, "No Honors"), (2, 1, "Flower Tiles")]
FLUSH_HAND = [(24, 1, "Full Flush"), (6, 1, "All Pungs"), (1, 2, "Pung of Terminals or Honors")]
SMALL_HAND = [(6, 1, "Half Flush"), (1, 1, "No Honors"), (2, 1, "Flower Tiles")]  # 7 fan without flowers


def test_pattern_diversity_of_hand_scored_hands():
    stats = mahjong_pattern_diversity([STRAIGHT_HAND, FLUSH_HAND, SMALL_HAND])
    # Patterns: Pure Straight, Fully Concealed Hand, No Honors (twice), Flower Tiles (twice), Full Flush,
    # All Pungs, Pung of Terminals or Honors, Half Flush: 8 distinct, 10 appearances.
    assert stats["hands"] == 3
    assert stats["distinct"] == 8
    assert stats["high_distinct"] == 2
    assert stats["high_share"] == pytest.approx(2 / 10)
    assert stats["mid_distinct"] == 3
    assert stats["mid_share"] == pytest.approx(3 / 10)
    assert stats["four_plus"] == 5
    assert stats["min_fan_hands"] == 2  # the small hand has 7 fan without its flowers
    assert mahjong_pattern_diversity([])["high_share"] is None


@pytest.mark.django_db
def test_patterns_per_agent_come_from_the_hands_they_won():
    bots = {a.slug: a for a in bots_ensure(game="mahjong")}
    agents = [bots["mahjong-lv2"], bots["mahjong-lv2"], bots["mahjong-lv1"], bots["mahjong-lv1"]]
    for seed in range(30):
        match = async_to_sync(run_match)(match_create(game="mahjong", agents=agents, seed=seed).pk)
        winner, _, fans = match.state["result"]
        if winner >= 0:
            break
    else:
        pytest.fail("no Mahjong hand was won in 30 deals")
    rows = {row["agent"]: row for row in mahjong_patterns()}
    expected = mahjong_pattern_diversity([[tuple(f) for f in fans]])
    assert rows[agents[winner].slug] == {"agent": agents[winner].slug, **expected}
    assert expected["min_fan_hands"] == 1
    # The BotzoneBench report's Table 4 says the same of the winner, over the hand it won.
    report = botzonebench.build(ReportFilters())
    table = next(t for t in report.tables if t.key == "table-4")
    cells = dict(table.rows)[agents[winner].slug]
    wanted = ("distinct", "high_distinct", "high_share", "mid_distinct", "mid_share")
    assert [cell.value for cell in cells] == [expected[name] for name in wanted]
    assert {cell.n for cell in cells} == {1}
    assert cells[0].matches == (match.pk,)
