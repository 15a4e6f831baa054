"""The API starts nothing the pages' forms would refuse: tournament sizes, and remote agents' waits per decision."""

from __future__ import annotations

import pytest
from django.test import Client

from arena.agents.outside import outside_config
from arena.agents.remote import MAX_DECISION_S, MAX_TIMEOUT_S
from arena.models import Match, Tournament
from arena.pages.forms import MAX_TOURNAMENT_FIRST_SETS, MAX_TOURNAMENT_GAMES_PER_SEAT, RemoteAgentForm
from arena.record.agents import bots_ensure
from arena.record.services import ServiceError
from games import all_games
from tests.arena.api.test_api import bearer, make_token

pytestmark = pytest.mark.django_db(transaction=True)

URL = "http://127.0.0.1:9/"


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user("alice", password="pw-123456")


def post(path: str, body: dict, token: str):
    return Client().post(path, body, content_type="application/json", **bearer(token))


def test_a_ladder_climb_over_the_forms_games_per_seat_is_refused_and_creates_nothing(alice):
    bots_ensure(game="tic-tac-toe")
    token = make_token(alice, "agents", "tournaments")
    assert post("/api/v1/agents", {"slug": "climber", "config": {"url": URL}}, token).status_code == 200
    climb = {"slug": "big", "format": "ladder", "games": ["tic-tac-toe"], "agents": ["climber"]}
    refused = post("/api/v1/tournaments", {**climb, "games_per_seat": 4000}, token)
    assert refused.status_code == 422  # the schema says so: 1 to MAX_TOURNAMENT_GAMES_PER_SEAT
    [problem] = refused.json()["detail"]
    assert problem["loc"][-1] == "games_per_seat"
    assert str(MAX_TOURNAMENT_GAMES_PER_SEAT) in problem["msg"]
    assert post("/api/v1/tournaments", {**climb, "games": ["nope"]}, token).status_code == 400
    assert not Tournament.objects.exists()
    assert not Match.objects.exists()
    started = post("/api/v1/tournaments", {**climb, "games_per_seat": 3}, token)
    assert started.status_code == 200, started.content
    assert started.json()["matches"] == 6  # level 0: three seeds, both seat orders


def test_a_tournament_writing_too_many_matches_at_once_is_refused(django_user_model):
    staff = django_user_model.objects.create_user("staff", password="pw-123456", is_staff=True)
    agents = [agent.slug for agent in bots_ensure(game="tic-tac-toe")]
    games = [game.slug for game in all_games() if game.num_players == 2][:3]
    token = make_token(staff, "tournaments")
    body = {"slug": "wide", "format": "ladder", "games": games, "agents": agents, "games_per_seat": 100}
    sets = len(agents) * len(games) * 100
    assert sets > MAX_TOURNAMENT_FIRST_SETS
    refused = post("/api/v1/tournaments", body, token)
    assert refused.status_code == 400
    assert f"This would schedule {sets} seat-swapped sets" in refused.json()["detail"]
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    ("config", "problem", "form_field"),
    [
        ({"timeout_s": 1e12}, f"timeout_s is at most {MAX_TIMEOUT_S:g}", "timeout_s"),
        ({"retries": 6}, "retries is at most 5", "retries"),
        # Each field within its bounds, their product not: the form's fields go on to outside_config, which says so.
        (
            {"timeout_s": 60, "retries": 5, "provider_retries": 5},
            f"one decision may wait at most {MAX_DECISION_S:g} s",
            None,
        ),
    ],
)
def test_remote_agents_waits_are_capped_in_the_api_and_the_form(alice, config, problem, form_field):
    token = make_token(alice, "agents")
    refused = post("/api/v1/agents", {"slug": "slow", "config": {"url": URL, **config}}, token)
    assert refused.status_code == 400
    assert problem in refused.json()["detail"]
    with pytest.raises(ServiceError, match="at most"):
        outside_config("remote", {"url": URL, **config}, operator=True)  # operators too: a worker is held either way
    form = RemoteAgentForm({"slug": "slow", "name": "slow", "url": URL, **config}, games=all_games())
    assert form.is_valid() == (form_field is None)
    assert (list(form.errors) if form.errors else None) == ([form_field] if form_field else None)


def test_the_default_remote_agent_fits_the_cap_and_so_does_the_largest_single_wait(alice):
    token = make_token(alice, "agents")
    assert post("/api/v1/agents", {"slug": "default", "config": {"url": URL}}, token).status_code == 200
    largest = {"url": URL, "timeout_s": MAX_TIMEOUT_S, "retries": 0, "provider_retries": 0}
    assert post("/api/v1/agents", {"slug": "patient", "config": largest}, token).status_code == 200
