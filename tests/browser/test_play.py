"""A person plays a whole game of connect-four against a bot by clicking, reloading mid-game."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def start_game(page, live_site, game: str, opponent: str, nickname: str) -> str:
    page.goto(f"{live_site.url}/play/")
    lobby_start(page, game, opponent, nickname)
    expect(page.locator("[data-connection]")).to_have_text("connected")
    expect(page.locator(".match-status")).to_contain_text("Your move.")
    return page.url


def lobby_start(page, game: str, opponent: str, nickname: str) -> None:
    """On the lobby: play `game` against `opponent` as the first seat, as a consenting guest; wait for its page."""
    page.select_option("select[name=game]", game)
    # htmx swaps in this game's opponents (even when the game was already chosen): let the swap
    # finish before choosing, or the new select would replace our choice with its default.
    expect(page.locator(f"#id_opponent option[value='{opponent}']")).to_have_count(1)
    page.wait_for_load_state("networkidle")
    page.select_option("#id_opponent", opponent)
    expect(page.locator("#id_opponent")).to_have_value(opponent)
    page.select_option("select[name=seat]", "0")
    page.fill("input[name=nickname]", nickname)
    page.check("input[name=consent][value=yes]")
    page.click("button:has-text('Play')")
    page.wait_for_url(re.compile(r"/play/\d+/$"))


def play_until_over(page, max_moves: int) -> int:
    """Click the first highlighted (legal) cell whenever it is our move; return moves made."""
    moves = 0
    status = page.locator(".match-status")
    while moves < max_moves:
        expect(status).to_contain_text(re.compile(r"Your move|Game over"), timeout=30000)
        if "Game over" in status.inner_text():
            return moves
        played = page.locator(".move-list li:not(.muted)")
        before = played.count()
        page.locator(".cell-target").first.click()
        expect(played).not_to_have_count(before, timeout=30000)  # the server took our move
        moves += 1
    # The last move allowed may be the one that ends the game (tic-tac-toe's fifth X fills the board).
    expect(status).to_contain_text(re.compile(r"Your move|Game over"), timeout=30000)
    if "Game over" in status.inner_text():
        return moves
    raise AssertionError("the game did not end")


def test_person_plays_connect_four_by_clicking_and_survives_a_reload(page, live_site):
    start_game(page, live_site, "connect-four", "connect-four-lv0", "Ada")
    expect(page.locator(".match-status")).to_contain_text("Your move.")
    page.locator(".cell-target").first.click()
    # Our disc and the bot's reply both appear in the move list.
    expect(page.locator(".move-list li")).to_have_count(2, timeout=30000)
    before_reload = page.locator(".move-list li").all_inner_texts()
    page.reload()
    expect(page.locator("[data-connection]")).to_have_text("connected")
    assert page.locator(".move-list li").all_inner_texts() == before_reload
    play_until_over(page, max_moves=25)
    expect(page.locator(".match-status")).to_contain_text("Game over")
    expect(page.locator("a:has-text('Replay this match')")).to_be_visible()


def test_illegal_click_shows_a_message(page, live_site):
    start_game(page, live_site, "tic-tac-toe", "tic-tac-toe-lv0", "Bea")
    page.locator("[data-cell='b2']").click()
    expect(page.locator(".move-list li")).to_have_count(2, timeout=30000)
    page.locator("[data-cell='b2']").click()
    expect(page.locator("[data-move-error]")).to_contain_text("No legal move starts at b2")
    typed = page.locator("input[name=move]")
    typed.fill("b2")
    typed.press("Enter")
    expect(page.locator("[data-move-error]")).to_contain_text("not a legal move")


def test_spectator_page_updates_live(page, chromium, live_site):
    url = start_game(page, live_site, "tic-tac-toe", "tic-tac-toe-lv0", "Cy")
    spectator_context = chromium.new_context()
    spectator = spectator_context.new_page()
    spectator.goto(url)
    expect(spectator.locator("[data-connection]")).to_have_text("connected")
    expect(spectator.locator(".match-status")).to_contain_text("Cy is thinking")
    page.locator("[data-cell='a1']").click()
    expect(spectator.locator(".move-list li")).to_have_count(2, timeout=30000)
    assert spectator.locator(".move-list li").first.inner_text() == "a1"
    assert spectator.locator("input[name=move]").count() == 0  # spectators get no move controls
    spectator_context.close()
