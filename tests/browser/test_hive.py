"""A person plays Hive on a phone-sized screen: a hand piece, then a highlighted space; then a piece on the board."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_play import start_game

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_person_places_and_moves_hive_pieces_by_clicking_at_390_px(page, live_site):
    live_site.manage("seed", "--no-demo", "--game", "hive")  # the site seeds only the games most tests play
    page.set_viewport_size({"width": 390, "height": 844})
    start_game(page, live_site, "hive", "hive-lv0", "Hana")
    moves = page.locator(".move-list li:not(.muted)")
    page.locator("[data-cell='hand-wQ']").click()
    expect(page.locator("[data-move-error]")).to_contain_text("No legal move starts at hand-wQ")  # not on turn 1
    page.locator("[data-cell='hand-wA']").click()
    targets = page.locator(".board-hive g.cell-target")
    expect(targets).to_have_count(1)  # the first piece has one place: the centre
    targets.click()
    expect(moves).to_have_count(2, timeout=30000)
    assert moves.first.inner_text().strip().endswith("wA1")
    page.locator("[data-cell='hand-wQ']").click()
    expect(targets.first).to_be_visible()
    targets.first.click()
    expect(moves).to_have_count(4, timeout=30000)
    # The queen is down, so pieces may move; the ant holds the hive together (One Hive), the queen may crawl.
    page.locator(".board-hive g[data-cell='0,0']").click()  # wA1, the first piece, is at the origin
    expect(page.locator("[data-move-error]")).to_contain_text("No legal move starts at 0,0")
    page.locator(".board-hive g[aria-label^='wQ,']").click()
    expect(targets.first).to_be_visible()
    targets.first.click()
    expect(moves).to_have_count(6, timeout=30000)
    assert moves.nth(4).inner_text().strip().startswith("wQ ")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling on a phone
