"""Pages a visitor opens on a phone (390 px) and a laptop (1280 px) fit the screen: no sideways scrolling."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser]


@pytest.mark.parametrize("width", [1280, 390])
def test_the_leaderboard_filters_fit_the_screen(page, live_site, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{live_site.url}/leaderboard/")
    page.locator(".kind-filter").wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    box = page.locator(".kind-filter").bounding_box()
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= width
    assert page.locator(".kind-filter input[type=checkbox]").count() >= 3  # every kind still offered
