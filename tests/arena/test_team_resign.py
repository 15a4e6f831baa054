"""A resignation loses for the resigner's side only: teammates lose with them, the other side wins."""

from __future__ import annotations

import pytest

from arena.models import Agent
from arena.record.agents import bots_ensure
from arena.record.people import guest_agent_create, person_match_create, person_resign
from arena.record.services import match_create, match_resign
from games import get_game

pytestmark = pytest.mark.django_db


def test_a_codenames_guesser_resigning_loses_for_red_and_blue_wins():
    bots_ensure(game="codenames")
    person = guest_agent_create(nickname="red guesser")
    match = person_match_create(
        person=person, opponent=Agent.objects.get(slug="codenames-lv0"), game="codenames", seat=1
    )
    match = person_resign(match_id=match.pk, agent=person)
    # Seats: red spymaster, red guesser (the person), blue spymaster, blue guesser.
    assert match.scores == [0.0, 0.0, 1.0, 1.0]
    assert [seat.score for seat in match.seats.order_by("index")] == [0.0, 0.0, 1.0, 1.0]


@pytest.mark.parametrize(
    ("seat", "expected"),
    [
        # Seed 7 deals: P3 and P6 are the werewolves; P1 villager, P2 doctor, P8 seer, the rest villagers.
        (2, [1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0]),  # a werewolf resigns: the village wins
        (7, [0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0]),  # the seer resigns: the wolves win
    ],
)
def test_a_werewolf_resignation_loses_for_the_resigners_side(seat, expected):
    bots_ensure(game="werewolf")
    lv0 = Agent.objects.get(slug="werewolf-lv0")
    match = match_create(game="werewolf", agents=[lv0] * 8, seed=7)
    roles = get_game("werewolf").from_json(match.state).roles
    assert roles == ("villager", "doctor", "werewolf", "villager", "villager", "werewolf", "villager", "seer")
    assert match_resign(match=match, seat=seat).scores == expected


def test_a_two_player_resignation_still_hands_the_win_to_the_opponent():
    bots_ensure(game="tic-tac-toe")
    lv0 = Agent.objects.get(slug="tic-tac-toe-lv0")
    match = match_create(game="tic-tac-toe", agents=[lv0, lv0])
    assert match_resign(match=match, seat=1).scores == [1.0, 0.0]
