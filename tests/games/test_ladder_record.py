"""Every ladder's strength is the one `calibrate_ladder` measured and docs/ladders.json records.

Re-measuring a ladder in a dozen games per step is noise, and slow; the record holds 100 games per seat a
step with Wilson intervals. What the suite checks instead: that the record describes the ladders the code
has now (a retuned level changes its description, and then the record is stale until it is measured again),
and that each recorded step up is a real one.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from games import all_games
from games.bots import ladder

RECORD = json.loads((Path(__file__).resolve().parents[2] / "docs" / "ladders.json").read_text())
GAMES = [game.slug for game in all_games()]


def test_every_game_with_a_ladder_is_recorded():
    assert sorted(RECORD) == sorted(GAMES)


@pytest.mark.parametrize("slug", GAMES)
def test_the_record_measured_the_ladder_the_code_has(slug):
    recorded = [(level["slug"], level["description"]) for level in RECORD[slug]["levels"]]
    assert recorded == [(bot.slug, bot.description) for bot in ladder(slug)], (
        f"{slug}'s ladder changed since it was measured: run `manage.py calibrate_ladder --game {slug}`"
    )


@pytest.mark.parametrize("slug", GAMES)
def test_each_recorded_step_beats_the_level_below(slug):
    bots = [bot.slug for bot in ladder(slug)]
    pairs = RECORD[slug]["pairs"]
    assert [(pair["defender"], pair["challenger"]) for pair in pairs] == list(itertools.pairwise(bots))
    for pair in pairs:
        assert pair["wins"] + pair["draws"] + pair["losses"] > 0
        assert pair["win_rate"] >= 0.6, pair
        assert pair["ci95"][0] > 0.5, pair  # the whole 95% interval above an even match
