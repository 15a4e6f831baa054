"""Codes a paid study needs: a completion code per participant, the recruiter's redirect URL with the participant's
id passed back, and the researcher deleting a participant by any code they see."""

from __future__ import annotations

import html
import json

import pytest
from django.test import Client

from arena.studies.codes import completion_code, withdrawal_code
from arena.studies.models import Participant, Study
from tests.arena.test_studies import join, play_next, staff, study  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db

REDIRECT = "https://recruiter.example/done?cc={completion_code}&id={pid}"


def complete(client: Client) -> str:
    """Play both matches; the thank-you page."""
    play_next(client, person_wins=True)
    play_next(client, person_wins=False)
    return client.get("/studies/two-games/").content.decode()


def test_each_participant_gets_their_own_code_and_the_redirect_passes_the_id_back(study, staff):  # noqa: F811
    Study.objects.filter(pk=study.pk).update(per_participant_codes=True, redirect_url=REDIRECT)
    first, second = Client(), Client()
    one, two = join(first, "SONA 7/8"), join(second, "sona-9")
    thanks = complete(first)
    code = completion_code(one)
    assert code != completion_code(two)
    assert code != "C0FFEE42"
    assert f">{code}</code>" in thanks
    assert "C0FFEE42" not in thanks
    assert f'href="https://recruiter.example/done?cc={code}&amp;id=SONA%207%2F8"' in thanks

    records = {
        r["participant"]: r
        for r in map(json.loads, staff.get("/studies/two-games/export.jsonl").content.split(b"\n")[:-1])
    }
    assert records[one.code]["completion_code"] == code
    row = staff.get("/studies/two-games/results/").content.decode().split(f'id="participant-{one.code}-row"')[1]
    assert f"<code>{code}</code>" in row.split("</tr>")[0]  # the researcher sees the code to check it
    assert "SONA" not in staff.get("/studies/two-games/export.csv").content.decode()  # the id stays in the session


def test_no_redirect_before_completion_nor_without_a_url(study):  # noqa: F811
    client = Client()
    join(client, "p1")
    assert "recruiter.example" not in client.get("/studies/two-games/").content.decode()
    thanks = complete(client)
    assert "Return to the recruiting site" not in thanks
    assert ">C0FFEE42</code>" in thanks  # the study's one code by default


def test_the_form_refuses_a_redirect_url_it_cannot_fill(staff):  # noqa: F811
    from arena.record.agents import bots_ensure

    bots_ensure(game="tic-tac-toe")
    form = {
        "title": "Codes",
        "slug": "codes",
        "consent_text": "Play.",
        "design": "tic-tac-toe: tic-tac-toe-lv0",
        "games_per_opponent": "1",
        "order": "fixed",
        "completion_code": "DONE",
        "max_participants": "10",
    }
    for url, error in (
        ("ftp://recruiter.example/", "starts with https://"),
        ("https://recruiter.example/?id={participant}", "not {participant}"),
        ("https://recruiter.example/?id={pid", "unmatched brace"),
    ):
        page = staff.post("/studies/new/", form | {"redirect_url": url}).content.decode()
        assert error in html.unescape(page)
    assert not Study.objects.filter(slug="codes").exists()
    assert staff.post("/studies/new/", form | {"redirect_url": REDIRECT}).status_code == 302
    assert Study.objects.get(slug="codes").redirect_url == REDIRECT


def test_the_researcher_deletes_a_participant_by_any_code_they_see(study, staff):  # noqa: F811
    Study.objects.filter(pk=study.pk).update(per_participant_codes=True)
    people = [join(Client(), f"p{i}") for i in range(4)]
    shown = staff.get("/studies/two-games/results/").content.decode()
    assert all(p.code in shown for p in people)
    codes = [people[0].code, withdrawal_code(people[1]), completion_code(people[2]).lower()]

    assert Client().post("/studies/two-games/participants/delete/", {"code": codes[0]}).status_code == 404
    wrong = staff.post("/studies/two-games/participants/delete/", {"code": "PDEADBEEF"}, follow=True)
    assert "No participant of this study has that code; nothing was deleted." in wrong.content.decode()
    assert Participant.objects.count() == 4

    for code in codes:
        done = staff.post("/studies/two-games/participants/delete/", {"code": f" {code} "}, follow=True)
        assert "(counted as withdrawn)" in done.content.decode()
    assert list(Participant.objects.values_list("code", flat=True)) == [people[3].code]
    assert staff.get("/studies/two-games/export.json").json()["participants"]["withdrawn"] == 3


def test_erasing_a_study_at_the_end_of_its_retention_keeps_the_matches_anonymous(study):  # noqa: F811
    from django.core.management import CommandError, call_command

    from arena.models import Agent, Match

    client = Client()
    participant = join(client, "p1")
    match = play_next(client, person_wins=True)
    with pytest.raises(CommandError, match="add --yes"):
        call_command("study_erase", "two-games")
    assert Participant.objects.count() == 1
    call_command("study_erase", "two-games", "--yes")
    assert not Study.objects.exists()
    assert not Participant.objects.exists()
    assert Match.objects.filter(pk=match.pk).exists()  # the public record keeps the game, anonymous
    assert Agent.objects.get(pk=participant.agent_id).name == "Withdrawn participant"
    with pytest.raises(CommandError, match="no study"):
        call_command("study_erase", "two-games", "--yes")
