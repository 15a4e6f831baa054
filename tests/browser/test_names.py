"""One display name everywhere: a guest who signs up mid-game is named by the account on the open live page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_play import lobby_start

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("width", [1280, 390])
def test_a_guest_who_signs_up_mid_game_is_named_by_the_account_on_the_live_page(chromium, live_site, width):
    context = chromium.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(60_000)
    guest, account = f"Wren{width}", f"wren-account-{width}"
    page.goto(f"{live_site.url}/play/")
    lobby_start(page, "connect-four", "connect-four-lv0", guest)
    expect(page.locator(".match-status")).to_contain_text("Your move.")
    expect(page.locator("main")).to_contain_text(guest)
    # The same person signs up in another tab while the game's page stays open.
    signup = context.new_page()
    signup.goto(f"{live_site.url}/accounts/signup/")
    expect(signup.locator("main")).to_contain_text(f"playing as {guest}")
    signup.fill("input[name=username]", account)
    signup.fill("input[name=password1]", "Sx9!long-pass")
    signup.fill("input[name=password2]", "Sx9!long-pass")
    signup.click("button:has-text('Create account')")
    signup.wait_for_url(re.compile(r"/play/$"))
    signup.close()
    # The open page's next frame (its own move and the bot's reply) names the seat by the account.
    played = page.locator(".move-list li:not(.muted)")
    before = played.count()
    page.locator(".cell-target").first.click()
    expect(played).not_to_have_count(before)
    expect(page.locator("main")).to_contain_text(account)
    expect(page.locator("main")).not_to_contain_text(guest)
    page.reload()
    expect(page.locator("main")).to_contain_text(account)
    expect(page.locator("main")).not_to_contain_text(guest)
    context.close()
