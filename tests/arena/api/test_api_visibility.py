"""The API shows a running match's decisions exactly as the pages do: a hidden decision names no seat.

Werewolf's night actions come in a fixed order (wolves, seer, doctor), so the seat of a night ply is its role.
"""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from django.test import Client

from arena.agents.history import MatchMoves, match_moves
from arena.models import Match
from arena.pages.move_list import move_groups
from arena.record.agents import bots_ensure
from arena.record.people import person_agent_for_user
from arena.record.services import decision_record, match_create
from arena.record.turns import match_claim
from arena.record.visibility import MatchView
from games.werewolf import Werewolf
from tests.arena.api.test_api import bearer, make_token

pytestmark = pytest.mark.django_db(transaction=True)

GAME = Werewolf()
SEED = 427  # deals P1 villager, P2 and P5 werewolves, P3 seer, P4 doctor
NIGHT_ONE = ["kill P6", "kill P6", "inspect P2", "protect P4"]  # by seats 1, 4, 2, 3: the roles, in order
DAY_ONE = ["say Good morning from me."] + [f"say P{n} here." for n in (2, 3, 4, 5, 7, 8)] + ["abstain"] * 7


@pytest.fixture
def running(django_user_model):
    """Night 1 and day 1 played; night 2 under way. The person (P1, seat 0) is a villager."""
    user = django_user_model.objects.create_user("villager", password="pw-123456")
    person = person_agent_for_user(user=user)
    bot = {a.slug: a for a in bots_ensure(game="werewolf")}["werewolf-lv0"]
    created = match_create(game="werewolf", agents=[person] + [bot] * 7, seed=SEED)
    match = match_claim(match_id=created.pk, worker="t").match
    for text in [*NIGHT_ONE, *DAY_ONE, "kill P7"]:
        match = decision_record(match=match, ply=match.ply, action=GAME.parse_action(GAME.from_json(match.state), text))
    assert match.status == Match.Status.RUNNING
    return match, user


def page_seats(match: Match, viewer_seats: list[int]) -> list[int | None]:
    """Each decision's seat as the pages' move list shows it: named, or no one."""
    moves = [move for group in move_groups(MatchView.for_seats(match, viewer_seats)) for move in group["moves"]]
    names = {name: index for index, name in enumerate(GAME.seat_names)}
    return [names[move["who"]] if move["who"] else None for move in moves]


def test_hidden_decisions_name_no_seat_in_the_api_exactly_where_the_pages_hide_it(running):
    match, user = running
    client = Client()
    anonymous = client.get(f"/api/v1/matches/{match.pk}").json()["decisions"]
    seats = [d["seat"] for d in anonymous]
    assert seats == page_seats(match, [])
    assert seats[:4] == [None] * 4  # night 1: who acted would be the roles
    assert seats[4:11] == [0, 1, 2, 3, 4, 6, 7]  # the day's messages are public, and so are their speakers
    assert seats[11:] == [None] * 8  # votes until the tally, and night 2's first kill
    assert [d["action"] for d in anonymous[:4]] == ["(night action)"] * 4

    mine = client.get(f"/api/v1/matches/{match.pk}", **bearer(make_token(user))).json()["decisions"]
    assert [d["seat"] for d in mine] == page_seats(match, [0])
    assert (mine[11]["seat"], mine[11]["action"]) == (0, "abstain")  # the caller's own vote
    assert mine[0]["seat"] is None

    for ply in range(4):  # nor does the attempts route say whose a hidden decision is
        assert client.get(f"/api/v1/matches/{match.pk}/attempts/{ply}").status_code == 403


def test_an_outside_agents_history_names_no_seat_for_a_hidden_move(running):
    match, _ = running
    moves = async_to_sync(match_moves)(match.pk, GAME, 0)  # what the villager's remote agent or bot socket is sent
    assert [move.who for move in moves] == page_seats(match, [0])
    assert [move.text for move in moves[:4]] == ["(night action)"] * 4
    assert [move.seat for move in moves[:4]] == [1, 4, 2, 3]  # the record itself keeps who acted


def test_an_agents_kept_history_reads_each_move_once_and_equals_a_fresh_read(running):
    match, _ = running
    kept = MatchMoves(match.pk)
    before = async_to_sync(kept.read)(GAME, 0)
    for text in ["kill P7", "inspect P5"]:  # night 2 goes on after the agent's last turn
        match = decision_record(match=match, ply=match.ply, action=GAME.parse_action(GAME.from_json(match.state), text))
    after = async_to_sync(kept.read)(GAME, 0)
    fresh = async_to_sync(match_moves)(match.pk, GAME, 0)
    assert [(m.ply, m.seat, m.who, m.text) for m in after] == [(m.ply, m.seat, m.who, m.text) for m in fresh]
    assert len(after) == len(before) + 2 == match.ply
    assert all(old is new for old, new in zip(before, after, strict=False))  # not read or decoded again
    assert [m.who for m in async_to_sync(kept.read)(GAME, 1)] == [
        m.who for m in async_to_sync(match_moves)(match.pk, GAME, 1)
    ]
