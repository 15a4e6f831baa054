"""What the OpenAPI schema promises about refusals holds: a taken slug is a documented 409, and an empty config or
`games_per_seat: 0` break the schema's own constraints (422), not rules a client could not read in it."""

from __future__ import annotations

import pytest
from django.test import Client

from arena.models import Agent, Tournament
from arena.record.agents import bots_ensure
from tests.arena.api.test_api import bearer, make_token

pytestmark = pytest.mark.django_db

REMOTE = {"slug": "mine", "kind": "remote", "config": {"url": "http://127.0.0.1:9/"}}


def post(path: str, body: dict, token: str):
    return Client().post(path, body, content_type="application/json", **bearer(token))


@pytest.fixture
def schema() -> dict:
    return Client().get("/api/v1/openapi.json").json()


@pytest.fixture
def token(django_user_model) -> str:
    return make_token(django_user_model.objects.create_user("alice", password="pw-123456"), "agents", "tournaments")


def test_a_taken_slug_is_a_documented_conflict(schema, token):
    assert post("/api/v1/agents", REMOTE, token).status_code == 200
    taken = post("/api/v1/agents", REMOTE, token)
    assert taken.status_code == 409
    assert "already exists" in taken.json()["detail"]
    assert Agent.objects.filter(slug="mine").count() == 1
    bots_ensure(game="tic-tac-toe")
    climb = {"slug": "climb", "format": "ladder", "games": ["tic-tac-toe"], "agents": ["mine"], "games_per_seat": 1}
    assert post("/api/v1/tournaments", climb, token).status_code == 200
    assert post("/api/v1/tournaments", climb, token).status_code == 409
    assert Tournament.objects.count() == 1
    for path in ("/api/v1/agents", "/api/v1/tournaments"):
        assert "409" in schema["paths"][path]["post"]["responses"]


def test_an_empty_config_and_zero_games_per_seat_break_the_schema(schema, token):
    assert post("/api/v1/agents", REMOTE, token).status_code == 200
    empty = post("/api/v1/agents/mine/versions", {"config": {}}, token)
    assert empty.status_code == 422
    assert Agent.objects.get(slug="mine").versions.count() == 1
    bots_ensure(game="tic-tac-toe")
    climb = {"slug": "climb", "format": "ladder", "games": ["tic-tac-toe"], "agents": ["mine"], "games_per_seat": 0}
    assert post("/api/v1/tournaments", climb, token).status_code == 422
    assert not Tournament.objects.exists()
    bodies = schema["components"]["schemas"]
    assert bodies["VersionIn"]["properties"]["config"]["minProperties"] == 1
    assert bodies["AgentIn"]["properties"]["config"]["minProperties"] == 1
    per_seat = bodies["TournamentIn"]["properties"]["games_per_seat"]["anyOf"][0]
    assert per_seat["minimum"] == 1
