"""A study's own questions: multiple choice and attention checks before the first match, a Likert item and free
text after the last, the answers in the exports and failed attention checks on the researcher's page."""

from __future__ import annotations

import csv
import html
import io
import json
import re

import pytest
from django.test import Client

from arena.models import Agent, Match
from arena.record.agents import bots_ensure
from arena.record.services import decision_record
from arena.record.turns import match_claim
from arena.studies.models import Participant, Study
from tests.arena.test_studies import WINS, staff  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db

QUESTIONS = """pre choice: How often do you play board games? | never | monthly | weekly
pre attention: Choose “blue” to show you are reading. | red | blue | green = blue
post likert: The opponent played like a person.
post text: Anything you would like to tell us?"""

FORM = {
    "title": "Asked",
    "slug": "asked",
    "consent_text": "Play one game and answer a few questions.",
    "design": "tic-tac-toe: tic-tac-toe-lv0",
    "games_per_opponent": "1",
    "order": "fixed",
    "completion_code": "DONE",
    "max_participants": "10",
    "is_open": "on",
}


@pytest.fixture
def study(staff) -> Study:  # noqa: F811
    bots_ensure(game="tic-tac-toe")
    assert staff.post("/studies/new/", FORM | {"questions": QUESTIONS}).status_code == 302
    return Study.objects.get()


def test_the_form_reads_the_questions_and_refuses_malformed_ones(study, staff):  # noqa: F811
    assert [(q["id"], q["when"], q["kind"]) for q in study.questions] == [
        ("q1", "pre", "choice"),
        ("q2", "pre", "attention"),
        ("q3", "post", "likert"),
        ("q4", "post", "text"),
    ]
    assert study.questions[1] == {
        "id": "q2",
        "when": "pre",
        "kind": "attention",
        "text": "Choose “blue” to show you are reading.",
        "choices": ["red", "blue", "green"],
        "expected": "blue",
    }
    assert f"{QUESTIONS}</textarea>" in html.unescape(staff.get("/studies/asked/edit/").content.decode())
    for line, error in (
        ("pre attention: Pick blue. | red | blue", "names its expected answer"),
        ("pre choice: Only one? | yes", "two or more different choices"),
        ("during text: When?", "say when (pre or post)"),
        ("post essay: Write.", "what kind"),
        ("post likert: Agree? | yes | no", "only choice and attention questions list choices"),
        ("likert no colon", "write “pre|post"),
    ):
        page = staff.post("/studies/new/", FORM | {"slug": "other", "questions": line}).content.decode()
        assert error in html.unescape(page), line
    assert not Study.objects.filter(slug="other").exists()


def play_one(client: Client) -> None:
    response = client.post("/studies/asked/next/")
    match = Match.objects.get(pk=int(re.fullmatch(r"/play/(\d+)/", response.url).group(1)))
    seat = next(s.index for s in match.seats.all() if s.agent_version.agent.kind == Agent.Kind.HUMAN)
    match = match_claim(match_id=match.pk, worker="w").match
    for ply, action in enumerate(WINS["tic-tac-toe"][seat]):
        match = decision_record(match=match, ply=ply, action=action)


def test_questions_before_and_after_the_matches_reach_the_exports(study, staff):  # noqa: F811
    careful, careless = Client(), Client()
    for client, attention in ((careful, "blue"), (careless, "red")):
        client.post("/studies/asked/", {"answer": "accept", "consent_version": "1"})
        assert client.get("/studies/asked/").url == "/studies/asked/questionnaire/"
        page = client.get("/studies/asked/questionnaire/").content.decode()
        assert "How often do you play board games?" in page
        assert "The opponent played like a person." not in page  # a post question
        assert client.post("/studies/asked/questionnaire/", {"q1": "monthly"}).status_code == 200  # q2 missing
        assert client.post("/studies/asked/questionnaire/", {"q1": "monthly", "q2": attention}).status_code == 302
        assert client.get("/studies/asked/after/").url == "/studies/asked/"  # not before the last match
        play_one(client)
        assert client.get("/studies/asked/").url == "/studies/asked/after/"  # no code before the post questions
        after = client.get("/studies/asked/after/").content.decode()
        assert "strongly agree" in after
        assert client.post("/studies/asked/after/", {"q3": "6", "q4": ""}).status_code == 200  # off the scale
        answers = {"q3": "4", "q4": "Fun, but the opponent was slow."}
        assert client.post("/studies/asked/after/", answers).status_code == 302
        assert ">DONE</code>" in client.get("/studies/asked/").content.decode()

    one = Participant.objects.get(code=careful.session["study_participants"]["asked"])
    two = Participant.objects.get(code=careless.session["study_participants"]["asked"])
    assert one.answers == {
        "questions": {"q1": "monthly", "q2": "blue", "q3": "4", "q4": "Fun, but the opponent was slow."}
    }
    results = staff.get("/studies/asked/results/").content.decode()
    row = re.search(rf'id="participant-{two.code}-row">(.*?)</tr>', results, re.S).group(1)
    assert "(1 attention check failed)" in row
    assert "attention check" not in re.search(rf'id="participant-{one.code}-row">(.*?)</tr>', results, re.S).group(1)

    rows = list(csv.DictReader(io.StringIO(staff.get("/studies/asked/export/answers.csv").content.decode())))
    assert len(rows) == 2 * 4
    mine = {r["question"]: r for r in rows if r["participant"] == two.code}
    assert (mine["q2"]["answer"], mine["q2"]["expected"], mine["q2"]["passed"]) == ("red", "blue", "False")
    assert (mine["q3"]["kind"], mine["q3"]["answer"]) == ("likert", "4")
    assert mine["q4"]["text"] == "Anything you would like to tell us?"
    records = {
        r["participant"]: r for r in map(json.loads, staff.get("/studies/asked/export.jsonl").content.splitlines())
    }
    assert (records[one.code]["attention_failed"], records[two.code]["attention_failed"]) == (0, 1)
    assert staff.get("/studies/asked/export.json").json()["questions"] == study.questions
