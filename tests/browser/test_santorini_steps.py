"""Santorini in real Chromium: the board says what to click at each step of a turn, a half-made turn can be
cancelled, and building on the square the worker just left builds there (it does not cancel the turn)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_play import start_game

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_santorini_steps_cancel_and_building_where_the_worker_stood(page, live_site):
    live_site.manage("seed", "--no-demo", "--game", "santorini")
    start_game(page, live_site, "santorini", "santorini-lv0", "Dora")
    hint = page.locator("[data-move-hint]")
    cancel = page.locator("[data-cancel-move]")
    moves = page.locator(".move-list li")
    expect(hint).to_have_text("Place a worker on a highlighted empty square")
    page.locator("[data-cell='a1']").click()
    expect(moves).to_have_count(1, timeout=30000)
    page.locator("[data-cell='e5']").click()
    expect(moves).to_have_count(4, timeout=30000)  # then the bot places its two workers
    expect(page.locator(".match-status")).to_contain_text("Your move.", timeout=30000)
    expect(hint).to_have_text("Select one of your workers")
    expect(cancel).to_be_hidden()

    page.locator("[data-cell='a1']").click()
    expect(hint).to_have_text("Move to a highlighted square")
    expect(cancel).to_be_visible()
    cancel.click()  # the half-made move is dropped, nothing is sent
    expect(hint).to_have_text("Select one of your workers")
    expect(page.locator(".cell-selected")).to_have_count(0)
    expect(moves).to_have_count(4)

    page.locator("[data-cell='a1']").click()
    target = page.locator(".cell-target").first.get_attribute("data-cell")
    page.locator(f"[data-cell='{target}']").click()
    expect(hint).to_have_text("Build on a highlighted square")
    page.locator(f"[data-cell='{target}']").click()  # the worker's own square: explained, the move stays half-made
    expect(page.locator("[data-move-error]")).to_contain_text(f"{target} is not a next step of your move")
    expect(hint).to_have_text("Build on a highlighted square")
    page.locator("[data-cell='a1']").click()  # the square the worker just left: a legal build
    expect(moves.nth(4)).to_have_text(re.compile(rf"^a1-{target}\^a1"), timeout=30000)
    expect(page.locator("[data-cell='a1'] .block-1")).to_have_count(1)
