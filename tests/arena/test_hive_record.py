"""A Hive match through the runner: the record replays, the replay page draws the board and moves, it is rated."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from django.test import override_settings

from arena.agents.llm.parsing import parse_reply
from arena.models import Match
from arena.record.agents import bots_ensure
from arena.record.selectors import match_replayed_state
from arena.record.services import match_create
from arena.runner.loop import run_match
from games import get_game
from ratings.record.services import snapshot_refresh

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def finished_match():
    bots = {agent.slug: agent for agent in bots_ensure(game="hive")}
    match = match_create(game="hive", agents=[bots["hive-lv5"], bots["hive-lv0"]], seed=3)
    return async_to_sync(run_match)(match.pk)


def test_a_hive_match_replays_and_is_rated(client, finished_match):
    match = finished_match
    assert match.status == Match.Status.FINISHED
    assert match.decisions.count() == match.ply
    replayed = match_replayed_state(match)
    assert replayed is not None
    game = get_game("hive")
    assert game.outcome(replayed).scores == tuple(match.scores)
    decision = match.decisions.get(ply=6)
    body = client.get(f"/matches/{match.pk}/?ply=7").content.decode()
    assert "board-hive" in body
    assert decision.action_text in body  # the move list / trace names the UHP move
    assert decision.action_text == game.action_to_text(game.from_json(decision.state_before), tuple(decision.action))
    with override_settings(ARENA_BOOTSTRAP_ROUNDS=20):
        snapshot_refresh(game="hive")
    board = client.get("/leaderboard/hive/").content.decode()
    assert "Hive Lv5" in board
    assert "Hive Lv0" in board


def test_a_model_may_name_a_destination_from_any_neighbour():
    game = get_game("hive")
    state = game.from_game_string("Base;InProgress;White[3];wA1;bA1 wA1-;wQ -wA1;bQ bA1-")
    legal = [game.action_to_text(state, a) for a in game.legal_actions(state)]
    assert "wG1 \\wA1" in legal  # north-west of wA1 is also north-east of wQ: 'wG1 wQ/'
    parsed = parse_reply(game, state, "The grasshopper goes up.\nAnswer: `wG1 wQ/`", legal)
    assert (parsed.verdict, parsed.text) == ("ok", "wG1 \\wA1")
    assert parse_reply(game, state, "Answer: wG1 bQ-", legal).verdict == "illegal"  # touches black
