"""Long move lists in real Chromium at 390 px: every move is there (nothing cut after 32), the list scrolls inside
itself with the current move in view, and moves read in the game's own notation, grouped by hand."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow]

IN_VIEW = (
    "(li) => { const l = li.closest('.move-list').getBoundingClientRect(), r = li.getBoundingClientRect();"
    " return r.top >= l.top - 1 && r.bottom <= l.bottom + 1; }"
)


def played(live_site, game: str, agents: list[str], *options: str) -> dict:
    live_site.manage("seed", "--no-demo", "--game", game)
    return json.loads(
        live_site.manage("play_match", "--game", game, "--agents", *agents, "--seed", "7", "--json", *options)
    )


@pytest.fixture
def phone(chromium):
    context = chromium.new_context(viewport={"width": 390, "height": 800})
    page = context.new_page()
    page.set_default_timeout(60_000)
    yield page
    context.close()


@pytest.mark.parametrize("game", ["chess", "reversi", "ataxx"])
def test_a_long_game_s_moves_all_show_and_the_current_one_stays_in_view(phone, live_site, game):
    match = played(live_site, game, [f"{game}-lv0", f"{game}-lv0"])
    plies = match["decisions"]
    assert plies > 32
    phone.goto(f"{live_site.url}/matches/{match['match_id']}/?ply={plies - 3}")
    moves = phone.locator(".move-list li")
    expect(moves).to_have_count(plies)
    current = phone.locator(".move-list a[aria-current]")
    expect(current).to_have_count(1)
    assert current.evaluate(f"a => ({IN_VIEW})(a.closest('li'))")  # the current move is scrolled into the list's view
    assert phone.evaluate("(l => l.scrollHeight > l.clientHeight)(document.querySelector('.move-list'))")
    assert phone.evaluate("(l => l.scrollWidth <= l.clientWidth)(document.querySelector('.move-list'))")
    assert phone.evaluate("document.documentElement.scrollWidth <= 390")
    phone.keyboard.press("Home")  # back to the start: the list follows to its first move
    expect(phone.locator(".ply-counter strong")).to_have_text("0")
    phone.keyboard.press("ArrowRight")
    expect(phone.locator(".move-list a[aria-current]")).to_have_count(1)
    assert phone.locator(".move-list li").first.evaluate(IN_VIEW)
    if game == "chess":  # SAN, not the UCI the record keeps
        assert not any(len(t) == 4 and t[1].isdigit() and t[3].isdigit() for t in moves.all_inner_texts())


def test_poker_moves_are_grouped_by_hand_on_a_phone(phone, live_site):
    match = played(live_site, "leduc-holdem", ["leduc-holdem-lv0", "leduc-holdem-lv0"], "--option", "hands=12")
    assert match["decisions"] > 32
    phone.goto(f"{live_site.url}/matches/{match['match_id']}/?ply={match['decisions']}")
    expect(phone.locator(".move-list li")).to_have_count(match["decisions"])
    expect(phone.locator(".move-list .move-group")).to_have_count(12)
    expect(phone.locator(".move-list .move-group").last).to_have_text("Hand 12 of 12")
    assert phone.locator(".move-list a[aria-current]").evaluate(f"a => ({IN_VIEW})(a.closest('li'))")
    assert phone.evaluate("document.documentElement.scrollWidth <= 390")
