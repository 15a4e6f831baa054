"""The researcher's page in real Chromium: with one participant's finished match no interval is drawn ("too few
participants"), and a participant is deleted by the code the page shows, leaving a count of withdrawn."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_play import play_until_over

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SET_UP = """
from django.contrib.auth.models import User
from arena.studies.services import study_save
study_save(consent_text="One game of tic-tac-toe.", slug="lab-study", title="Lab study",
    design=[{"game": "tic-tac-toe", "opponents": ["tic-tac-toe-lv0"]}], games_per_opponent=1, order="fixed",
    move_time_limit_s=None, questionnaire=False, completion_code="LAB00001", max_participants=5, is_open=True)
User.objects.create_user("lab-researcher", password="a long lab password", is_staff=True)
"""

LINK = "/studies/lab-study/"


@pytest.fixture
def context(chromium):
    """A new browser context per call (its own cookies: one person each), closed at the end."""
    contexts = []

    def make():
        contexts.append(chromium.new_context(viewport={"width": 1280, "height": 900}))
        page = contexts[-1].new_page()
        page.set_default_timeout(60_000)
        return page

    yield make
    for made in contexts:
        made.close()


def join(page, url: str) -> str:
    page.goto(url)
    page.click("button:has-text('I have read this and agree')")
    expect(page.locator("h2#next-heading")).to_be_visible()
    return re.search(r"Participant (P[0-9A-F]+)", page.locator("#main").inner_text())[1]


def test_the_researcher_sees_too_few_participants_and_deletes_by_the_shown_code(context, live_site):
    live_site.manage("shell", "-c", SET_UP)
    player = context()
    join(player, f"{live_site.url}{LINK}")
    player.click("button:has-text('Start match 1')")
    player.wait_for_url(re.compile(r"/play/\d+/$"))
    expect(player.locator("[data-connection]")).to_have_text("connected")
    play_until_over(player, max_moves=6)
    leaving = join(context(), f"{live_site.url}{LINK}")

    staff = context()
    staff.goto(f"{live_site.url}/accounts/login/?next={LINK}results/")
    staff.fill("input[name=username]", "lab-researcher")
    staff.fill("input[name=password]", "a long lab password")
    staff.click("button:has-text('Log in')")
    staff.wait_for_url(re.compile(r"/results/$"))
    baseline = staff.locator("table[id$='-baseline'] tbody tr").first
    expect(baseline).to_contain_text("too few participants for an interval")
    expect(baseline).to_contain_text("n = 1")
    expect(staff.locator("#main")).not_to_contain_text(re.compile(r"\d+% \["))  # no Wilson interval either

    shown = staff.locator(f"#participant-{leaving}-row code").first.inner_text()
    assert shown == leaving
    staff.fill("#delete-code", shown)
    staff.click("form[id$='-delete'] button:has-text('Delete')")
    expect(staff.locator(".flash")).to_have_text(f"Deleted participant {leaving}'s record (counted as withdrawn).")
    expect(staff.locator(f"#participant-{leaving}-row")).to_have_count(0)
    counts = staff.locator("p[id$='-counts']")
    expect(counts).to_contain_text("joined: 2")
    expect(counts).to_contain_text("withdrawn: 1")
