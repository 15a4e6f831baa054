"""The API through the real Django stack: tokens, scopes, visibility of running matches, writes, limits."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from django.core.management import call_command
from django.test import Client

from arena.agents.remote import derived_secret
from arena.models import Agent, ApiToken, Match, Tournament
from arena.record.agents import bots_ensure
from arena.record.people import person_agent_for_user, person_match_create
from arena.record.services import match_create
from arena.runner.loop import run_match

pytestmark = pytest.mark.django_db(transaction=True)


def make_token(user, *scopes: str) -> str:
    args = ["api_token", "create", "--user", user.username]
    for scope in scopes:
        args += ["--scope", scope]
    from io import StringIO

    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue().strip()


def bearer(token: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user("alice", password="pw-123456")


def test_a_token_is_stored_only_as_a_digest_and_stops_working_when_revoked(alice):
    token = make_token(alice, "agents")
    record = ApiToken.objects.get(user=alice)
    assert token not in json.dumps(list(ApiToken.objects.values()), default=str)
    assert token.startswith(record.prefix)
    client = Client()
    assert client.get("/api/v1/matches", **bearer(token)).status_code == 200
    call_command("api_token", "revoke", "--user", "alice", record.prefix)
    assert client.get("/api/v1/matches", **bearer(token)).status_code == 401
    assert client.get("/api/v1/matches", **bearer("arena_made-up")).status_code == 401


def test_writes_need_the_scope_and_the_api_registers_remote_agents_only(alice):
    client = Client()
    agent = {
        "slug": "my-remote",
        "kind": "remote",
        "config": {"url": "http://127.0.0.1:9/move"},
    }
    read_only = make_token(alice)
    assert client.post("/api/v1/agents", agent, content_type="application/json", **bearer(read_only)).status_code == 403
    assert client.post("/api/v1/agents", agent, content_type="application/json").status_code == 401
    token = make_token(alice, "agents")
    made = client.post("/api/v1/agents", agent, content_type="application/json", **bearer(token))
    assert made.status_code == 200, made.content
    created = Agent.objects.get(slug="my-remote")
    assert created.owner == alice
    secret = made.json()["signing_secret"]  # shown once; only the id it is derived from is stored
    assert secret not in json.dumps(created.current_version().config)
    assert derived_secret(created.current_version().config["secret_id"]) == secret
    borrowed_env = {"url": "http://x.test/", "secret_env": "OPENAI_API_KEY"}
    borrowed = {"slug": "borrowed", "kind": "remote", "config": borrowed_env}
    refused = client.post("/api/v1/agents", borrowed, content_type="application/json", **bearer(token))
    assert refused.status_code == 400
    assert "operator" in refused.json()["detail"]
    program = {"slug": "rm-rf", "kind": "program", "config": {"command": "rm -rf /"}}
    refused = client.post("/api/v1/agents", program, content_type="application/json", **bearer(token))
    assert refused.status_code == 400
    assert not Agent.objects.filter(slug="rm-rf").exists()
    leaked = {"slug": "leaky", "kind": "remote", "config": {"url": "http://x.test/", "secret": "hunter2"}}
    assert client.post("/api/v1/agents", leaked, content_type="application/json", **bearer(token)).status_code == 400
    version = {"config": {"url": "http://127.0.0.1:9/v2"}}
    updated = client.post(
        "/api/v1/agents/my-remote/versions", version, content_type="application/json", **bearer(token)
    )
    assert updated.status_code == 200
    config = Agent.objects.get(slug="my-remote").current_version().config
    secret_id = created.current_version().config["secret_id"]
    assert config == {**version["config"], "public_only": True, "secret_id": secret_id}


def test_people_start_ladder_climbs_of_their_own_agents_only(alice):
    bots_ensure(game="tic-tac-toe")
    client = Client()
    token = make_token(alice, "agents", "tournaments")
    agent = {"slug": "climber", "kind": "remote", "config": {"url": "http://127.0.0.1:9/"}}
    client.post("/api/v1/agents", agent, content_type="application/json", **bearer(token))
    climb = {"slug": "climb-1", "format": "ladder", "games": ["tic-tac-toe"], "agents": ["climber"]}
    started = client.post("/api/v1/tournaments", climb, content_type="application/json", **bearer(token))
    assert started.status_code == 200, started.content
    assert started.json()["matches"] > 0
    assert Tournament.objects.get(slug="climb-1").config["queued"] is True
    others = {**climb, "slug": "climb-2", "agents": ["tic-tac-toe-lv1"]}
    assert (
        client.post("/api/v1/tournaments", others, content_type="application/json", **bearer(token)).status_code == 403
    )
    progress = client.get("/api/v1/tournaments/climb-1").json()
    assert progress["total"] == started.json()["matches"]
    assert progress["standings"][0]["agent"] == "climber"


def test_a_running_hidden_match_shows_each_caller_only_what_they_may_see(alice):
    bots_ensure(game="tower-defense")
    person = person_agent_for_user(user=alice)
    match = person_match_create(
        person=person, opponent=Agent.objects.get(slug="tower-defense-lv0"), game="tower-defense", seat=1
    )
    async_to_sync(run_match)(match.pk)  # the bot seals its plan; the person is to move
    plan = Match.objects.get(pk=match.pk).decisions.get(ply=0).action_text
    token = make_token(alice)
    client = Client()
    for headers in ({}, bearer(token)):
        detail = client.get(f"/api/v1/matches/{match.pk}", **headers).json()
        assert detail["seed"] is None
        assert detail["decisions"][0]["action"] != plan
        assert plan not in json.dumps(detail)
        assert client.get(f"/api/v1/matches/{match.pk}/attempts/0", **headers).status_code == 403
    assert client.get(f"/api/v1/matches/{match.pk}", **bearer(token)).json()["your_seats"] == [1]


def test_anonymous_reads_are_rate_limited(settings):
    settings.ARENA_RATE_LIMITS = {"api_anonymous": (3, 60)}
    client = Client()
    codes = [client.get("/api/v1/matches").status_code for _ in range(5)]
    assert codes == [200, 200, 200, 429, 429]


def test_the_openapi_schema_lists_the_routes():
    schema = Client().get("/api/v1/openapi.json").json()
    assert {"/api/v1/matches/{match_id}", "/api/v1/agents", "/api/v1/tournaments"} <= set(schema["paths"])


def test_the_leaderboard_is_the_latest_snapshot_and_a_game_without_one_is_404():
    bots_ensure(game="tic-tac-toe")
    lv0, lv2 = Agent.objects.get(slug="tic-tac-toe-lv0"), Agent.objects.get(slug="tic-tac-toe-lv2")
    for seed in range(4):
        seats = [lv0, lv2] if seed % 2 else [lv2, lv0]
        async_to_sync(run_match)(match_create(game="tic-tac-toe", agents=seats, seed=seed).pk)
    call_command("refresh_ratings", "--game", "tic-tac-toe")
    board = Client().get("/api/v1/leaderboard/tic-tac-toe")
    assert board.status_code == 200
    assert {"tic-tac-toe-lv0", "tic-tac-toe-lv2"} <= {row["slug"] for row in board.json()["rows"]}
    assert Client().get("/api/v1/leaderboard/reversi").status_code == 404
