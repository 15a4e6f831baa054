"""A person plays Two Rooms and a Boom against five random bots from the lobby: a typed question that its room's
chat panel shows escaped, then every decision by clicking (Show my card and a room-mate, votes, hostages) to the
end of the game."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_play import lobby_start

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def click_a_move(page) -> None:
    """Click the first highlighted cell; a half-made move (Show my card) takes a second click on a room-mate."""
    page.locator(".cell-target").first.click()
    if page.locator(".cell-selected").count():
        page.locator(".cell-target").first.click()


def test_person_asks_in_its_room_and_plays_the_game_by_clicking(page, live_site):
    live_site.manage("seed", "--no-demo", "--game", "two-rooms-and-a-boom")
    page.goto(f"{live_site.url}/play/")
    lobby_start(page, "two-rooms-and-a-boom", "two-rooms-and-a-boom-lv0", "Rhea")
    expect(page.locator("[data-connection]")).to_have_text("connected")
    status = page.locator(".match-status")
    expect(status).to_contain_text("Your move", timeout=30000)  # P1 speaks first in its room

    mate = page.locator("button[data-cell^='P']:not([disabled])").first.get_attribute("data-cell")
    page.fill("#tr-say", f"ask {mate} Is <b>this</b> bold?")
    page.press("#tr-say", "Enter")
    my_room = page.locator(".tr-room", has=page.locator("button.ww-you"))
    expect(my_room.locator(".ww-msg-you .ww-msg-text")).to_have_text("Is <b>this</b> bold?", timeout=30000)
    assert my_room.locator(".ww-msg-text b").count() == 0

    moves = 1
    played = page.locator(".move-list li:not(.muted)")
    while moves < 30:
        expect(status).to_contain_text(re.compile(r"Your move|Game over"), timeout=30000)
        if "Game over" in status.inner_text():
            break
        before = played.count()
        click_a_move(page)
        expect(played).not_to_have_count(before, timeout=30000)
        moves += 1
    expect(status).to_contain_text("Game over")
    assert moves >= 6  # a talking turn and a vote in each of the three rounds, at the least
    expect(page.locator(".ww-status")).to_contain_text(re.compile(r"the (Blue|Red) team wins"))
    assert page.console_errors == []
