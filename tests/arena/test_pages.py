"""The agent, match and tournament pages show the record, escaped, and staff-only pages stay staff-only."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync

from arena.models import Agent
from arena.record.agents import agent_create
from arena.record.services import match_create
from arena.runner.loop import run_match
from arena.tournaments.run import run_tournament
from arena.tournaments.services import tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_match(ttt_bots):
    agents = [ttt_bots["tic-tac-toe-lv4"], ttt_bots["tic-tac-toe-lv1"]]
    return async_to_sync(run_match)(match_create(game="tic-tac-toe", agents=agents, seed=11).pk)


def test_match_page_steps_through_plies(client, finished_match):
    response = client.get(f"/matches/{finished_match.pk}/")
    body = response.content.decode()
    assert response.status_code == 200
    assert f"move <strong>{finished_match.ply}</strong> / {finished_match.ply}" in body
    first = finished_match.decisions.get(ply=0)
    body = client.get(f"/matches/{finished_match.pk}/?ply=1").content.decode()
    assert "move <strong>1</strong> / " in body
    # After the first move exactly one mark is on the board, in the cell the record names.
    assert body.count('aria-label="' + first.action_text + ': X"') == 1
    assert body.count(': X"') + body.count(': O"') == 1
    # The fragment alone (what htmx swaps in) carries the same board and links to the neighbours.
    fragment = client.get(f"/matches/{finished_match.pk}/replay/?ply=1").content.decode()
    assert fragment.startswith(f'<div id="match-{finished_match.pk}-replay"')
    assert 'data-step="next" href="?ply=2"' in fragment
    assert 'data-step="prev" href="?ply=0"' in fragment
    assert "Move 1 · seat 0" in fragment
    assert client.get(f"/matches/{finished_match.pk}/?ply=junk").status_code == 200
    assert client.get(f"/matches/{finished_match.pk}/?ply=999").status_code == 200
    assert client.get("/matches/999999/").status_code == 404


def test_match_list_filters(client, finished_match, ttt_bots):
    body = client.get("/matches/?agent=tic-tac-toe-lv4").content.decode()
    assert f"/matches/{finished_match.pk}/" in body
    body = client.get("/matches/?agent=tic-tac-toe-lv0").content.decode()
    assert f"/matches/{finished_match.pk}/" not in body


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


@pytest.mark.django_db(transaction=True)  # tournaments advance in on-commit callbacks
def test_tournament_page_shows_live_progress_then_standings(client, ttt_bots):
    tournament = tournament_create(
        slug="t1", name="T1", format="round_robin", games=["tic-tac-toe"],
        agents=[ttt_bots["tic-tac-toe-lv4"], ttt_bots["tic-tac-toe-lv0"]], games_per_seat=1, first_seed=0,
    )  # fmt: skip
    body = client.get("/tournaments/t1/").content.decode()
    assert "0 of 2 matches done" in body
    assert 'hx-trigger="every 2s"' in body
    async_to_sync(run_tournament)(tournament.pk)
    fragment = client.get("/tournaments/t1/progress/").content.decode()
    assert "2 of 2 matches done" in fragment
    assert "hx-trigger" not in fragment  # finished: the block stops polling
    assert "tic-tac-toe-lv4" in fragment
    assert "T1" in client.get("/tournaments/").content.decode()
