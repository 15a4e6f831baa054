"""Two participants complete a two-game counterbalanced study in real Chromium at 1280 px: tic-tac-toe against a
bot level and connect-four against a model (the site's local model, answered by the scripted server on loopback).
The second closes the tab mid-match and resumes from the link; the researcher's page shows both, the baseline
with n = 2 participants, and the JSONL export matches the record."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_play import play_until_over

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SET_UP = """
from django.contrib.auth.models import User
from arena.studies.services import study_save
study_save(consent_text="Two short games; your moves are recorded.", slug="two-part", title="Two-part study",
    design=[{"game": "tic-tac-toe", "opponents": ["tic-tac-toe-lv0"]},
            {"game": "connect-four", "opponents": ["smollm2-135m"]}],
    games_per_opponent=1, order="counterbalanced", move_time_limit_s=None, questionnaire=False,
    completion_code="TW0PART9", max_participants=5, is_open=True)
User.objects.create_user("researcher", password="a long researcher password", is_staff=True)
"""

#: The record as the database holds it, for comparison with the export.
RECORD = """
import json
from arena.studies.models import Participant
out = {}
for p in Participant.objects.filter(study__slug="two-part"):
    out[p.code] = {"consent_version": p.consent.version, "game_order": p.game_order, "matches": [
        {"position": a.position, "game": a.game, "opponent": a.opponent.slug, "seat": a.seat, "match_id": a.match_id,
         "match_uid": str(a.match.uid), "match_status": a.match.status, "score": float(a.match.scores[a.seat])}
        for a in p.assignments.select_related("match", "opponent")]}
print(json.dumps(out))
"""

LINK = "/studies/two-part/"


@pytest.fixture
def new_page(chromium):
    """Pages at 1280 px, each in its own browser context (its own cookies: one person each)."""
    contexts, errors = [], []

    def make(context=None):
        if context is None:
            context = chromium.new_context(viewport={"width": 1280, "height": 900})
            contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(60_000)
        expect.set_options(timeout=20_000)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"the pages logged errors: {errors}"


def join(page, url: str) -> str:
    """Accept the consent text; the participant's code."""
    page.goto(url)
    expect(page.locator(".consent-text")).to_contain_text("Two short games; your moves are recorded.")
    page.click("button:has-text('I have read this and agree')")
    expect(page.locator("h2#next-heading")).to_be_visible()
    return re.search(r"Participant (P[0-9A-F]+)", page.locator("#main").inner_text())[1]


def start(page, position: int, game: str, opponent: str) -> None:
    expect(page.locator("h2#next-heading")).to_have_text(f"Next: {game} against {opponent}")
    page.click(f"button:has-text('Start match {position}')")
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    expect(page.locator("[data-connection]")).to_have_text("connected")


def drop_in_column_d(page) -> None:
    """Play connect-four in column d while it is open (the model answers its first legal move): a short game."""
    status = page.locator(".match-status")
    for _ in range(21):
        expect(status).to_contain_text(re.compile(r"Your move|Game over"), timeout=30_000)
        if "Game over" in status.inner_text():
            return
        played = page.locator(".move-list li:not(.muted)")
        before = played.count()
        column = page.locator(".cell-target[data-cell='d']")
        (column if column.count() else page.locator(".cell-target").first).click()
        expect(played).not_to_have_count(before, timeout=30_000)
    expect(status).to_contain_text("Game over", timeout=30_000)


def back_to_the_study(page) -> None:
    expect(page.locator(".match-status")).to_contain_text("Game over")
    page.click("a:has-text('Back to the study')")


def test_two_participants_complete_a_counterbalanced_study_and_the_researcher_sees_them(new_page, live_site):
    live_site.manage("shell", "-c", SET_UP)

    # The first participant: the Latin square's first row, tic-tac-toe against the bot, then the model.
    first = new_page()
    one = join(first, f"{live_site.url}{LINK}?pid=recruit-1")
    start(first, 1, "Tic-tac-toe", "Tic-tac-toe Lv0")
    play_until_over(first, max_moves=6)
    back_to_the_study(first)
    start(first, 2, "Connect Four", "SmolLM2 135M (local)")
    drop_in_column_d(first)
    back_to_the_study(first)
    expect(first.locator("code[id$='-completion-code']")).to_have_text("TW0PART9")

    # The second: the other row (connect-four first); closes the tab in the middle of the second match.
    second = new_page()
    two = join(second, f"{live_site.url}{LINK}?pid=recruit-2")
    start(second, 1, "Connect Four", "SmolLM2 135M (local)")
    drop_in_column_d(second)
    back_to_the_study(second)
    start(second, 2, "Tic-tac-toe", "Tic-tac-toe Lv0")
    expect(second.locator(".match-status")).to_contain_text("Your move")
    played = second.locator(".move-list li:not(.muted)")
    before = played.count()
    second.locator(".cell-target").first.click()
    expect(played).not_to_have_count(before)
    expect(second.locator(".match-status")).to_contain_text(re.compile(r"Your move|Game over"))
    moves = played.count()  # ours and the bot's reply
    context = second.context
    second.close()
    again = new_page(context)
    again.goto(f"{live_site.url}{LINK}?pid=recruit-2")
    expect(again.locator("#main")).to_contain_text(f"Participant {two} · match 2 of 2")
    again.click("button:has-text('Continue this match')")
    expect(again.locator("[data-connection]")).to_have_text("connected")
    expect(again.locator(".move-list li:not(.muted)")).to_have_count(moves)  # the match as it was left
    play_until_over(again, max_moves=5)
    back_to_the_study(again)
    expect(again.locator("code[id$='-completion-code']")).to_have_text("TW0PART9")

    # The researcher.
    staff = new_page()
    staff.goto(f"{live_site.url}/accounts/login/?next={LINK}results/")
    staff.fill("input[name=username]", "researcher")
    staff.fill("input[name=password]", "a long researcher password")
    staff.click("button:has-text('Log in')")
    staff.wait_for_url(re.compile(r"/results/$"))
    main = staff.locator("#main")
    expect(main).to_contain_text("completed: 2")
    for code, order in ((one, "tic-tac-toe → connect-four"), (two, "connect-four → tic-tac-toe")):
        row = staff.locator(f"#participant-{code}-row")
        expect(row).to_contain_text("completed")
        expect(row).to_contain_text("2 / 2")
        expect(row).to_contain_text(order)
    baseline = staff.locator("table[id$='-baseline'] tbody tr")
    expect(baseline).to_have_count(3)  # tic-tac-toe, connect-four, all study games
    for i in range(3):
        expect(baseline.nth(i).locator("td").nth(2)).to_have_text("n = 2")
    expect(baseline.nth(2).locator("td").nth(3)).to_have_text("4")

    response = staff.request.get(f"{live_site.url}{LINK}export.jsonl")
    assert response.ok
    exported = {r["participant"]: r for r in map(json.loads, response.text().splitlines())}
    record = json.loads(live_site.manage("shell", "-c", RECORD).strip().splitlines()[-1])
    assert set(exported) == set(record) == {one, two}
    for code, held in record.items():
        mine = exported[code]
        assert (mine["participant_status"], mine["consent_version"], mine["game_order"]) == (
            "completed",
            held["consent_version"],
            held["game_order"],
        )
        fields = ("position", "game", "opponent", "seat", "match_id", "match_uid", "match_status", "score")
        assert [{k: m[k] for k in fields} for m in mine["matches"]] == held["matches"]
        assert all(m["match_status"] == "finished" and not m["abandoned"] for m in mine["matches"])
    assert "recruit-" not in response.text()
