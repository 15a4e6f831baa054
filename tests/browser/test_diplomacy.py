"""A person plays Diplomacy against bots from the lobby: orders by clicking provinces and by typing, two rounds of
Spring 1901, the phase resolves and the map draws the orders; on a phone the page does not scroll sideways."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_play import lobby_start

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def click_province(page, name: str) -> None:
    """Click a point of the province's own shape (its bounding box's centre may fall on a neighbour or a border)."""
    point = page.evaluate(
        """(name) => { const r = document.querySelector(`path[data-cell="${name}"]`).getBoundingClientRect();
        for (let i = 1; i < 10; i++) for (let j = 1; j < 10; j++) {
          const x = r.x + r.width * i / 10, y = r.y + r.height * j / 10;
          if (document.elementFromPoint(x, y)?.closest("[data-cell]")?.dataset.cell === name) return [x, y]; }
        return null; }""",
        name,
    )
    assert point, f"no visible point of {name} on the map"
    page.mouse.click(*point)


UNIT_AND_TABLE = """() => { const u = document.querySelector('.dip-unit').getBoundingClientRect();
  const t = document.querySelector('.dip-powers-scroll');
  return {unit: Math.min(u.width, u.height), table_fits: t.scrollWidth <= t.clientWidth}; }"""


def seal(page, rounds_done: int) -> None:
    """Seal the orders box's contents and wait until the bots have played the rest of the round."""
    page.click("button:has-text('Seal orders')")
    expect(page.locator(".move-list li:not(.muted)")).to_have_count(7 * rounds_done, timeout=60_000)


def test_person_orders_by_clicking_and_typing_and_sees_the_phase_resolve(page, live_site):
    live_site.manage("seed", "--no-demo", "--game", "diplomacy")
    page.goto(f"{live_site.url}/play/")
    lobby_start(page, "diplomacy", "diplomacy-lv0", "Dora")
    expect(page.locator("[data-connection]")).to_have_text("connected")
    expect(page.locator(".match-status")).to_contain_text("Your move")

    page.set_viewport_size({"width": 1280, "height": 900})
    sizes = page.evaluate(UNIT_AND_TABLE)
    assert sizes["unit"] >= 16, sizes  # a unit is a mark a person sees and clicks, not a speck
    assert sizes["table_fits"], sizes
    expect(page.locator(".dip-labels text", has_text="GAL")).to_have_count(1)  # provinces are named on the map

    orders = page.locator("[data-dip-orders]")
    # Round 1 of 2: click the army in Vienna, then Galicia; the box gets the order.
    page.locator(".dip-unit[data-cell='VIE']").click()
    click_province(page, "GAL")
    expect(orders).to_have_value("orders: A VIE - GAL")
    orders.press("End")
    orders.type("\nto Italy: Shall we keep Tyrolia empty?")
    seal(page, 1)

    # Round 2: the executed orders. Click Vienna twice to hold it, then Galicia again; type Budapest's order.
    expect(page.locator(".match-status")).to_contain_text("Your move")
    page.locator(".dip-unit[data-cell='VIE']").click()
    page.locator(".dip-unit[data-cell='VIE']").click()
    expect(orders).to_have_value("orders: A VIE H")
    page.locator(".dip-unit[data-cell='VIE']").click()
    click_province(page, "GAL")
    expect(orders).to_have_value("orders: A VIE - GAL")  # the unit's earlier order is replaced
    orders.press("End")
    orders.type("; a bud-ser")
    seal(page, 2)

    # Spring resolves: Fall is to order, the map draws Austria's moves, the last phase lists them.
    expect(page.locator(".board-diplomacy")).to_contain_text("Fall 1901")
    expect(page.locator("line.dip-move.dip-stroke-austria")).to_have_count(2)
    expect(page.locator(".dip-last")).to_contain_text("A VIE - GAL")
    expect(page.locator(".dip-last")).to_contain_text("A BUD - SER")
    expect(page.locator(".dip-chat")).to_contain_text("Shall we keep Tyrolia empty?")  # our own message

    page.set_viewport_size({"width": 390, "height": 800})
    page.reload()
    expect(page.locator("[data-connection]")).to_have_text("connected")
    expect(page.locator("line.dip-move.dip-stroke-austria")).to_have_count(2)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    sizes = page.evaluate(UNIT_AND_TABLE)
    assert sizes["unit"] >= 14, sizes  # the map keeps its size and scrolls in its own box
    assert sizes["table_fits"], sizes  # every column of the powers' table on screen
