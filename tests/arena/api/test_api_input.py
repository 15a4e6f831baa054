"""Bad input gets a 4xx naming what to fix, never a 500, and leaves nothing behind that breaks a page."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from arena.models import Agent, Tournament
from arena.record.agents import bots_ensure
from tests.arena.api.test_api import bearer, make_token

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user("alice", password="pw-123456")


def post(client: Client, path: str, body: dict, token: str):
    return client.post(path, body, content_type="application/json", **bearer(token))


def test_an_agent_with_a_bad_slug_or_an_unknown_game_is_refused_and_the_pages_still_answer(alice):
    client, token = Client(), make_token(alice, "agents", "tournaments")
    remote = {"kind": "remote", "config": {"url": "http://127.0.0.1:9/"}}
    refused = post(client, "/api/v1/agents", {**remote, "slug": "../../x y<script>"}, token)
    assert refused.status_code == 400
    assert refused.json()["detail"].startswith("slug '../../x y<script>':")
    refused = post(client, "/api/v1/agents", {**remote, "slug": "ok-slug", "game": "nope"}, token)
    assert refused.status_code == 400
    assert "'nope' is not a game here" in refused.json()["detail"]
    refused = post(client, "/api/v1/agents", {**remote, "slug": "x" * 81}, token)
    assert refused.status_code == 400
    assert post(client, "/api/v1/agents", {**remote, "slug": "fine", "name": "n" * 121}, token).status_code == 400
    assert not Agent.objects.filter(owner=alice).exists()

    assert post(client, "/api/v1/agents", {**remote, "slug": "climber"}, token).status_code == 200
    bots_ensure(game="tic-tac-toe")
    climb = {"slug": "../up", "format": "ladder", "games": ["tic-tac-toe"], "agents": ["climber"]}
    refused = post(client, "/api/v1/tournaments", climb, token)
    assert refused.status_code == 400
    assert refused.json()["detail"].startswith("slug: Enter a valid “slug”")
    assert not Tournament.objects.exists()
    for page in ("/agents/", "/matches/", "/tournaments/"):
        assert Client().get(page).status_code == 200


def test_an_offset_or_an_id_past_the_databases_integers_is_422_not_500():
    client = Client()
    assert client.get("/api/v1/matches?offset=99999999999999999999").status_code == 422
    assert client.get("/api/v1/matches?offset=-1").status_code == 422
    assert client.get("/api/v1/matches?limit=1000").status_code == 422
    assert client.get("/api/v1/matches?offset=5&limit=100").json() == {"matches": [], "limit": 100}
    assert client.get("/api/v1/matches/99999999999999999999").status_code == 422
    assert client.get("/api/v1/matches/9223372036854775807").status_code == 404
    assert client.get("/api/v1/matches/1/attempts/99999999999999999999").status_code == 422


def test_signing_up_while_signed_in_is_refused_and_makes_no_account(alice):
    client = Client()
    client.force_login(alice)
    form = {"username": "second", "password1": "a-long-pass-phrase-9", "password2": "a-long-pass-phrase-9"}
    refused = client.post("/accounts/signup/", form)
    assert refused.status_code == 403
    assert b"You are signed in as alice" in refused.content
    assert not get_user_model().objects.filter(username="second").exists()
    assert Client().post("/accounts/signup/", form).status_code == 302  # signed out, the same form makes it
    second = get_user_model().objects.get(username="second")
    assert Agent.objects.filter(user=second, kind=Agent.Kind.HUMAN).count() == 1
