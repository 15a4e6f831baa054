"""Script payloads through every kind of untrusted text stay inert in a real browser."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PAYLOAD = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>'

PLANT_MODEL_TEXT = f"""
import json
from arena.models import Agent
from arena.agents.base import AttemptData
from arena.record.agents import agent_create
from arena.record.services import decision_record, match_create
from arena.record.turns import match_claim
model = agent_create(slug="hostile-model", name={PAYLOAD!r}, kind="llm", config={{"model": "x"}})
match = match_create(game="tic-tac-toe", agents=[model, Agent.objects.get(slug="tic-tac-toe-lv0")], seed=1)
match = match_claim(match_id=match.pk, worker="plant").match
attempt = AttemptData(verdict="ok", raw_text={PAYLOAD!r}, reasoning_text={PAYLOAD!r}, parsed_action="b2",
                      messages=[{{"role": "user", "content": {PAYLOAD!r}}}])
decision_record(match=match, ply=0, action=4, attempts=[attempt])
print(json.dumps({{"match": match.pk}}))
"""


def assert_inert(page) -> None:
    assert page.evaluate("window.__pwned") is None, f"a payload ran on {page.url}"


def test_names_model_output_and_annotations_never_run(page, live_site):
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    planted = json.loads(live_site.manage("shell", "-c", PLANT_MODEL_TEXT).strip().splitlines()[-1])

    # A person whose nickname is a payload, playing and posting a challenge.
    page.goto(f"{live_site.url}/play/")
    page.fill("input[name=nickname]", PAYLOAD[:40])
    page.check("input[name=consent][value=yes]")
    page.select_option("#id_opponent", "open-challenge")
    page.click("button:has-text('Play')")
    expect(page.locator(".flash")).to_contain_text("challenge is open")
    assert_inert(page)

    # A model whose name and output are payloads, on every page that shows them.
    for path in (
        "/agents/",
        "/agents/hostile-model/",
        "/matches/",
        f"/matches/{planted['match']}/?ply=1",
        f"/play/{planted['match']}/",
    ):
        page.goto(f"{live_site.url}{path}")
        page.wait_for_load_state("networkidle")
        assert_inert(page)
    page.goto(f"{live_site.url}/matches/{planted['match']}/?ply=1")
    expect(page.locator(".attempt pre.model-text").first).to_contain_text("<script>")  # shown as text

    # An annotation whose comment is a payload.
    page.goto(f"{live_site.url}/accounts/signup/")
    page.fill("input[name=username]", "annotator")
    page.fill("input[name=password1]", "a-long-Passw0rd!")
    page.fill("input[name=password2]", "a-long-Passw0rd!")
    page.click("button:has-text('Create account')")
    page.goto(f"{live_site.url}/matches/{planted['match']}/?ply=1")
    page.click("summary:has-text('Annotate this move')")
    page.fill("textarea[name=comment]", PAYLOAD)
    page.click("button:has-text('Save annotation')")
    expect(page.locator(".annotation-comment")).to_contain_text("window.__pwned")
    assert_inert(page)
    page.goto(f"{live_site.url}/annotations/")
    assert_inert(page)
    assert dialogs == []
    assert re.search(r"__pwned", page.content())  # present only as escaped text
