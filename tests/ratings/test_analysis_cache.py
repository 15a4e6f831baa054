"""/analysis/ reads the finished record once per state of it, not on every request."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from arena.models import Agent
from arena.record.agents import bots_ensure
from arena.record.services import match_create
from arena.runner.loop import run_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def ttt_bots(db) -> dict[str, Agent]:
    return {agent.slug: agent for agent in bots_ensure(game="tic-tac-toe")}


def play(bots, seed: int) -> None:
    agents = [bots["tic-tac-toe-lv2"], bots["tic-tac-toe-lv0"]]
    async_to_sync(run_match)(match_create(game="tic-tac-toe", agents=agents, seed=seed).pk)


def analysis(client: Client) -> tuple[dict, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/analysis/?game=tic-tac-toe&format=json")
    assert response.status_code == 200
    return response.json(), [query["sql"] for query in queries]


def first_mover_n(data: dict) -> int:
    return next(r["n"] for r in data["first_mover"] if r["game"] == "tic-tac-toe" and r["pairing"] == "all")


def test_the_tables_are_computed_once_per_state_and_again_when_a_match_finishes(ttt_bots):
    client = Client()
    play(ttt_bots, seed=1)
    first, reads = analysis(client)
    assert first_mover_n(first) == 1
    assert any('FROM "arena_seat"' in sql for sql in reads)  # the tables read the seats of every finished match
    again, reads = analysis(client)
    assert again == first
    assert not any('FROM "arena_seat"' in sql for sql in reads)  # served from the cache: no match read again
    play(ttt_bots, seed=2)
    fresh, reads = analysis(client)
    assert first_mover_n(fresh) == 2
    assert any('FROM "arena_seat"' in sql for sql in reads)
