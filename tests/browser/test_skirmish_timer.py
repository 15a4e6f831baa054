"""A real-time skirmish's live page counts the window down in the browser, warns near the end, says when it closed."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Three person-vs-person real-time matches (nobody moves) in 30-tick windows: fresh, near the end, long closed.
MAKE_MATCHES = """
import json
from datetime import timedelta
from django.utils import timezone
from arena.models import Match
from arena.record.people import guest_agent_create
from arena.record.services import match_create
from arena.record.turns import match_claim, match_release
made = {}
for name, thought in (("fresh", 0), ("warning", 0), ("closed", 60)):
    agents = [guest_agent_create(nickname=f"{name} red"), guest_agent_create(nickname=f"{name} blue")]
    match = match_create(game="skirmish", agents=agents, options={"mode": "real-time", "window_ticks": 30}, seed=7)
    match_claim(match_id=match.pk, worker="setup")
    match_release(match_id=match.pk, worker="setup")
    Match.objects.filter(pk=match.pk).update(started_at=timezone.now() - timedelta(seconds=thought))
    made[name] = match.pk
print(json.dumps(made))
"""

# Red has thought 20 s of the 29 that still arrive in time: the page enters the last 5 s a few seconds later.
NEAR_THE_END = """
from datetime import timedelta
from django.utils import timezone
from arena.models import Match
Match.objects.filter(pk={pk}).update(started_at=timezone.now() - timedelta(seconds=20))
"""


def test_the_real_time_window_counts_down_warns_and_closes(page, live_site):
    made = json.loads(live_site.manage("shell", "-c", MAKE_MATCHES).strip().splitlines()[-1])

    page.goto(f"{live_site.url}/play/{made['fresh']}/")
    timer = page.locator(".skirmish-timer")
    expect(timer).to_be_visible()
    expect(timer).to_have_attribute("data-state", "ok")
    expect(timer).to_contain_text("Red's window closes at tick 30")
    left = page.locator("[data-countdown-left]")
    start = int(left.inner_text())
    assert 0 < start <= 29
    page.wait_for_function(
        "n => Number(document.querySelector('[data-countdown-left]').textContent) < n", arg=start, timeout=20_000
    )
    assert int(left.inner_text()) < start
    assert int(page.locator("[data-count-from]").inner_text()) > 0  # a command sent now arrives after tick 0
    expect(page.locator(".timer-over")).to_be_hidden()

    live_site.manage("shell", "-c", NEAR_THE_END.format(pk=made["warning"]))  # just before the visit
    page.goto(f"{live_site.url}/play/{made['warning']}/")
    expect(page.locator(".skirmish-timer")).to_have_attribute("data-state", "warning")

    page.goto(f"{live_site.url}/play/{made['closed']}/")
    expect(page.locator(".skirmish-timer")).to_have_attribute("data-state", "over")
    expect(page.locator(".timer-over")).to_be_visible()
    expect(page.locator(".timer-over")).to_contain_text("commands sent now are dropped")
    expect(page.locator(".timer-open")).to_be_hidden()

    page.goto(f"{live_site.url}/matches/{made['fresh']}/")  # a replay has no thinking clock: no countdown
    expect(page.locator(".skirmish-status")).to_contain_text("tick 0")
    expect(page.locator(".skirmish-timer")).to_be_hidden()
