"""The all-games leaderboard, with three games' ladders and a person who played two of them, fits a 1280 px screen
whole (no column cut off behind a scroll) and stays usable on a 390 px phone (the page never scrolls sideways; rank,
name and rating are in view)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import LiveSite

pytestmark = [pytest.mark.browser]

RECORD = """
from asgiref.sync import async_to_sync
from arena.models import Match
from arena.record.agents import bots_ensure
from arena.record.people import guest_agent_create
from arena.record.services import decision_record, match_create
from arena.record.turns import match_claim
from arena.tournaments.run import run_tournament
from arena.tournaments.services import tournament_create
from games import get_game

for slug in ("tic-tac-toe", "connect-four", "reversi"):
    ladder = {a.slug: a for a in bots_ensure(game=slug)}
    bots = [ladder[f"{slug}-lv{n}"] for n in range(3)]
    t = tournament_create(slug=f"rr-{slug}", name=slug, format="round_robin", games=[slug], agents=bots,
                          games_per_seat=3, first_seed=0)
    async_to_sync(run_tournament)(t.pk)
person = guest_agent_create(nickname="Visitor with a rather long nickname")
for slug in ("tic-tac-toe", "connect-four"):
    game, lv0 = get_game(slug), bots_ensure(game=slug)[0]
    for seed in range(3):
        match = match_claim(match_id=match_create(game=slug, agents=[person, lv0], seed=seed).pk, worker="w").match
        ply = 0
        while match.status != Match.Status.FINISHED:
            match = decision_record(match=match, ply=ply, action=game.legal_actions(game.from_json(match.state))[0])
            ply += 1
"""


@pytest.fixture(scope="module")
def board_site(tmp_path_factory):
    site = LiveSite(tmp_path_factory.mktemp("board-site"))
    site.manage("migrate", "--noinput")
    site.manage("seed", "--no-demo", "--game", "tic-tac-toe", "--game", "connect-four", "--game", "reversi")
    site.manage("shell", "-c", RECORD)
    site.manage("refresh_ratings")
    site.start()
    yield site
    site.stop()


def test_the_all_games_board_fits_a_laptop_whole(page, board_site):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{board_site.url}/leaderboard/")
    table = page.locator("table.leaderboard")
    table.wait_for()
    assert page.locator("table.leaderboard tbody tr").count() >= 10
    assert page.get_by_text("Connect Four · Tic-tac-toe").count() == 1  # the person's one row names both games
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    scroller = page.locator(".table-scroll").first
    assert table.evaluate("t => t.scrollWidth") <= scroller.evaluate("s => s.clientWidth")  # no column cut off
    last_heading = page.locator("table.leaderboard thead th").last.bounding_box()
    assert last_heading["x"] + last_heading["width"] <= 1280


def test_the_all_games_board_is_usable_on_a_phone(page, board_site):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{board_site.url}/leaderboard/")
    page.locator("table.leaderboard").wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    first = page.locator("table.leaderboard tbody tr:not(.group-heading)").first
    for cell in range(3):  # rank, agent, rating: read without scrolling sideways
        box = first.locator("td").nth(cell).bounding_box()
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= 390
