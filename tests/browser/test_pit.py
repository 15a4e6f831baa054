"""A person trades in Pit against three bots in real Chromium: clicks an offer, the round resolves, the hand
shows what came back, and no other trader's hand reaches the page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_play import start_game

pytestmark = [pytest.mark.browser, pytest.mark.slow]

KINDS = ("wheat", "barley", "corn", "soybeans")


def my_hand(page) -> dict[str, int]:
    """The counts in our own row of the trading table (Player 1, the seat the lobby gave us)."""
    cells = page.locator(".pit-traders tbody tr").first.locator("td")
    return {kind: int(cells.nth(i).inner_text()) for i, kind in enumerate(KINDS)}


def test_a_person_clicks_offers_until_a_trade_and_sees_only_their_own_hand(page, live_site):
    live_site.manage("seed", "--no-demo", "--game", "pit")  # the site seeds only two games' bots
    start_game(page, live_site, "pit", "pit-lv0", "Hana")
    rows = page.locator(".pit-traders tbody tr")
    status = page.locator(".match-status")
    for round_number in range(1, 16):  # random traders match a one-card offer within a few rounds
        expect(page.locator(".board-pit")).to_contain_text(f"Trading round {round_number} of at most 60")
        before = my_hand(page)
        offer = page.locator(".pit-offers button[data-cell^='1-']").first
        given = offer.get_attribute("data-cell").split("-")[1]
        offer.click()
        # Our offer is sealed, the three bots seal theirs, and the round resolves.
        expect(page.locator(".board-pit")).to_contain_text(f"Trading round {round_number + 1}", timeout=30000)
        expect(status).to_contain_text(re.compile(r"Your move|Game over"), timeout=30000)
        received = rows.first.locator("td").last.inner_text()
        if "from Player" in received:
            break
        assert received == "nothing (no one matched your offer)"
        assert my_hand(page) == before
    else:
        raise AssertionError("no one took a one-card offer in 15 rounds")
    got = re.fullmatch(rf"1 ({'|'.join(KINDS)}) from Player [234] for your 1 {given}", received)
    assert got, received
    after = dict(before)
    after[given] -= 1
    after[got.group(1)] += 1
    assert my_hand(page) == after  # the card we gave left, the one we were given arrived
    # Every other trader's hand is hidden: only question marks in their rows, no counts anywhere else.
    for row in range(1, 4):
        assert rows.nth(row).locator("td").all_inner_texts()[:4] == ["?"] * 4
        assert rows.nth(row).locator("td.pit-hidden[title=hidden]").count() == 4  # marked hidden, not just blank
    assert rows.first.get_attribute("class").split()[0] == "pit-you"
    # On a 390 px phone the whole table fits, what we received included, with no sideways scrolling.
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("(t => t.scrollWidth <= t.clientWidth)(document.querySelector('.board-pit .table-scroll'))")
    assert '"hands"' not in page.content()  # nor does the state travel to the page in any other form
    assert page.locator(".pit-log").inner_text().count("trade") >= 1
    moves = page.locator(".move-list li:not(.muted)").all_inner_texts()
    assert sum("(offer sealed)" in m for m in moves) == 3 * round_number  # the bots' offers stay sealed
