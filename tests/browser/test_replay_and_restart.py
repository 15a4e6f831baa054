"""Replays step by keyboard with permalinks; a game survives a daphne restart in a real browser."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_play import start_game

pytestmark = [pytest.mark.browser, pytest.mark.slow]

FINISHED_MATCH = """
import json
from asgiref.sync import async_to_sync
from arena.models import Agent
from arena.runner.loop import run_match
from arena.record.services import match_create
agents = [Agent.objects.get(slug="connect-four-lv1"), Agent.objects.get(slug="connect-four-lv0")]
match = async_to_sync(run_match)(match_create(game="connect-four", agents=agents, seed=4).pk)
print(json.dumps({"match": match.pk, "plies": match.ply}))
"""


def test_replay_keyboard_navigation_and_permalinks(page, live_site):
    made = json.loads(live_site.manage("shell", "-c", FINISHED_MATCH).strip().splitlines()[-1])
    url = f"{live_site.url}/matches/{made['match']}/"
    page.goto(f"{url}?ply=3")
    counter = page.locator(".ply-counter strong")
    expect(counter).to_have_text("3")
    page.keyboard.press("ArrowRight")
    expect(counter).to_have_text("4")
    expect(page).to_have_url(re.compile(r"\?ply=4$"))
    page.keyboard.press("k")
    expect(counter).to_have_text("3")
    page.keyboard.press("End")
    expect(counter).to_have_text(str(made["plies"]))
    page.keyboard.press("Home")
    expect(counter).to_have_text("0")
    page.keyboard.press("j")
    expect(counter).to_have_text("1")
    # The permalink reproduces the same position on a fresh load.
    board_after_one = page.locator(".board").inner_html()
    page.goto(f"{url}?ply=1")
    assert page.locator(".board").inner_html() == board_after_one
    # Clicking a move in the list jumps there without a page load.
    page.evaluate("window.__sameDocument = true")
    page.locator(".move-list a").nth(5).click()
    expect(counter).to_have_text("6")
    assert page.evaluate("window.__sameDocument") is True


def test_a_game_continues_after_the_server_restarts(page, live_site):
    start_game(page, live_site, "tic-tac-toe", "tic-tac-toe-lv0", "Rex")
    page.locator("[data-cell='b2']").click()
    expect(page.locator(".move-list li")).to_have_count(2, timeout=30000)
    live_site.stop()
    expect(page.locator("[data-connection]")).to_contain_text("reconnecting", timeout=30000)
    live_site.start()
    expect(page.locator("[data-connection]")).to_have_text("connected", timeout=30000)
    expect(page.locator(".match-status")).to_contain_text("Your move.")
    page.locator(".cell-target").first.click()
    expect(page.locator(".move-list li")).to_have_count(4, timeout=30000)
    # While the server was down the browser's reconnection attempts were refused, as expected.
    page.console_errors[:] = [e for e in page.console_errors if "ERR_CONNECTION_REFUSED" not in e]
