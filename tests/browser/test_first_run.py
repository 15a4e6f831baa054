"""A newcomer on a fresh install: "Play a model" from the home page, finish a game, play again at once."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_play import lobby_start, play_until_over

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
    lobby_start(page, "tic-tac-toe", "tic-tac-toe-lv0", "Newcomer")
    first = page.url
    for _ in range(2):
        play_until_over(page, max_moves=5)
        # The finished game queues leaderboard refits in the worker; the next game must not wait on them.
        page.click("a:has-text('Play again')")
        page.wait_for_url(re.compile(r"/play/\?game=tic-tac-toe&opponent=tic-tac-toe-lv0$"))
        expect(page.locator("#id_opponent")).to_have_value("tic-tac-toe-lv0")
        page.click("button:has-text('Play')")
        page.wait_for_url(re.compile(r"/play/\d+/$"))
        no_error_page(page)
        expect(page.locator(".match-status")).to_contain_text("Your move.")
        assert page.url != first
    play_until_over(page, max_moves=5)
    page.click("a:has-text('Replay this match')")
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    no_error_page(page)


def assert_fits(page) -> None:
    """No error page and nothing wider than the phone's screen (no sideways scrolling)."""
    no_error_page(page)
    page.wait_for_load_state("networkidle")
    wide = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert wide <= 0, f"{page.url} scrolls sideways by {wide} px at {page.viewport_size['width']} px"


def test_a_newcomer_on_a_phone_plays_replays_signs_up_and_annotates(chromium, live_site, worker):
    # Not is_mobile: a mobile viewport zooms out to fit wide content, which would hide the sideways scroll.
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(60_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(live_site.url)
    expect(page.locator("h2:has-text('How to start')")).to_be_visible()
    assert_fits(page)
    # Every link of the navigation is on screen: none hidden in a row that scrolls without a sign.
    for link in page.locator(".site-nav ul a").all():
        box = link.bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= 390, link.inner_text()
    page.click("a:has-text('Play a model')")
    page.wait_for_url(re.compile(r"/play/$"))
    assert_fits(page)
    lobby_start(page, "connect-four", "connect-four-lv0", "Phone")
    expect(page.locator(".match-status")).to_contain_text("Your move.")
    assert_fits(page)
    play_until_over(page, max_moves=40)  # room for a click that lands while the board redraws
    assert_fits(page)
    # The move list scrolls (nothing cut off) and shows the newest move.
    assert page.evaluate(
        "(l => l.scrollTop + l.clientHeight >= l.scrollHeight - 1)(document.querySelector('.move-list'))"
    )
    assert page.evaluate("(l => l.scrollWidth <= l.clientWidth)(document.querySelector('.move-list'))")
    page.click("a:has-text('Replay this match')")
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    replay = page.url
    assert_fits(page)
    page.goto(f"{live_site.url}/accounts/signup/")
    expect(page.locator("main")).to_contain_text("playing as Phone")
    assert_fits(page)
    page.fill("input[name=username]", "phone-person")
    page.fill("input[name=password1]", "Sx9!long-pass")
    page.fill("input[name=password2]", "Sx9!long-pass")
    page.click("button:has-text('Create account')")
    page.wait_for_url(re.compile(r"/play/$"))
    assert_fits(page)
    page.goto(f"{replay}?ply=1")
    page.click("summary:has-text('Annotate this move')")
    page.fill("textarea[name=comment]", "A calm opening.")
    page.click("button:has-text('Save annotation')")
    expect(page.locator(".annotation-comment")).to_have_text("A calm opening.")
    assert_fits(page)
    context.close()
    assert not errors, errors


EVERY_GAME_PENDING = """
import json
from arena.record.agents import bots_ensure
from arena.record.services import match_create
from games import all_games
made = {}
for game in all_games():
    bots = sorted(bots_ensure(game=game.slug), key=lambda bot: bot.slug)
    made[game.slug] = match_create(game=game.slug, agents=[bots[0]] * game.num_players, seed=7).pk
print(json.dumps(made))
"""


def test_every_game_s_live_page_fits_a_phone(chromium, live_site):
    made = json.loads(live_site.manage("shell", "-c", EVERY_GAME_PENDING).strip().splitlines()[-1])
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    too_wide = {}
    for slug, pk in made.items():
        page.goto(f"{live_site.url}/play/{pk}/")
        no_error_page(page)
        wide = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        if wide > 0:
            too_wide[slug] = wide
    context.close()
    assert not too_wide, f"live pages that scroll sideways at 390 px (by px): {too_wide}"
