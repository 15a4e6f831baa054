"""A person plays Arctic Scavengers by clicking in real Chromium: an action, then its card, then the finished move;
the bot's hand stays hidden while it gathers."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_play import start_game

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_person_trashes_a_card_by_clicking_then_stops_and_the_next_round_comes(page, live_site):
    live_site.manage("seed", "--no-demo", "--game", "arctic-scavengers")  # the site seeds only two games' bots
    start_game(page, live_site, "arctic-scavengers", "arctic-scavengers-lv0", "Ada")
    board = page.locator(".board-arctic-scavengers")
    expect(board).to_contain_text("Round 1 of 5")
    expect(page.locator('[aria-label="Tribe 2\'s hand"]')).to_have_count(0)  # hidden while gathering
    first = page.locator("[data-cell='hand-0']").inner_text()
    page.locator("[data-cell='trash']").click()
    page.locator("[data-cell='hand-0']").click()
    # Trashing more cards could follow, so the finished move is offered to click.
    page.locator(".move-chooser button", has_text=f"trash {first}").click()
    played = page.locator(".move-list li:not(.muted)")
    expect(played.first).to_contain_text(f"trash {first}", timeout=30000)
    expect(page.locator(".arc-log")).to_contain_text(f"Tribe 1 trashes {first}.")
    page.locator("[data-cell='stop']").click()
    # The bot gathers, the skirmish resolves, and round 2 (the bot opens it) comes back to us.
    expect(board).to_contain_text("Round 2 of 5", timeout=30000)
    expect(page.locator(".match-status")).to_contain_text("Your move", timeout=30000)
    expect(page.locator(".arc-log")).to_contain_text("Skirmish")
