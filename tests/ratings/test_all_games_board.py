"""The all-games board stays sane when people play several games: every game's Lv0 at 1000 (so a bot that beats
Lv0 rates above it, as on its game's own board), a person on one row with the games named, groups no match links
ranked apart and said so, and the first-move term shown with its interval."""

from __future__ import annotations

import datetime as dt
import re

import numpy as np
import pytest
from django.test import override_settings

from arena.record.agents import bots_ensure
from arena.record.people import guest_agent_create
from ratings.maths.bradley_terry import ELO_PER_NAT
from ratings.maths.leaderboard import Cells, fit_cells
from ratings.record.models import RatingCell, RatingCount
from ratings.record.services import snapshot_refit

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_bootstrap")]

DAY = dt.date(2026, 11, 28)


def result(key: str, first, second, *, wins: int, losses: int) -> int:
    """`first` (moving first) against `second` on `key`: `wins` and `losses` as rating cells; the matches added."""
    for score, weight in ((1.0, wins), (0.0, losses)):
        if weight:
            RatingCell.objects.create(key=key, day=DAY, a=first, b=second, first_mover=1.0, score=score, weight=weight)
    return wins + losses


def ladder(game: str) -> tuple[dict, int]:
    """Lv0–Lv2 of `game`, each level beating the one below about 3:1 in both seat orders."""
    bots = {a.slug: a for a in bots_ensure(game=game)}
    lv0, lv1, lv2 = (bots[f"{game}-lv{n}"] for n in range(3))
    matches = 0
    for strong, weak in ((lv1, lv0), (lv2, lv1), (lv2, lv0)):
        matches += result(game, strong, weak, wins=16, losses=5) + result(game, weak, strong, wins=5, losses=16)
    return {0: lv0, 1: lv1, 2: lv2}, matches


def test_several_lv0_bots_are_one_anchor_at_1000_by_hand():
    # Agents: 0 = game A's Lv0, 1 = A's Lv1, 2 = B's Lv0, 3 = B's Lv1, 4 = a model playing both games. Each Lv1
    # beats its Lv0 3–1 in each seat order (no first-move effect); the model beats A's Lv0 3–1 and loses to B's
    # 1–3. With the Lv0 bots one agent, the model scored 4 of 8 against it: 1000 exactly; each Lv1 scored 3:1
    # against it alone: 1000 + 400/ln 10 · ln 3 = 1190.85. (Anchoring the Lv0 bots' mean instead, the model's
    # one strength pulls A's Lv0 below B's, and A's Lv1 with it.)
    rows = [(1, 0, 3, 1), (0, 1, 1, 3), (3, 2, 3, 1), (2, 3, 1, 3), (4, 0, 3, 1), (0, 4, 1, 3), (4, 2, 1, 3)]
    rows += [(2, 4, 3, 1)]
    first, second, score, weight = [], [], [], []
    for a, b, wins, losses in rows:
        first += [a, a]
        second += [b, b]
        score += [1.0, 0.0]
        weight += [wins, losses]
    cells = Cells(np.array(first), np.array(second), np.array(score), np.array(weight, dtype=float), np.ones(16))
    fitted = fit_cells(cells, n_agents=5, anchors=[0, 2], rounds=50, draws=32)
    assert fitted["rating"][0] == fitted["rating"][2] == 1000.0
    assert fitted["rating"][4] == pytest.approx(1000.0, abs=0.1)
    assert fitted["rating"][1] == pytest.approx(1000.0 + ELO_PER_NAT * np.log(3.0), abs=0.1)
    assert fitted["rating"][3] == pytest.approx(1190.85, abs=0.1)
    assert abs(fitted["first_move_advantage"]) < 1e-6


@pytest.fixture
def boards():
    """Tic-tac-toe and Connect Four linked by a guest who beat tic-tac-toe's Lv0 every time and lost to Connect
    Four's every time (the shape that put tic-tac-toe's ladder at −312…−638); Reversi's bots on their own."""
    guest = guest_agent_create(nickname="Visitor")
    counts = {}
    for game in ("tic-tac-toe", "connect-four", "reversi"):
        bots, counts[game] = ladder(game)
        if game == "tic-tac-toe":
            counts[game] += result(game, guest, bots[0], wins=6, losses=0) + result(
                game, bots[0], guest, wins=0, losses=6
            )
        if game == "connect-four":
            counts[game] += result(game, guest, bots[0], wins=0, losses=6) + result(
                game, bots[0], guest, wins=6, losses=0
            )
    for game, n in counts.items():
        RatingCount.objects.create(key=game, day=DAY, matches=n)
    return guest


def test_every_game_s_lv0_is_1000_and_its_bots_keep_their_own_board_s_numbers(boards):
    overall = {row["slug"]: row for row in snapshot_refit(game="").data["rows"]}
    for game in ("tic-tac-toe", "connect-four", "reversi"):
        own = {row["slug"]: row for row in snapshot_refit(game=game).data["rows"]}
        assert overall[f"{game}-lv0"]["rating"] == 1000.0
        assert (overall[f"{game}-lv0"]["lower"], overall[f"{game}-lv0"]["upper"]) == (1000.0, 1000.0)
        for level in (1, 2):
            slug = f"{game}-lv{level}"
            assert overall[slug]["rating"] > 1100.0  # beats Lv0 about 3:1: well above 1000, never negative
            assert overall[slug]["rating"] == pytest.approx(own[slug]["rating"], abs=1.0)
            assert overall[slug]["lower"] is not None
            assert overall[slug]["upper"] is not None
        assert overall[f"{game}-lv2"]["rating"] > overall[f"{game}-lv1"]["rating"]


@override_settings(ARENA_RANK_MIN_GAMES=0)  # cells only, no replay of matches to count games
def test_a_person_s_games_are_one_row_naming_them_and_unlinked_groups_are_ranked_apart(client, boards):
    snapshot_refit(game="")
    data = client.get("/leaderboard/?format=json").json()
    people = [row for row in data["rows"] if row["kind"] == "human"]
    assert [(row["slug"], row["games"]) for row in people] == [(boards.slug, ["Connect Four", "Tic-tac-toe"])]
    labels = {row["slug"]: row["component_label"] for row in data["rows"]}
    assert labels["tic-tac-toe-lv1"] == labels[boards.slug] == "Connect Four + Tic-tac-toe"
    assert labels["reversi-lv1"] == "Reversi"
    assert [c["label"] for c in data["components"]] == ["Connect Four + Tic-tac-toe", "Reversi"]
    assert all(c["anchored"] for c in data["components"])
    assert [c["matches"] for c in data["components"]] == [2 * (126 + 12), 126]  # matches, not game-weighted draws
    ranks = {row["slug"]: (row["rank_best"], row["rank_worst"]) for row in data["rows"] if row["ranked"]}
    assert ranks["reversi-lv2"][0] == 1  # Reversi's best is 1 in its own group, not placed among the others
    assert max(r[1] for slug, r in ranks.items() if slug.startswith("reversi")) == 3

    page = client.get("/leaderboard/").content.decode()
    assert page.count(">Visitor</a>") == 1
    assert "Connect Four · Tic-tac-toe" in page
    assert "2 groups that no chain of matches links" in page
    assert "Reversi — ranked among themselves" in page  # a heading over the group, not on each rank
    assert "each game's Lv0 bot, a uniform-random player, is pinned at 1000" in page


def test_the_first_move_term_is_shown_with_its_interval(client, boards):
    snapshot_refit(game="reversi")
    data = client.get("/leaderboard/reversi/?format=json").json()
    low, high = data["first_move_interval"]
    assert low < data["first_move_advantage"] < high
    assert abs(data["first_move_advantage"]) < 1.0  # seat order balanced: no advantage to speak of
    page = client.get("/leaderboard/reversi/").content.decode()
    shown = re.search(
        r'id="first-move-term">first-move term .*?h</abbr></a> = (-?[\d.]+) log-odds .*?\[(-?[\d.]+)–(-?[\d.]+)\]',
        page,
        re.S,
    )
    assert shown is not None
    assert float(shown[2]) == pytest.approx(low, abs=0.01)
    assert float(shown[3]) == pytest.approx(high, abs=0.01)
