"""A person climbs a bot ladder like a model: levels are scheduled as their games finish."""

from __future__ import annotations

import random

import pytest
from asgiref.sync import async_to_sync

from arena.models import Match
from arena.record.agents import bots_ensure
from arena.record.people import guest_agent_create, person_move, person_seats
from arena.record.selectors import tournament_progress
from arena.runner.loop import run_match
from arena.tournaments.climbs import person_ladder_start
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
    # Three games from each seat: a never-losing player often draws, and a level needs a decisive game won.
    climb = person_ladder_start(person=person, game="tic-tac-toe", games_per_seat=3)
    assert climb.matches.count() == 6  # level 0, each on a fresh seed
    played = 0
    while (match := climb.matches.filter(status__in=["pending", "running"]).order_by("pk").first()) is not None:
        play_as_person(match, person)
        played += 1
        assert played < 40
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


def test_every_match_of_a_climb_plays_a_fresh_seed_and_no_duplicate_twin():
    bots_ensure(game="kuhn-poker")
    person = guest_agent_create(nickname="Memoriser")
    climbs = [person_ladder_start(person=person, game="kuhn-poker") for _ in range(2)]
    seeds = []
    for climb in climbs:
        matches = list(climb.matches.order_by("pk"))
        assert len(matches) == 4  # level 0: two games from each seat
        assert [person_seats(match, person) for match in matches] == [[0], [1], [0], [1]]
        # The second seat never meets the deal the first one saw: no twin, no shared seed.
        assert all(match.duplicate_of_id is None for match in matches)
        seeds += [match.seed for match in matches]
    assert len(seeds) == len(set(seeds)) == 8  # no match, in this climb or another, repeats a seed


def test_a_climb_of_a_secret_team_game_seats_the_person_once_per_match():
    bots_ensure(game="werewolf")
    person = guest_agent_create(nickname="Villager")
    climb = person_ladder_start(person=person, game="werewolf", games_per_seat=1)
    matches = list(climb.matches.order_by("pk"))
    assert [person_seats(match, person) for match in matches] == [[seat] for seat in range(8)]
    assert len({match.seed for match in matches}) == 8
