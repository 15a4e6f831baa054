"""A participant of a blinded, focused study with per-participant codes, in real Chromium: the opponent is
"Opponent A" on the study page, the live page and the match list they can type their way to, no site navigation
is in view, and the thank-you page's link takes them back to the recruiting platform (a real HTTP server on
loopback) with their own completion code and the id they arrived with."""

from __future__ import annotations

import http.server
import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser.test_play import play_until_over
from tests.loopback import serving_thread, stop_serving

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SET_UP = """
from arena.studies.services import study_save
study_save(consent_text="Play one game; the opponent stays anonymous.", slug="blind-study", title="Blind study",
    design=[{{"game": "tic-tac-toe", "opponents": ["tic-tac-toe-lv0"]}}], games_per_opponent=1, order="fixed",
    move_time_limit_s=None, questionnaire=False, completion_code="STATIC01", max_participants=5, is_open=True,
    blind_opponents=True, focused=True, per_participant_codes=True,
    redirect_url="http://127.0.0.1:{port}/done?cc={{completion_code}}&id={{pid}}")
"""

CODES = """
import json
from arena.studies.models import Participant
from arena.studies.codes import completion_code
print(json.dumps({p.code: completion_code(p) for p in Participant.objects.filter(study__slug="blind-study")}))
"""


class Recruiter(http.server.BaseHTTPRequestHandler):
    """The recruiting platform's completion page: records each visit's path."""

    visits: list[str] = []

    def do_GET(self):
        Recruiter.visits.append(self.path)
        body = b"<!doctype html><title>Recruiter</title><h1>Submission complete</h1>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def recruiter():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recruiter)
    thread = serving_thread(server, "recruiter")
    thread.start()
    yield server
    stop_serving(server)
    thread.join(timeout=10)


def test_a_blinded_participant_meets_opponent_a_and_returns_to_the_recruiter(page, live_site, recruiter):
    live_site.manage("shell", "-c", SET_UP.format(port=recruiter.server_port))
    page.goto(f"{live_site.url}/studies/blind-study/?pid=platform-7")
    expect(page.locator(".consent-text")).to_contain_text("the opponent stays anonymous")
    expect(page.locator(".site-nav a")).to_have_count(0)  # focused: no way off into the site
    page.click("button:has-text('I have read this and agree')")
    expect(page.locator("h2#next-heading")).to_have_text("Next: Tic-tac-toe against Opponent A")
    expect(page.locator("#main")).not_to_contain_text("Lv0")
    expect(page.locator(".site-nav a")).to_have_count(0)

    page.click("button:has-text('Start match 1')")
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    expect(page.locator("[data-connection]")).to_have_text("connected")
    expect(page.locator(".players")).to_contain_text("Opponent A")
    play_until_over(page, max_moves=6)
    expect(page.locator(".players")).to_contain_text("Opponent A")  # the pushed updates keep the label
    expect(page.locator("#main")).not_to_contain_text("Lv0")
    expect(page.locator(".site-nav a")).to_have_count(0)
    live = page.url
    page.goto(f"{live_site.url}/matches/")  # typed: the site's list of matches holds the participant's own
    match_id = re.search(r"/play/(\d+)/$", live)[1]
    own = page.locator("tr", has=page.locator(f"a[href='/matches/{match_id}/']"))  # other tests' matches list too
    expect(own).to_contain_text("Opponent A")
    expect(own).not_to_contain_text("Lv0")
    expect(own.locator("a[href^='/agents/']")).to_have_count(0)
    page.goto(live)

    page.click("a:has-text('Back to the study')")
    expect(page.locator("#main")).to_contain_text("You have played every match of Blind study.")
    code = page.locator("code[id$='-completion-code']").inner_text()
    participant = re.search(r"(P[0-9A-F]{8})-", page.locator("#main").inner_text())[1]
    assert json.loads(live_site.manage("shell", "-c", CODES).strip().splitlines()[-1]) == {participant: code}
    assert code != "STATIC01"

    page.click("a:has-text('Return to the recruiting site')")
    expect(page.locator("h1")).to_have_text("Submission complete")
    visits = [urlsplit(path) for path in Recruiter.visits if not path.startswith("/favicon")]
    assert [visit.path for visit in visits] == ["/done"]
    assert parse_qs(visits[0].query) == {"cc": [code], "id": ["platform-7"]}
