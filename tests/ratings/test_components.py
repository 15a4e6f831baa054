"""Agents the record does not link are not ranked against each other; every ranked row carries an interval."""

from __future__ import annotations

import numpy as np
import pytest
from django.test import override_settings

from ratings.record.models import RatingSnapshot
from ratings.record.refit import components
from ratings.record.selectors import leaderboard_rows


def test_components_are_the_agents_linked_by_chains_of_matches():
    # 0–1–2 played each other (0 and 2 through 1); 3–4 only each other; 5 nobody.
    first, second = np.array([0, 1, 3]), np.array([1, 2, 4])
    assert components(first, second, 6) == [[0, 1, 2], [3, 4], [5]]


def row(slug, component, rating, lower, upper, matches=30):
    label = {0: "Connect Four", 1: "Sea Battle"}[component]
    return {"slug": slug, "name": slug, "kind": "bot", "scaffold": "", "rating": rating, "lower": lower,
            "upper": upper, "matches": matches, "component": component, "component_label": label}  # fmt: skip


@pytest.mark.django_db  # rows show the agents' current names, read from the record
@override_settings(ARENA_RANK_MIN_GAMES=10)
def test_two_components_are_ranked_apart_and_every_ranked_row_has_an_interval():
    snapshot = RatingSnapshot(
        data={
            "rows": [
                row("c4-lv2", 0, 1600.0, 1450.0, 1750.0),
                row("c4-lv1", 0, 1300.0, 1150.0, 1440.0),
                row("c4-lv0", 0, 1000.0, 1000.0, 1000.0),
                row("sb-lv1", 1, 3880.0, 3000.0, None),  # never lost: a lower bound only
                row("sb-lv0", 1, 1000.0, 1000.0, 1000.0),
                row("sb-lv2", 1, 2000.0, None, None),  # no bound at all: not ranked
                row("c4-new", 0, 1200.0, 900.0, 1500.0, matches=3),  # too few games
            ]
        }
    )
    rows = {r["slug"]: r for r in leaderboard_rows(snapshot, kinds={"bot"})}
    ranks = {slug: (r["rank_best"], r["rank_worst"]) for slug, r in rows.items() if r["ranked"]}
    # Sea Battle Lv1's 3,880 is not ranked above Connect Four's agents: each game has its own rank 1.
    assert ranks == {"c4-lv2": (1, 1), "c4-lv1": (2, 2), "c4-lv0": (3, 3), "sb-lv1": (1, 1), "sb-lv0": (2, 2)}
    assert rows["c4-lv2"]["rank_scope"] == "Connect Four"
    assert rows["sb-lv1"]["rank_scope"] == "Sea Battle"
    for slug in ranks:
        assert rows[slug]["lower"] is not None or rows[slug]["upper"] is not None
    assert not rows["sb-lv2"]["ranked"]
    assert not rows["c4-new"]["ranked"]
