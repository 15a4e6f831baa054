"""A newcomer on a fresh install: "Play a model" from the home page, finish a game, play again at once (issue 25)."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.test_play import play_until_over

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def no_error_page(page) -> None:
    assert "unavailable" not in page.title().lower()
    expect(page.locator("main")).not_to_contain_text("briefly unavailable")


def test_finish_a_game_and_play_again_at_once_while_the_worker_refits(page, live_site, worker):
    page.goto(live_site.url)
    page.click("a:has-text('Play a model')")
    page.wait_for_url(re.compile(r"/play/$"))
    # A model is preselected, not an open challenge that waits for nobody.
    expect(page.locator("#id_opponent optgroup[label='Models'] option:checked")).to_have_count(1)
    page.select_option("select[name=game]", "tic-tac-toe")
    expect(page.locator("#id_opponent option[value='tic-tac-toe-lv0']")).to_have_count(1)
    page.wait_for_load_state("networkidle")
    page.select_option("#id_opponent", "tic-tac-toe-lv0")
    page.select_option("select[name=seat]", "0")
    page.fill("input[name=nickname]", "Newcomer")
    page.check("input[name=consent][value=yes]")
    page.click("button:has-text('Play')")
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    first = page.url
    for _ in range(2):
        play_until_over(page, max_moves=5)
        # The finished game queues leaderboard refits in the worker; the next game must not wait on them.
        started = time.monotonic()
        page.click("a:has-text('Play again')")
        page.wait_for_url(re.compile(r"/play/\?game=tic-tac-toe&opponent=tic-tac-toe-lv0$"))
        expect(page.locator("#id_opponent")).to_have_value("tic-tac-toe-lv0")
        page.click("button:has-text('Play')")
        page.wait_for_url(re.compile(r"/play/\d+/$"))
        no_error_page(page)
        expect(page.locator(".match-status")).to_contain_text("Your move.")
        assert page.url != first
        assert time.monotonic() - started < 10, "starting the next game waited on something"
    play_until_over(page, max_moves=5)
    page.click("a:has-text('Replay this match')")
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    no_error_page(page)
