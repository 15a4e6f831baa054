"""A participant follows a study's link in a real browser: consent, questionnaire, the assigned match played by
clicking on the live page, back to the study, the thank-you page with the completion code."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_play import play_until_over

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SET_UP = """
from arena.studies.services import study_save
study_save(consent_text="Play one game of tic-tac-toe.", slug="browser-study", title="Browser study",
    design=[{"game": "tic-tac-toe", "opponents": ["tic-tac-toe-lv0"]}], games_per_opponent=1,
    order="fixed", move_time_limit_s=None, questionnaire=True, completion_code="BR0WSER1",
    max_participants=5, is_open=True)
"""


def test_a_participant_plays_a_study_through_to_the_completion_code(page, live_site):
    live_site.manage("shell", "-c", SET_UP)
    page.goto(f"{live_site.url}/studies/browser-study/?pid=platform-42")
    expect(page.locator(".consent-text")).to_contain_text("Play one game of tic-tac-toe.")
    page.click("button:has-text('I have read this and agree')")
    page.wait_for_url(re.compile(r"/questionnaire/$"))
    page.check("input[name=tic-tac-toe][value=some]")
    page.click("button:has-text('Continue')")
    expect(page.locator("h2#next-heading")).to_contain_text("Tic-tac-toe Lv0")
    page.click("button:has-text('Start match 1')")
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    expect(page.locator("[data-connection]")).to_have_text("connected")
    play_until_over(page, max_moves=6)
    page.click("a:has-text('Back to the study')")
    expect(page.locator("#main")).to_contain_text("You have played every match of Browser study.")
    expect(page.locator("code[id$='-completion-code']")).to_have_text("BR0WSER1")
