"""A person orders a Sea Battle fleet from the order pad in real Chromium; the bot's sealed orders stay sealed."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_play import start_game

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_person_orders_each_ship_from_the_pad_and_the_round_resolves(page, live_site):
    live_site.manage("seed", "--no-demo", "--game", "sea-battle")  # the site seeds only two games' bots
    start_game(page, live_site, "sea-battle", "sea-battle-lv0", "Grace")
    played = page.locator(".move-list li:not(.muted)")
    for count, ship in enumerate("ABC", start=1):
        expect(page.locator(".sea-orders")).to_contain_text(f"Order {ship}")
        page.locator("[data-cell='stay-both']").click()
        # Our order is in the list (after the third, the bots' three orders may already follow it: one batch).
        expect(played.nth(count - 1)).to_be_attached(timeout=30000)
    # The bot's three orders complete the round: the report appears and our ship A is to order again.
    expect(page.locator(".sea-orders")).to_contain_text("Order A", timeout=30000)
    expect(page.locator(".board-sea-battle")).to_contain_text("Round 2 of 60")
    expect(page.locator(".sea-log")).to_contain_text("A fires to port")
    moves = played.all_inner_texts()
    assert sum("A stay both" in m for m in moves) == 1
    assert sum("(order sealed)" in m for m in moves) == 3  # Red's orders, while the match runs


@pytest.mark.parametrize("width", [1280, 390])
def test_the_sea_stays_inside_its_column(page, live_site, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{live_site.url}/games/sea-battle/")
    edges = page.evaluate("""() => {
      const r = (s) => document.querySelector(s).getBoundingClientRect();
      return {grid: r('.sea-grid').right, area: r('.board-area').right, side: r('.side-panel').left,
              page: document.documentElement.scrollWidth}; }""")
    assert edges["grid"] <= edges["area"] + 0.5, edges  # the board ends where its column ends …
    if width > 800:  # … and, beside the side panel, before the panel starts
        assert edges["grid"] <= edges["side"], edges
    assert edges["page"] <= width, edges
