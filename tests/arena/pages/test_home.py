"""The home page says what is happening (live games, latest results, the top of the board) and how to start."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync

from arena.record.agents import bots_ensure
from arena.record.services import match_create
from arena.runner.loop import run_match
from ratings.record.models import RatingSnapshot

pytestmark = pytest.mark.django_db


def test_home_lists_live_games_results_and_only_agents_with_enough_games_on_the_board(client):
    bots = bots_ensure(game="tic-tac-toe")
    finished = async_to_sync(run_match)(match_create(game="tic-tac-toe", agents=bots[:2], seed=1).pk)
    live = match_create(game="tic-tac-toe", agents=bots[1:3], seed=2)
    live.status = "running"
    live.save(update_fields=["status"])
    rows = [
        {"slug": bots[0].slug, "name": "Seasoned", "rating": 1500.0, "lower": 1400.0, "upper": 1600.0, "matches": 12},
        {"slug": bots[1].slug, "name": "Newcomer", "rating": 1600.0, "lower": 900.0, "upper": 2300.0, "matches": 3},
        {"slug": bots[2].slug, "name": "Unbounded", "rating": 1700.0, "lower": None, "upper": None, "matches": 40},
    ]
    RatingSnapshot.objects.create(game="", filters="", data={"rows": rows}, matches=15)
    body = client.get("/").content.decode()
    assert "How to start" in body
    assert f"/play/{live.pk}/" in body
    assert f"/matches/{finished.pk}/" in body
    top = body[body.index("Top of the board") :]
    assert "Seasoned" in top
    assert "Newcomer" not in top  # 3 games: too few to rank
    assert "Unbounded" not in top  # no interval: not ranked


def test_a_fresh_site_says_why_nobody_is_ranked_yet(client):
    body = client.get("/").content.decode()
    assert "Nobody has played 10 rated games yet" in body
    assert "No game is being played right now" in body
