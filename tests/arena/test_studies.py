"""Human baseline studies: set-up, the participant's flow (consent, questionnaire, assigned matches, resuming),
the researcher's page (status, results, the pooled baseline with participant-level intervals), privacy."""

from __future__ import annotations

import dataclasses
import json
import math
import re
from datetime import timedelta

import numpy as np
import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.test import Client, override_settings
from django.utils import timezone

from arena.models import Agent, Decision, Match
from arena.record.agents import bots_ensure
from arena.record.people import matches_abandoned_end
from arena.record.services import decision_record
from arena.record.turns import match_claim
from arena.studies.bootstrap import Rows, interval, pooled_rating, resample_ratings
from arena.studies.codes import keyed_hash
from arena.studies.design import latin_square
from arena.studies.models import Participant, Study
from arena.studies.services import study_save
from ratings.maths.bradley_terry import ELO_PER_NAT
from ratings.record.services import snapshot_refresh

pytestmark = pytest.mark.django_db

CONSENT = "You will play two short games against computer opponents.\nYour moves are recorded for research."
#: Moves that make seat 0 win, and moves that make seat 1 win (every seat's moves are recorded as given).
WINS = {
    "tic-tac-toe": {0: [0, 3, 1, 4, 2], 1: [3, 0, 4, 1, 8, 2]},
    "connect-four": {0: [0, 1, 0, 1, 0, 1, 0], 1: [1, 0, 1, 0, 1, 0, 2, 0]},
}


@pytest.fixture
def study() -> Study:
    bots_ensure(game="tic-tac-toe")
    bots_ensure(game="connect-four")
    design = [
        {"game": "tic-tac-toe", "opponents": ["tic-tac-toe-lv0"]},
        {"game": "connect-four", "opponents": ["connect-four-lv0"]},
    ]
    return study_save(
        consent_text=CONSENT,
        slug="two-games",
        title="Two games",
        design=design,
        games_per_opponent=1,
        order=Study.Order.COUNTERBALANCED,
        move_time_limit_s=None,
        questionnaire=True,
        completion_code="C0FFEE42",
        max_participants=10,
        is_open=True,
    )


@pytest.fixture
def staff() -> Client:
    client = Client()
    client.force_login(User.objects.create_user("researcher", password="x", is_staff=True))
    return client


def join(client: Client, pid: str) -> Participant:
    page = client.get(f"/studies/two-games/?pid={pid}")
    assert "You will play two short games against computer opponents." in page.content.decode()
    response = client.post("/studies/two-games/", {"answer": "accept", "consent_version": "1", "pid": pid})
    assert response.status_code == 302
    assert client.get("/studies/two-games/").url == "/studies/two-games/questionnaire/"
    answers = {"tic-tac-toe": "some", "connect-four": "none"}
    assert client.post("/studies/two-games/questionnaire/", answers).status_code == 302
    return Participant.objects.get(external_id_hash=keyed_hash(Study.objects.get(), pid))


def play_next(client: Client, person_wins: bool) -> Match:
    """Start the participant's next match through the study and finish it with the person winning or losing."""
    response = client.post("/studies/two-games/next/")
    match = Match.objects.get(pk=int(re.fullmatch(r"/play/(\d+)/", response.url).group(1)))
    assert client.get(response.url).status_code == 200
    seat = next(s.index for s in match.seats.all() if s.agent_version.agent.kind == Agent.Kind.HUMAN)
    winner = seat if person_wins else 1 - seat
    match = match_claim(match_id=match.pk, worker="w").match
    for ply, action in enumerate(WINS[match.game][winner]):
        match = decision_record(match=match, ply=ply, action=action)
    assert match.scores[seat] == (1.0 if person_wins else 0.0)
    page = client.get(f"/play/{match.pk}/").content.decode()
    assert "Back to the study" in page
    assert "Play again" not in page  # the lobby is not the way on from a study's match
    return match


def test_latin_square_is_balanced():
    for n in (2, 3, 4, 5):
        rows = latin_square(n)
        for position in range(n):  # every item once per position in every block of n rows
            assert sorted(row[position] for row in rows[:n]) == list(range(n))
        follows = [(row[i], row[i + 1]) for row in rows for i in range(n - 1)]
        assert len(set(follows)) == n * (n - 1)  # every ordered pair of neighbours occurs


def test_two_participants_complete_a_counterbalanced_study_and_the_researcher_sees_the_baseline(study, staff):
    first, second = Client(), Client()
    one = join(first, "prolific-A")
    two = join(second, "prolific-B")
    assert one.game_order == ["tic-tac-toe", "connect-four"]
    assert two.game_order == ["connect-four", "tic-tac-toe"]  # the Latin square's second row
    assert one.consent.version == two.consent.version == 1
    assert one.answers == {"experience": {"tic-tac-toe": "some", "connect-four": "none"}}
    assert "prolific-A" not in json.dumps(list(Participant.objects.values()), default=str)
    assert one.code not in Client().get("/agents/").content.decode()  # a participant's seat is not listed

    assert play_next(first, person_wins=True).game == "tic-tac-toe"
    assert play_next(first, person_wins=True).game == "connect-four"
    thanks = first.get("/studies/two-games/").content.decode()
    assert "C0FFEE42" in thanks

    assert play_next(second, person_wins=False).game == "connect-four"
    page = second.get("/studies/two-games/").content.decode()  # coming back: the session continues
    assert "match 2 of 2" in page
    assert play_next(second, person_wins=True).game == "tic-tac-toe"
    assert "C0FFEE42" in second.get("/studies/two-games/").content.decode()

    results = staff.get("/studies/two-games/results/").content.decode()
    assert one.code in results
    assert two.code in results
    assert "completed: <strong>2</strong>" in results
    assert results.count("n = 2") >= 3  # tic-tac-toe, connect-four and all games: two participants each
    # Tic-tac-toe: one win (first) and one win (second) against Lv0, each participant one match.
    assert "2 / 0 / 0" in results
    assert "1 / 0 / 1" in results

    export = staff.get("/studies/two-games/export.jsonl").content.decode()
    records = [json.loads(line) for line in export.splitlines()]
    assert {r["participant"] for r in records} == {one.code, two.code}
    assert all(r["consent_version"] == 1 and len(r["matches"]) == 2 for r in records)
    assert "prolific" not in export
    assert keyed_hash(study, "prolific-A") not in export
    summary = staff.get("/studies/two-games/export.json").json()
    assert summary["consents"][0]["text"] == CONSENT
    assert summary["participants"]["completed"] == 2
    assert summary["bootstrap"]["unit"] == "participant"
    assert [b["participants"] for b in summary["baselines"]] == [2, 2, 2]
    # Both said "some" for tic-tac-toe and "none" for connect-four (see `join`): one row each.
    by_experience = [(r["game"], r["experience"], r["n"], r["people"]) for r in summary["results_by_experience"]]
    assert by_experience == [("tic-tac-toe", "some", 2, 2), ("connect-four", "none", 2, 2)]
    ttt = next(r for r in summary["results"] if r["game"] == "tic-tac-toe")
    assert (ttt["matches"], ttt["wins"], ttt["score_share"]) == (2, 2, 1.0)
    csv_text = staff.get("/studies/two-games/export.csv").content.decode()
    assert csv_text.count("\n") == 5
    assert "prolific" not in csv_text


def test_excluding_a_participant_changes_the_baseline(study, staff):
    first, second = Client(), Client()
    join(first, "a")
    two = join(second, "b")
    for client, wins in ((first, True), (first, True), (second, False), (second, True)):
        play_next(client, person_wins=wins)

    def baseline_cells() -> list[str]:
        html = staff.get("/studies/two-games/results/").content.decode()
        table = re.search(r'id="study-\d+-baseline">(.*?)</table>', html, re.S).group(1)
        return re.findall(r"<td>(.*?)</td>", table, re.S)

    before = baseline_cells()
    response = staff.post(f"/studies/two-games/participants/{two.code}/exclude/", {"reason": "played on a phone"})
    assert response.status_code == 302
    after = baseline_cells()
    assert before != after
    assert "n = 1" in "".join(after)
    assert "n = 2" not in "".join(after)
    assert "unbounded" in "".join(after)  # the one participant left won every match: no finite rating
    assert "excluded: <strong>1</strong>" in staff.get("/studies/two-games/results/").content.decode()


def test_declining_consent_stores_nothing(study):
    client = Client()
    counts = (Participant.objects.count(), Agent.objects.count(), Session.objects.count())
    page = client.post("/studies/two-games/", {"answer": "decline", "consent_version": "1", "pid": "x"})
    assert "Nothing about you has been stored" in page.content.decode()
    assert (Participant.objects.count(), Agent.objects.count(), Session.objects.count()) == counts
    assert "sessionid" not in client.cookies


def test_a_participant_reaches_neither_another_participants_match_nor_the_results(study):
    first, second = Client(), Client()
    join(first, "a")
    join(second, "b")
    response = first.post("/studies/two-games/next/")
    assert first.get(response.url).status_code == 200
    assert second.get(response.url).status_code == 404
    pk = int(response.url.strip("/").split("/")[-1])
    assert second.get(f"/matches/{pk}/").status_code == 404
    for path in ("results/", "export.jsonl", "export.csv", "edit/", ""):
        url = f"/studies/two-games/{path}" if path else "/studies/"
        assert second.get(url).status_code == 404
    assert second.post("/studies/two-games/participants/x/exclude/", {"reason": "r"}).status_code == 404


def test_withdrawing_with_the_personal_code_deletes_the_record_and_keeps_the_match_anonymous(study):
    client = Client()
    participant = join(client, "a")
    join(Client(), "b")
    match = play_next(client, person_wins=True)
    code = re.search(r"<code>(P[0-9A-F]{8}-[^<]+)</code>", client.get("/studies/two-games/").content.decode()).group(1)
    assert client.post("/studies/two-games/withdraw/", {"code": participant.code + "-wrong"}).status_code == 200
    assert Participant.objects.filter(pk=participant.pk).exists()
    client.post("/studies/two-games/withdraw/", {"code": code})
    assert not Participant.objects.filter(pk=participant.pk).exists()
    person = next(
        s.agent_version.agent
        for s in Match.objects.get(pk=match.pk).seats.all()
        if s.agent_version.agent.kind == "human"
    )
    assert person.name == "Withdrawn participant"
    assert join(Client(), "c").number == 2  # numbers are never reused: the Latin square's rotation goes on


def test_a_full_or_closed_study_takes_no_one_new_but_lets_participants_return(study):
    client = Client()
    join(client, "a")
    study.max_participants = 1
    study.save()
    newcomer = Client()
    response = newcomer.post("/studies/two-games/", {"answer": "accept", "consent_version": "1", "pid": "b"})
    assert response.status_code == 409
    assert Participant.objects.count() == 1
    study.is_open = False
    study.save()
    assert "not taking new participants" in newcomer.get("/studies/two-games/").content.decode()
    assert "match 1 of 2" in client.get("/studies/two-games/").content.decode()


def test_a_new_consent_text_is_a_new_version_and_participants_keep_theirs(study):
    client = Client()
    participant = join(client, "a")
    fields = {f: getattr(study, f) for f in ("title", "slug", "design", "games_per_opponent", "order")}
    fields |= {f: getattr(study, f) for f in ("move_time_limit_s", "questionnaire", "completion_code")}
    study_save(study=study, consent_text=CONSENT + "\nNew paragraph.", max_participants=10, is_open=True, **fields)
    assert study.consent().version == 2
    participant.refresh_from_db()
    assert participant.consent.version == 1
    assert "New paragraph." in Client().get("/studies/two-games/").content.decode()
    # Someone who read version 1 before the change is asked to read the new text; nobody joins on the old one.
    late = Client().post("/studies/two-games/", {"answer": "accept", "consent_version": "1", "pid": "late"})
    assert late.status_code == 409
    assert "consent text changed" in late.content.decode()
    assert Participant.objects.count() == 1


# The participant-level bootstrap, by hand: two participants, one opponent (the anchor, at 1000), no move order.
# A won 3 of 4, B won 1 of 4. Pooled: 4 of 8 → 1000. Resamples {A, A}, {A, B}, {B, A}, {B, B} are equally likely:
# ratings 1000 + 400/ln 10 · ln 3, 1000, 1000, 1000 − 400/ln 10 · ln 3.
HAND_ROWS = Rows(
    a=np.zeros(8, dtype=np.int64),  # the pooled participants are agent 0, the opponent agent 1
    b=np.ones(8, dtype=np.int64),
    score_a=np.array([1, 1, 1, 0, 1, 0, 0, 0], dtype=float),
    weight=np.ones(8),
    first_mover=np.full(8, 0.5),
    participant=np.array([0, 0, 0, 0, 1, 1, 1, 1]),
)


def test_participant_bootstrap_by_hand():
    assert pooled_rating(HAND_ROWS, n_agents=2, pooled=0, anchors=[1]) == pytest.approx(1000.0, abs=1e-3)
    counts = np.array([[2, 0], [1, 1], [1, 1], [0, 2]])
    ratings = resample_ratings(HAND_ROWS, n_agents=2, pooled=0, anchors=[1], counts=counts)
    step = ELO_PER_NAT * math.log(3)
    assert ratings == pytest.approx([1000 + step, 1000, 1000, 1000 - step], abs=1e-3)
    assert interval(ratings) == pytest.approx((1000 - step, 1000 + step), abs=1e-3)


def test_participant_bootstrap_by_hand_when_a_resample_never_loses():
    # A won 2 of 2, B 1 of 2: pooled 3 of 4 → 1000 + 400/ln 10 · ln 3. Resampling {A, A} never loses: no finite
    # rating, so the upper bound is unbounded; {B, B} won 1 of 2 → 1000, the lower bound.
    rows = dataclasses.replace(
        HAND_ROWS,
        a=np.zeros(4, dtype=np.int64),
        b=np.ones(4, dtype=np.int64),
        score_a=np.array([1, 1, 1, 0], dtype=float),
        weight=np.ones(4),
        first_mover=np.full(4, 0.5),
        participant=np.array([0, 0, 1, 1]),
    )
    step = ELO_PER_NAT * math.log(3)
    assert pooled_rating(rows, n_agents=2, pooled=0, anchors=[1]) == pytest.approx(1000 + step, abs=1e-3)
    counts = np.array([[2, 0], [1, 1], [1, 1], [0, 2]])
    ratings = resample_ratings(rows, n_agents=2, pooled=0, anchors=[1], counts=counts)
    assert ratings[0] == math.inf
    assert ratings[1:] == pytest.approx([1000 + step, 1000 + step, 1000], abs=1e-3)
    assert interval(ratings) == (pytest.approx(1000, abs=1e-3), math.inf)


def test_a_researcher_sets_up_a_study_with_the_form(staff):
    bots_ensure(game="tic-tac-toe")
    form = {
        "title": "Noughts",
        "slug": "noughts",
        "consent_text": "Play three games of noughts and crosses.",
        "design": "tic-tac-toe: tic-tac-toe-lv0, tic-tac-toe-lv1",
        "games_per_opponent": "2",
        "order": "fixed",
        "move_time_limit_s": "60",
        "questionnaire": "on",
        "completion_code": "DONE1234",
        "max_participants": "30",
        "is_open": "on",
        "min_plies": "4",
    }
    assert "Studies" in staff.get("/").content.decode()
    wrong = staff.post("/studies/new/", form | {"design": "tic-tac-toe: connect-four-lv9"})
    assert "There is no active bot or model" in wrong.content.decode()
    assert staff.post("/studies/new/", form).url == "/studies/noughts/results/"
    study = Study.objects.get(slug="noughts")
    assert study.design == [{"game": "tic-tac-toe", "opponents": ["tic-tac-toe-lv0", "tic-tac-toe-lv1"]}]
    assert study.consent().text == "Play three games of noughts and crosses."
    assert (study.min_plies, study.min_seconds) == (4, 0)  # an empty minimum is none
    assert 'name="min_plies" value="4"' in staff.get("/studies/noughts/edit/").content.decode()
    page = staff.get("/studies/noughts/results/").content.decode()
    assert "http://testserver/studies/noughts/" in page
    participant = Client()
    participant.post("/studies/noughts/", {"answer": "accept", "consent_version": "1"})
    joined = Participant.objects.get()
    assert joined.external_id_hash == ""
    assert [(a.opponent.slug, a.seat) for a in joined.assignments.all()] == [
        ("tic-tac-toe-lv0", 0),
        ("tic-tac-toe-lv0", 1),
        ("tic-tac-toe-lv1", 0),
        ("tic-tac-toe-lv1", 1),
    ]
    participant.post("/studies/noughts/questionnaire/", {"tic-tac-toe": "expert"})
    match = Match.objects.get(pk=int(participant.post("/studies/noughts/next/").url.strip("/").split("/")[-1]))
    assert match.record["policies"]["move_time_limit_s"] == 60
    assert match.record["study"] == "noughts"


def test_a_match_abandoned_mid_way_is_ended_by_the_rules_and_marked(study, staff, settings):
    client = Client()
    participant = join(client, "a")
    response = client.post("/studies/two-games/next/")
    match = Match.objects.get(pk=int(response.url.strip("/").split("/")[-1]))
    match = match_claim(match_id=match.pk, worker="w").match
    decision_record(match=match, ply=0, action=4)  # the person (seat 0) moved once, then left
    long_ago = timezone.now() - timedelta(seconds=settings.ARENA_ABANDON_AFTER_S + 60)
    Decision.objects.filter(match=match).update(created_at=long_ago)
    Participant.objects.filter(pk=participant.pk).update(last_seen_at=long_ago)
    matches_abandoned_end()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.termination.startswith("abandoned")
    page = staff.get("/studies/two-games/results/").content.decode()
    assert "dropped (1 abandoned)" in page
    assert participant.assignments.get(position=0).abandoned
    assert json.loads(staff.get("/studies/two-games/export.jsonl").content)["matches"][0]["abandoned"] is True


@override_settings(ARENA_BOOTSTRAP_ROUNDS=20)
def test_a_published_study_baseline_shows_beside_the_games_leaderboard(study, staff):
    first, second = Client(), Client()
    join(first, "a")
    join(second, "b")
    play_next(first, person_wins=True)
    play_next(second, person_wins=False)  # connect-four first for the second participant
    play_next(second, person_wins=True)  # then tic-tac-toe: one win each on tic-tac-toe
    snapshot_refresh(game="tic-tac-toe")
    visitor = Client()
    assert "Human baseline (Two games)" not in visitor.get("/leaderboard/tic-tac-toe/?study=two-games").content.decode()
    assert "Two games" in staff.get("/leaderboard/tic-tac-toe/").content.decode()  # staff may compare any study
    Study.objects.filter(pk=study.pk).update(publish_baseline=True)
    page = visitor.get("/leaderboard/tic-tac-toe/?study=two-games").content.decode()
    row = re.search(r'id="study-two-games-baseline-row">(.*?)</tr>', page, re.S).group(1)
    assert "Human baseline (Two games)" in row
    assert "n = 2 participants" in row
    data = visitor.get("/leaderboard/tic-tac-toe/?study=two-games&format=json").json()
    assert data["study_baseline"]["participants"] == 2
    assert data["study_baseline"]["matches"] == 2


def test_a_signed_in_person_is_asked_to_take_part_anonymously(study, staff):
    assert "Studies seat you anonymously" in staff.get("/studies/two-games/").content.decode()
    response = staff.post("/studies/two-games/", {"answer": "accept", "consent_version": "1"})
    assert response.status_code == 409
    assert not Participant.objects.exists()
