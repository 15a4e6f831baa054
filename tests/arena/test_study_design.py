"""A study's design as participants meet it: counterbalancing over game × opponent (one Latin square over every
condition, or crossed squares over games and opponents), random orders replayable from their recorded seed,
opponents blinded as "Opponent A/B" on every page a participant sees, and focused mode without site navigation."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from arena.models import Match
from arena.record.agents import bots_ensure
from arena.studies.design import conditions, latin_square
from arena.studies.models import Participant, Study
from arena.studies.services import study_save
from tests.arena.test_studies import WINS, staff  # noqa: F401  (fixture)
from tests.arena.test_study_exports import play

pytestmark = pytest.mark.django_db

DESIGN = [
    {"game": "tic-tac-toe", "opponents": ["tic-tac-toe-lv0", "tic-tac-toe-lv1"]},
    {"game": "connect-four", "opponents": ["connect-four-lv0", "connect-four-lv1"]},
]
CONDITIONS = [(block["game"], opponent) for block in DESIGN for opponent in block["opponents"]]


def make_study(order: str, **options) -> Study:
    bots_ensure(game="tic-tac-toe")
    bots_ensure(game="connect-four")
    fields = {
        "slug": "two-games",
        "title": "Two games",
        "design": DESIGN,
        "games_per_opponent": 1,
        "order": order,
        "move_time_limit_s": None,
        "questionnaire": False,
        "completion_code": "C0DE",
        "max_participants": 10,
        "is_open": True,
    }
    return study_save(consent_text="Play four games.", **(fields | options))


def join(client: Client) -> Participant:
    assert client.post("/studies/two-games/", {"answer": "accept", "consent_version": "1"}).status_code == 302
    return Participant.objects.get(code=client.session["study_participants"]["two-games"])


def met(participant: Participant) -> list[tuple[str, str]]:
    return [(a.game, a.opponent.slug) for a in participant.assignments.select_related("opponent")]


def test_a_latin_square_over_game_and_opponent_for_four_participants():
    make_study("conditions")
    orders = [met(join(Client())) for _ in range(4)]
    rows = latin_square(4)
    assert orders == [[CONDITIONS[i] for i in row] for row in rows]
    for position in range(4):  # every condition once in every position
        assert sorted(order[position] for order in orders) == sorted(CONDITIONS)
    follows = {(order[i], order[i + 1]) for order in orders for i in range(3)}
    assert len(follows) == 4 * 3  # and directly after every other condition once
    assert orders[0][:2] != orders[1][:2]  # not every participant meets the same opponent first


def test_counterbalanced_games_cross_with_counterbalanced_opponents():
    make_study("counterbalanced")
    orders = [met(join(Client())) for _ in range(4)]
    firsts = {(order[0][0], order[0][1], order[2][1]) for order in orders}
    assert len(firsts) == 4  # game order × opponent order: all four combinations in four participants
    for order in orders:  # each game's opponents are played together
        assert order[0][0] == order[1][0] != order[2][0] == order[3][0]
    assert {order[0][1] for order in orders} == {"tic-tac-toe-lv0", "tic-tac-toe-lv1", "connect-four-lv0",
                                                  "connect-four-lv1"}  # fmt: skip


def test_a_random_order_replays_from_its_recorded_seed():
    study = make_study("random")
    people = [join(Client()) for _ in range(5)]  # five: the joins one address may make
    assert all(p.order_seed is not None for p in people)
    for p in people:
        assert met(p) == conditions(study.design, "random", p.number, random.Random(p.order_seed))
    assert len({tuple(met(p)) for p in people}) > 1


def test_blinded_opponents_are_named_by_their_label_on_every_page_the_participant_sees(staff):  # noqa: F811
    make_study("fixed", blind_opponents=True)
    client = Client()
    join(client)
    page = client.get("/studies/two-games/").content.decode()
    assert "Next: Tic-tac-toe against Opponent A" in page
    assert "Opponent B" in page
    assert "Lv0" not in page
    assert "Lv1" not in page

    match = play(client, person_wins=False, seconds=30)
    for path in (f"/play/{match.pk}/", f"/matches/{match.pk}/", f"/matches/{match.pk}/?ply=2"):
        shown = client.get(path).content.decode()
        assert "Opponent A" in shown, path
        assert "Lv0" not in shown, path
        assert "tic-tac-toe-lv0" not in shown, path
        assert "is a bot" not in shown, path
        assert not re.search(r'href="/agents/[^"]', shown), (
            path
        )  # not even the participant's own seat page, which lists opponents
    assert "Opponent A wins." in client.get(f"/play/{match.pk}/").content.decode()
    # The researcher sees who played.
    assert "Tic-tac-toe Lv0" in staff.get(f"/matches/{match.pk}/").content.decode()
    assert "tic-tac-toe-lv0" in staff.get("/studies/two-games/export/matches.csv").content.decode()
    assert staff.get("/studies/two-games/export.json").json()["blind_opponents"] is True  # for the methods


def test_unblinded_studies_name_the_opponent():
    make_study("fixed")
    client = Client()
    join(client)
    assert "Next: Tic-tac-toe against Tic-tac-toe Lv0" in client.get("/studies/two-games/").content.decode()
    match = play(client, person_wins=False, seconds=30)
    assert "Opponent A" not in client.get(f"/play/{match.pk}/").content.decode()


def test_focused_mode_shows_no_site_navigation():
    make_study("fixed", focused=True)
    client = Client()
    nav = re.compile(r'href="/(leaderboard|play|agents)/"')
    assert not nav.search(client.get("/studies/two-games/").content.decode())  # the consent page
    join(client)
    assert not nav.search(client.get("/studies/two-games/").content.decode())
    match = play(client, person_wins=True, seconds=30)
    for path in (f"/play/{match.pk}/", f"/matches/{match.pk}/"):
        page = client.get(path).content.decode()
        assert not nav.search(page), path
        assert "Back to the study" in page or path.startswith("/matches/")
    assert nav.search(Client().get("/").content.decode())  # elsewhere the navigation is there
    assert Match.objects.filter(record__focused=True).count() == 1
    assert WINS  # the shared moves played above
