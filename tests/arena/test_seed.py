"""`manage.py seed` is idempotent and leaves something on every page."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from arena.models import Agent, Match

pytestmark = pytest.mark.django_db(transaction=True)


def test_seed_twice_creates_everything_once(client):
    games = ["tic-tac-toe", "connect-four", "codenames"]
    args = [arg for game in games for arg in ("--game", game)]
    call_command("seed", *args, stdout=io.StringIO())
    agents, matches = Agent.objects.count(), Match.objects.count()
    assert Match.objects.filter(game="tic-tac-toe", status="finished").count() == 4
    assert Match.objects.filter(game="codenames", status="finished").count() == 1  # four seats
    local = ["smollm2-135m", "smollm2-135m-reasoning", "gemma3-270m"]
    assert Agent.objects.filter(slug__in=local, kind="llm").count() == 3
    call_command("seed", *args, stdout=io.StringIO())
    assert (Agent.objects.count(), Match.objects.count()) == (agents, matches)
    body = client.get("/leaderboard/").content.decode()
    assert "Computing" not in body
    assert "Tic-tac-toe Lv2" in body
