"""A person climbs a bot ladder like a model: levels are scheduled as their games finish."""

from __future__ import annotations

import random

import pytest
from asgiref.sync import async_to_sync

from arena.models import Match
from arena.play.people import guest_agent_create, person_ladder_start, person_move, person_seats
from arena.record.agents import bots_ensure
from arena.record.selectors import tournament_progress
from arena.runner.loop import run_match
from games import get_game
from games.bots import get_bot

pytestmark = pytest.mark.django_db(transaction=True)


def play_as_person(match: Match, person) -> Match:
    """Play the person's seat with perfect tic-tac-toe; the bot's turns go through the runner."""
    game, perfect, rng = get_game("tic-tac-toe"), get_bot("tic-tac-toe-lv4"), random.Random(match.pk)
    match = async_to_sync(run_match)(match.pk) or Match.objects.get(pk=match.pk)
    while match.status == Match.Status.RUNNING:
        state = game.from_json(match.state)
        assert game.current_player(state) in person_seats(match, person)
        action = perfect.choose(game, state, rng)
        person_move(match_id=match.pk, agent=person, text=game.action_to_text(state, action), ply=match.ply)
        match = async_to_sync(run_match)(match.pk) or Match.objects.get(pk=match.pk)
    return match


def test_a_person_climbs_level_by_level(client):
    bots_ensure(game="tic-tac-toe")
    person = guest_agent_create(nickname="Climber")
    climb = person_ladder_start(person=person, game="tic-tac-toe", games_per_seat=1)
    assert climb.matches.count() == 2  # level 0, one game from each seat
    played = 0
    while (match := climb.matches.filter(status__in=["pending", "running"]).order_by("pk").first()) is not None:
        play_as_person(match, person)
        played += 1
        assert played < 20
    climb.refresh_from_db()
    progress = tournament_progress(climb)
    (standing,) = progress["standings"]
    levels_scheduled = {m.record["ladder"]["level"] for m in climb.matches.all()}
    assert levels_scheduled == set(range(min(standing["level"], 4) + 1))  # each level unlocked only by passing the last
    assert progress["status"] == "finished"
    assert standing["level"] >= 1  # perfect play beats the random bot
    session = client.session
    session["guest_agent"] = person.slug
    session.save()
    body = client.get(f"/play/ladder/{climb.slug}/").content.decode()
    assert "Your climb is complete." in body
    assert standing["summary"] in body


def test_starting_a_climb_from_the_lobby(client):
    bots_ensure(game="tic-tac-toe")
    assert client.post("/play/ladder/", {"game": "tic-tac-toe"}).status_code == 302  # no person yet: back to the lobby
    person = guest_agent_create(nickname="Lobby")
    session = client.session
    session["guest_agent"] = person.slug
    session.save()
    response = client.post("/play/ladder/", {"game": "tic-tac-toe"})
    assert response.status_code == 302
    assert "/play/ladder/climb-" in response["Location"]
    assert "Play your next game" in client.get(response["Location"]).content.decode()


def test_every_climb_plays_fresh_seeds_each_on_a_seat_swapped_pair():
    bots_ensure(game="kuhn-poker")
    person = guest_agent_create(nickname="Memoriser")
    climbs = [person_ladder_start(person=person, game="kuhn-poker") for _ in range(2)]
    seeds = []
    for climb in climbs:
        matches = list(climb.matches.order_by("pk"))
        assert len(matches) == 4  # two pairs at level 0
        for match in matches:
            if match.duplicate_of_id:
                assert match.seed == match.duplicate_of.seed  # both seat orders meet the same deal
        seeds += sorted({match.seed for match in matches})
    assert len(seeds) == len(set(seeds)) == 4  # no pair, in this climb or another, repeats a seed
