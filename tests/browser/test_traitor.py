"""A person plays Are You the Traitor? in real Chromium: a message typed as plain text, markup and all, shows as
text, and no other seat's role shows (except the Key Holder's, to the Traitor, as the rules say)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_play import start_game

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MESSAGE = "I am a guard <script>window.__pwned=1</script><b>honest</b>"


@pytest.mark.parametrize("width", [1280, 390])
def test_a_person_talks_with_markup_shown_as_text_and_sees_no_other_role(page, live_site, width):
    live_site.manage("seed", "--no-demo", "--game", "are-you-the-traitor")  # the site seeds only two games' bots
    page.set_viewport_size({"width": width, "height": 900})
    start_game(page, live_site, "are-you-the-traitor", "are-you-the-traitor-lv1", "Bea")  # P1 speaks first
    page.fill("#ayt-say", MESSAGE)  # plain text: no "say" needed
    page.click(".ww-say-form button[type=submit]")
    mine = page.locator(".ww-msg-text").first
    expect(mine).to_have_text(MESSAGE, timeout=30000)
    assert page.locator(".ww-msg-text b").count() == 0  # the markup stayed text
    assert page.evaluate("window.__pwned") is None
    # The four bots (Lv1: Evil never stops, Good only on its last turn) speak, and it is our turn again.
    expect(page.locator(".ww-msg-text")).to_have_count(5, timeout=30000)
    expect(page.locator(".match-status")).to_contain_text("Your move.")

    roles = {
        p.locator(".ww-name").inner_text().split(" ")[0]: p.locator(".ww-role").inner_text()
        for p in page.locator(".ww-player").all()
    }
    mine_role = roles.pop("P1")
    assert mine_role in ("traitor", "evil wizard", "good wizard", "key holder", "guard")
    shown = [role for role in roles.values() if role != "?"]
    assert shown == (["key holder"] if mine_role == "traitor" else [])
