"""The agents pages show records, escaped; they add and edit models, programs, engines, remote agents and bot accounts
through the one config check, staff any kind and people their own."""

from __future__ import annotations

import pytest

from arena.agents.remote import derived_secret
from arena.api.bot_socket import websocket_agents
from arena.models import Agent, ApiToken
from arena.record.agents import agent_create
from arena.record.services import match_create
from arena.record.tokens import live_token

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client, django_user_model):
    user = django_user_model.objects.create_user("staff", password="pw-123456", is_staff=True)
    client.force_login(user)
    return user


@pytest.fixture
def person(client, django_user_model):
    user = django_user_model.objects.create_user("ada", password="pw-123456")
    client.force_login(user)
    return user


def test_staff_add_a_program_with_limits_and_the_config_check_refuses_what_the_cli_refuses(client, staff, settings):
    form = {"slug": "ttt-prog", "name": "TTT", "game": "tic-tac-toe", "command": "/usr/bin/python3 /srv/ttt.py",
            "protocol": "botzone", "wall_time_s": "2", "memory_mb": "256"}  # fmt: skip
    page = client.get("/agents/new/?kind=program").content.decode()
    assert "Default 5 s; at most 60." in page  # the limit's default and its maximum, from the settings
    assert 'name="secret_env"' in client.get("/agents/new/?kind=remote").content.decode()
    assert client.post("/agents/new/?kind=program", form).status_code == 302
    agent = Agent.objects.get(slug="ttt-prog")
    assert agent.kind == "program"
    assert agent.game == "tic-tac-toe"
    assert agent.current_version().config == {
        "command": "/usr/bin/python3 /srv/ttt.py", "protocol": "botzone", "limits": {"time_s": 2.0, "memory_mb": 256}
    }  # fmt: skip
    settings.ARENA_PROGRAM_LIMITS_MAX = {"memory_mb": 128}
    refused = client.post("/agents/new/?kind=program", {**form, "slug": "greedy"})
    assert refused.status_code == 200
    assert "limits.memory_mb should be a number above 0 and at most 128" in refused.content.decode()
    assert not Agent.objects.filter(slug="greedy").exists()
    # Editing keeps the slug, and a version that has not played is changed in place.
    edit = client.get("/agents/ttt-prog/edit/").content.decode()
    assert 'value="256"' in edit
    client.post("/agents/ttt-prog/edit/", {**form, "memory_mb": "", "cpu_s": "3"})
    assert agent.current_version().config["limits"] == {"time_s": 2.0, "cpu_s": 3}
    engine = {"slug": "sf", "name": "SF", "command": "/usr/games/stockfish", "nodes": "100", "movetime_ms": "50"}
    body = client.post("/agents/new/?kind=uci", engine).content.decode()
    assert "Give at most one of uci_elo, nodes, movetime_ms" in body
    assert client.post("/agents/new/?kind=uci", {**engine, "movetime_ms": ""}).status_code == 302
    assert Agent.objects.get(slug="sf").game == "chess"


def test_people_may_not_register_programs_engines_or_models(client, person):
    for kind in ("program", "uci", "llm"):
        assert client.get(f"/agents/new/?kind={kind}").status_code == 403
        assert (
            client.post(f"/agents/new/?kind={kind}", {"slug": "x", "name": "x", "command": "rm -rf /"}).status_code
            == 403
        )
    assert not Agent.objects.filter(slug="x").exists()
    body = client.get("/agents/").content.decode()
    assert "?kind=remote" in body
    assert "?kind=program" not in body


def test_a_person_registers_an_http_agent_and_sees_its_signing_secret_once(client, person, django_user_model):
    form = {"slug": "mine", "name": "Mine", "url": "https://agent.example/move", "retries": "0",
            "secret_env": "DJANGO_SECRET_KEY"}  # fmt: skip
    page = client.get("/agents/new/?kind=remote").content.decode()
    assert 'name="url"' in page
    assert 'name="secret_env"' not in page  # a variable of Arena's environment is for operators only
    response = client.post("/agents/new/?kind=remote", form)
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    agent = Agent.objects.get(slug="mine")
    config = agent.current_version().config
    secret = derived_secret(config["secret_id"])
    assert secret in response.content.decode()
    assert "X-Arena-Signature" in response.content.decode()  # and how to check it
    assert config == {
        "url": "https://agent.example/move",
        "retries": 0,
        "public_only": True,
        "secret_id": config["secret_id"],
    }
    assert agent.owner == person
    for page in ("/agents/mine/", "/agents/mine/edit/", "/agents/"):
        assert secret not in client.get(page).content.decode()
        assert config["secret_id"] not in client.get(page).content.decode()
    client.post("/agents/mine/edit/", {**form, "url": "https://agent.example/v2"})
    assert agent.current_version().config["secret_id"] == config["secret_id"]  # the secret stays; not shown again
    other = django_user_model.objects.create_user("eve", password="pw-123456")
    client.force_login(other)
    assert client.get("/agents/mine/edit/").status_code == 403
    assert client.post("/agents/mine/edit/", {**form, "url": "https://eve.example/"}).status_code == 403
    assert agent.current_version().config["url"] == "https://agent.example/v2"


def test_a_person_registers_a_bot_account_and_gets_a_token_it_plays_with(client, person):
    response = client.post("/agents/new/?kind=websocket", {"slug": "ws", "name": "WS", "game": "tic-tac-toe"})
    assert response.status_code == 200
    body = response.content.decode()
    token = body.split('-token">')[1].split("<")[0]
    record = live_token(token)
    assert record.user == person
    assert record.scopes == [ApiToken.Scope.AGENTS]
    assert "/ws/bot/" in body
    assert [a.slug for a in websocket_agents(person)] == ["ws"]
    assert token not in client.get("/agents/ws/").content.decode()
    assert token not in client.get("/agents/ws/edit/").content.decode()


def test_a_person_registers_a_bounded_number_of_agents(client, person, monkeypatch):
    monkeypatch.setattr("arena.record.agents.MAX_OWNED_AGENTS", 1)
    assert client.post("/agents/new/?kind=websocket", {"slug": "one", "name": "one"}).status_code == 200
    refused = client.post("/agents/new/?kind=websocket", {"slug": "two", "name": "two"})
    assert "At most 1 agents per person." in refused.content.decode()
    assert not Agent.objects.filter(slug="two").exists()
    assert ApiToken.objects.filter(user=person).count() == 1  # the refused bot got no token either


def test_agent_pages_show_records_and_escape_names(client, finished_match):
    hostile = agent_create(slug="evil", name="<script>alert(1)</script>", kind="llm", config={"model": "m"})
    body = client.get("/agents/").content.decode()
    assert "tic-tac-toe-lv4" in body
    assert "<script>alert(1)</script>" not in body
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    body = client.get("/agents/tic-tac-toe-lv4/").content.decode()
    wins = int(finished_match.scores[0] == 1.0)
    draws = int(finished_match.scores[0] == 0.5)
    assert f"{wins}–{draws}–0" in body
    assert client.get(f"/agents/{hostile.slug}/").status_code == 200


def test_agent_editing_is_staff_only_and_versions_configs(client, django_user_model, finished_match):
    assert client.get("/agents/new/").status_code == 302  # to the login page
    staff = django_user_model.objects.create_user("staff", password="pw-123456", is_staff=True)
    client.force_login(staff)
    form = {
        "slug": "hosted", "name": "Hosted", "base_url": "http://127.0.0.1:9/v1", "model": "m",
        "api_key_env": "HOSTED_KEY", "temperature": "0.2", "top_p": "1", "max_tokens": "256",
        "timeout_s": "300", "scaffold": "direct", "retries": "3", "price_in_per_mtok": "0", "price_out_per_mtok": "0",
    }  # fmt: skip
    assert client.post("/agents/new/", form).status_code == 302
    agent = Agent.objects.get(slug="hosted")
    assert agent.current_version().config["api_key_env"] == "HOSTED_KEY"
    match_create(game="tic-tac-toe", agents=[agent, Agent.objects.get(slug="tic-tac-toe-lv0")], seed=1)
    client.post("/agents/hosted/edit/", {**form, "temperature": "0.9"})
    assert list(agent.versions.values_list("number", "config__temperature")) == [(1, 0.2), (2, 0.9)]
    response = client.post("/agents/new/", {**form, "slug": "bad", "api_key_env": "sk-live-123"})
    assert response.status_code == 200
    assert not Agent.objects.filter(slug="bad").exists()
