"""Staff start and follow evaluations from /evaluate/, through the same service as `manage.py evaluate`."""

from __future__ import annotations

import pytest
from django_tasks_db.models import DBTaskResult

from arena.models import Agent, Match, Tournament
from arena.record.agents import agent_create

pytestmark = pytest.mark.django_db

FORM = {"agent": "m", "protocol": "botzonebench", "games": ["tic-tac-toe"], "games_per_seat": "2", "budget_usd": "3"}


@pytest.fixture
def staff_client(client, django_user_model):
    agent_create(slug="m", name="M", kind="llm", config={"base_url": "http://127.0.0.1:9/v1", "model": "x"})
    client.force_login(django_user_model.objects.create_user("staff", password="pw-123456", is_staff=True))
    return client


def test_staff_create_an_evaluation_that_is_queued_listed_and_found_again(
    staff_client, django_capture_on_commit_callbacks
):
    assert "No evaluations yet" in staff_client.get("/evaluate/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post("/evaluate/", FORM)
    assert response["Location"] == "/evaluate/"
    [tournament] = Tournament.objects.all()
    assert tournament.matches.filter(status=Match.Status.PENDING).count() == 4  # Lv0: 2 seeds × both sides
    assert DBTaskResult.objects.filter(queue_name="matches").count() == 4
    page = staff_client.get("/evaluate/").content.decode()
    assert "BotzoneBench protocol (changed: games, games per seat)" in page
    assert "0/4" in page
    assert "budget $3.0" in page
    assert "?agent=m--botzonebench-botzone" in page  # the report for the agent as seated
    assert Agent.objects.get(slug="m--botzonebench-botzone").owner.username == "staff"  # the evaluation's owner
    staff_client.post("/evaluate/", FORM)  # the same choices again: found, not doubled
    assert Tournament.objects.count() == 1
    assert Match.objects.count() == 4


def test_a_protocol_that_needs_opponents_says_so_and_creates_nothing(staff_client):
    page = staff_client.post("/evaluate/", {**FORM, "protocol": "star", "games": []}).content.decode()
    assert "--opponents" in page
    assert not Tournament.objects.exists()


def test_visitors_are_sent_to_log_in(client):
    assert client.get("/evaluate/").status_code == 302
