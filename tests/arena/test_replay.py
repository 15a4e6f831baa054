"""Replays and decision traces: hostile model text stays inert and whole."""

from __future__ import annotations

import pytest

from arena.agents.base import AttemptData
from arena.record.agents import agent_create
from arena.record.services import decision_record, match_create
from arena.record.turns import match_claim

pytestmark = pytest.mark.django_db

HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'
HUGE = "move e5 because " + "blah " * 200_000  # ~1 MB of reasoning
CONTROL = "line\x00with\x07control\x1bchars"


@pytest.fixture
def traced_match(ttt_bots):
    model = agent_create(slug="chatty", name="Chatty <b>model</b>", kind="llm", config={"model": "m"})
    match = match_create(game="tic-tac-toe", agents=[model, ttt_bots["tic-tac-toe-lv0"]], seed=3)
    match = match_claim(match_id=match.pk, worker="t").match
    attempts = [
        AttemptData(
            verdict="unparseable",
            raw_text=HOSTILE,
            message="No 'Answer:' line found.",
            messages=[{"role": "system", "content": "rules " + HOSTILE}, {"role": "user", "content": CONTROL}],
        ),
        AttemptData(verdict="ok", raw_text="Answer: b2", reasoning_text=HUGE, parsed_action="b2", completion_tokens=9),
    ]
    return decision_record(match=match, ply=0, action=4, attempts=attempts)


def test_trace_escapes_hostile_text_and_folds_without_truncating(client, traced_match):
    body = client.get(f"/matches/{traced_match.pk}/replay/?ply=1").content.decode()
    assert "<script>alert" not in body
    assert "<img src=x" not in body
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in body
    assert body.count("blah ") == 200_000  # folded in <details>, never cut
    assert "badge-unparseable" in body
    assert "badge-ok" in body
    assert "No &#x27;Answer:&#x27; line found." in body
    assert "\x00" not in body  # control characters are shown as symbols, never sent raw
    assert "line␀with␇control␛chars" in body
    page = client.get(f"/matches/{traced_match.pk}/").content.decode()
    assert "Chatty &lt;b&gt;model&lt;/b&gt;" in page or "chatty" in page
    assert "<b>model</b>" not in page
