"""Studies strangers cannot abuse: the completion code only after the matches were played (the study's minimum
plies and seconds), a recruiter's id that joins once and then reveals nothing, joins bounded per address, and a
participant's seat page that is theirs and the researchers' only."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from arena.record.agents import bots_ensure
from arena.record.people import person_resign
from arena.studies.models import Participant, Study
from arena.studies.services import study_save
from tests.arena.test_studies import CONSENT, join, play_next, staff  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

DESIGN = [
    {"game": "tic-tac-toe", "opponents": ["tic-tac-toe-lv0"]},
    {"game": "connect-four", "opponents": ["connect-four-lv0"]},
]


def make_study(**minimum) -> Study:
    bots_ensure(game="tic-tac-toe")
    bots_ensure(game="connect-four")
    return study_save(
        consent_text=CONSENT, slug="two-games", title="Two games", design=DESIGN, games_per_opponent=1,
        order=Study.Order.COUNTERBALANCED, move_time_limit_s=None, questionnaire=True, completion_code="C0FFEE42",
        max_participants=10, is_open=True, **minimum,
    )  # fmt: skip


def resign_next(client: Client, participant: Participant) -> None:
    """Start the participant's next match and resign it at once, as the live page's resign button does."""
    response = client.post("/studies/two-games/next/")
    match_id = int(re.fullmatch(r"/play/(\d+)/", response.url).group(1))
    person_resign(match_id=match_id, agent=participant.agent)


def test_resigning_every_match_at_once_is_incomplete_and_earns_no_code(staff):  # noqa: F811
    make_study(min_plies=4)
    quitter, player = Client(), Client()
    quitting = join(quitter, "quitter")
    for _ in range(2):
        resign_next(quitter, quitting)
    thanks = quitter.get("/studies/two-games/").content.decode()
    assert "C0FFEE42" not in thanks
    assert f'id="participant-{quitting.code}-incomplete"' in thanks
    assert "at least 4 moves" in thanks

    join(player, "player")
    play_next(player, person_wins=True)
    play_next(player, person_wins=False)
    assert "C0FFEE42" in player.get("/studies/two-games/").content.decode()

    results = staff.get("/studies/two-games/results/").content.decode()
    assert "completed: <strong>1</strong>" in results
    assert "incomplete: <strong>1</strong>" in results
    assert "(2 too short)" in results
    records = {
        r["participant"]: r for r in map(json.loads, staff.get("/studies/two-games/export.jsonl").content.splitlines())
    }
    assert records[quitting.code]["participant_status"] == "incomplete"
    assert [m["short"] for m in records[quitting.code]["matches"]] == [True, True]
    assert {r["participant_status"] for code, r in records.items() if code != quitting.code} == {"completed"}
    csv_rows = staff.get("/studies/two-games/export.csv").content.decode().splitlines()
    assert csv_rows[0].endswith(",short")
    assert staff.get("/studies/two-games/export.json").json()["participants"]["incomplete"] == 1


def test_a_match_shorter_than_the_minimum_time_is_not_played_enough():
    make_study(min_seconds=3600)
    player = Client()
    join(player, "player")
    play_next(player, person_wins=True)
    play_next(player, person_wins=True)  # real games, over in far less than an hour
    assert "C0FFEE42" not in player.get("/studies/two-games/").content.decode()


def test_a_recruiter_id_joins_once_and_then_reveals_nothing():
    make_study()
    participant_client = Client()
    joined = join(participant_client, "prolific-A")
    play_next(participant_client, person_wins=True)
    play_next(participant_client, person_wins=True)
    assert "C0FFEE42" in participant_client.get("/studies/two-games/").content.decode()

    stranger = Client()
    page = stranger.get("/studies/two-games/?pid=prolific-A").content.decode()
    assert "C0FFEE42" not in page
    assert joined.code not in page
    assert 'value="accept"' in page  # the consent page, as for anyone new
    again = stranger.post("/studies/two-games/", {"answer": "accept", "consent_version": "1", "pid": "prolific-A"})
    assert again.status_code == 409
    assert "already joined" in again.content.decode()
    assert joined.code not in again.content.decode()
    assert "C0FFEE42" not in stranger.get("/studies/two-games/").content.decode()
    assert Participant.objects.count() == 1
    assert "C0FFEE42" in participant_client.get("/studies/two-games/").content.decode()  # still theirs


def test_one_address_joins_a_study_a_bounded_number_of_times(settings):
    settings.ARENA_RATE_LIMITS = {"study_join_per_study": (2, 86_400)}
    make_study()
    join(Client(), "one")
    join(Client(), "two")
    refused = Client().post("/studies/two-games/", {"answer": "accept", "consent_version": "1", "pid": "three"})
    assert refused.status_code == 429
    assert Participant.objects.count() == 2


def test_withdrawal_codes_tried_are_bounded(settings):
    settings.ARENA_RATE_LIMITS = {"study_withdraw": (3, 600)}
    make_study()
    guesser = Client()
    for attempt in range(3):
        assert guesser.post("/studies/two-games/withdraw/", {"code": f"P0000000{attempt}-x"}).status_code == 200
    assert guesser.post("/studies/two-games/withdraw/", {"code": "P00000003-x"}).status_code == 429


def test_a_participants_seat_page_is_theirs_and_the_researchers_only(staff):  # noqa: F811
    make_study()
    participant_client = Client()
    participant = join(participant_client, "a")
    play_next(participant_client, person_wins=True)
    seat_page = f"/agents/{participant.agent.slug}/"
    assert Client().get(seat_page).status_code == 404
    assert participant_client.get(seat_page).status_code == 200
    assert staff.get(seat_page).status_code == 200


def test_a_study_slug_with_a_double_dash_still_seats_its_participants():
    study = make_study()
    study.slug = "spring--2026"  # agents' slugs keep "--" for evaluations; a study's may hold it
    study.save()
    page = Client().post("/studies/spring--2026/", {"answer": "accept", "consent_version": "1"})
    assert page.status_code == 302
    assert "--" not in Participant.objects.get().agent.slug
