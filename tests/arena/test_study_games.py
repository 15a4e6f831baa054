"""Games as a study needs them: per-game options (a shorter Kuhn match, a variant, its own time per move) and
the void-and-replay rule when the opponent stalls (no result for anyone, replayed, marked in the exports)."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from arena.models import Agent, Decision, Match
from arena.record.agents import bots_ensure
from arena.record.services import decision_record
from arena.record.turns import match_claim
from arena.studies.models import Participant, Study
from arena.studies.services import MAX_REPLAYS, study_save
from tests.arena.test_studies import staff  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db

FORM = {
    "title": "Short poker",
    "slug": "short-poker",
    "consent_text": "Play a short poker match.",
    "design": "kuhn-poker: kuhn-poker-lv0",
    "games_per_opponent": "1",
    "order": "fixed",
    "completion_code": "DONE",
    "max_participants": "10",
    "is_open": "on",
}


def join(client: Client, slug: str) -> Participant:
    assert client.post(f"/studies/{slug}/", {"answer": "accept", "consent_version": "1"}).status_code == 302
    return Participant.objects.get(code=client.session["study_participants"][slug])


def start(client: Client, slug: str) -> Match:
    response = client.post(f"/studies/{slug}/next/")
    return Match.objects.get(pk=int(re.fullmatch(r"/play/(\d+)/", response.url).group(1)))


def test_a_study_sets_each_games_options_and_time_per_move(staff):  # noqa: F811
    bots_ensure(game="kuhn-poker")
    for options, error in (
        ("kuhn-poker: hands=0", "hands must be a whole number from 1"),
        ("kuhn-poker: blinds=2", "takes only the option 'hands'"),
        ("kuhn-poker: variant=turbo", "has no variant 'turbo'"),
        ("kuhn-poker: move_time_limit_s=2", "from 5 to 3600"),
        ("chess: hands=3", "for a game listed above"),
        ("kuhn-poker: hands", "key=value"),
    ):
        page = staff.post("/studies/new/", FORM | {"game_options": options}).content.decode()
        assert error in html.unescape(page), options
    assert not Study.objects.exists()

    response = staff.post("/studies/new/", FORM | {"game_options": "kuhn-poker: hands=10, move_time_limit_s=60"})
    assert response.status_code == 302
    study = Study.objects.get()
    assert study.design == [
        {"game": "kuhn-poker", "opponents": ["kuhn-poker-lv0"], "options": {"hands": 10}, "move_time_limit_s": 60}
    ]
    edit = html.unescape(staff.get("/studies/short-poker/edit/").content.decode())
    assert "kuhn-poker: hands=10, move_time_limit_s=60" in edit

    client = Client()
    join(client, "short-poker")
    match = start(client, "short-poker")
    assert match.options == {"hands": 10}
    assert match.state["hands"] == 10
    assert match.record["policies"]["move_time_limit_s"] == 60


@pytest.fixture
def stalling_study() -> Study:
    bots_ensure(game="tic-tac-toe")
    return study_save(
        consent_text="Play one game.",
        slug="stalls",
        title="Stalls",
        design=[{"game": "tic-tac-toe", "opponents": ["tic-tac-toe-lv0"]}],
        games_per_opponent=1,
        order="fixed",
        move_time_limit_s=None,
        questionnaire=False,
        completion_code="DONE",
        max_participants=10,
        is_open=True,
        void_after_s=30,
    )


def stall(client: Client, *, waited_s: int) -> Match:
    """Start the participant's match, move first (seat 0), and let the opponent (no worker runs it) not answer
    for `waited_s`."""
    match = start(client, "stalls")
    seat = next(s.index for s in match.seats.all() if s.agent_version.agent.kind == Agent.Kind.HUMAN)
    assert seat == 0
    decision_record(match=match_claim(match_id=match.pk, worker="w").match, ply=0, action=4, elapsed_ms=900)
    Decision.objects.filter(match=match).update(created_at=timezone.now() - timedelta(seconds=waited_s))
    return match


def test_a_stalled_opponent_voids_the_match_which_is_replayed(stalling_study, staff):  # noqa: F811
    client = Client()
    participant = join(client, "stalls")
    waiting = stall(client, waited_s=20)  # within the rule: the match goes on
    assert "-void" not in client.get("/studies/stalls/").content.decode()
    waiting.refresh_from_db()
    assert waiting.status == Match.Status.RUNNING

    Decision.objects.filter(match=waiting).update(created_at=timezone.now() - timedelta(seconds=31))
    page = client.get("/studies/stalls/").content.decode()
    assert "it is void, and you play it again below" in page
    assert "Start match 1" in page
    waiting.refresh_from_db()
    assert (waiting.status, waiting.termination) == (Match.Status.ABORTED, "void: the opponent did not move for 30 s")
    assert waiting.scores is None  # not the participant's loss

    replay = stall(client, waited_s=5)
    assert replay.pk != waiting.pk
    assert "If your opponent takes more than 30 s over a move" in client.get(f"/play/{replay.pk}/").content.decode()

    rows = list(csv.DictReader(io.StringIO(staff.get("/studies/stalls/export/matches.csv").content.decode())))
    assert [(r["match_uid"], r["match_status"], r["score"]) for r in rows] == [
        (str(waiting.uid), "void", ""),
        (str(replay.uid), "running", ""),
    ]
    decisions = [json.loads(line) for line in staff.get("/studies/stalls/export/decisions.jsonl").content.splitlines()]
    assert [(d["match_uid"], d["void"]) for d in decisions] == [(str(waiting.uid), True), (str(replay.uid), False)]
    record = json.loads(staff.get("/studies/stalls/export.jsonl").content)
    assert record["matches"][0]["void_matches"] == [str(waiting.uid)]
    assert participant.code in record["participant"]


def test_when_the_replays_run_out_the_assignment_ends_void_and_the_participant_completes(stalling_study, staff):  # noqa: F811
    client = Client()
    join(client, "stalls")
    for _ in range(MAX_REPLAYS + 1):
        stall(client, waited_s=60)
        client.get("/studies/stalls/")
    thanks = client.get("/studies/stalls/").content.decode()
    assert "You have played every match of Stalls." in thanks
    assert ">DONE</code>" in thanks  # a void assignment is no short match: the participant completed
    summary = staff.get("/studies/stalls/export.json").json()
    assert summary["participants"]["completed"] == 1
    rows = list(csv.DictReader(io.StringIO(staff.get("/studies/stalls/export/matches.csv").content.decode())))
    assert [r["match_status"] for r in rows] == ["void"] * (MAX_REPLAYS + 1)
