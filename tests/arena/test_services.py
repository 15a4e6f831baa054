"""Writes to the match record: versions, validation, atomic decisions."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync

from arena.agents.base import AttemptData
from arena.models import Agent, Attempt, Decision, Match
from arena.record.agents import agent_create, agent_ensure, agent_update, bots_ensure
from arena.record.selectors import match_replayed_state
from arena.record.services import ServiceError, attempt_record_rejected, decision_record, match_create, match_resign
from arena.record.turns import Refused, match_claim, match_release_stale
from arena.runner.loop import run_match
from games import IllegalAction

pytestmark = pytest.mark.django_db


def _running(ttt_bots, seed=1):
    match = match_create(
        game="tic-tac-toe", agents=[ttt_bots["tic-tac-toe-lv1"], ttt_bots["tic-tac-toe-lv0"]], seed=seed
    )
    return match_claim(match_id=match.pk, worker="test").match


def test_editing_a_config_that_has_played_creates_a_new_version(ttt_bots):
    agent = agent_create(slug="gpt-x", name="GPT X", kind="llm", config={"model": "x", "temperature": 0.2})
    first = agent.current_version()
    # Not played yet: edited in place.
    assert agent_update(agent=agent, config={"model": "x", "temperature": 0.3}) == first
    match_create(game="tic-tac-toe", agents=[agent, ttt_bots["tic-tac-toe-lv0"]], seed=3)
    second = agent_update(agent=agent, config={"model": "x", "temperature": 0.7})
    assert second.number == 2
    first.refresh_from_db()
    assert first.config == {"model": "x", "temperature": 0.3}
    assert agent.current_version().config["temperature"] == 0.7
    # The match keeps pointing at the exact config that played it.
    assert Match.objects.get().seats.get(index=0).agent_version == first


def test_match_create_validates_players_and_options(ttt_bots):
    lv0 = ttt_bots["tic-tac-toe-lv0"]
    with pytest.raises(ServiceError, match="needs 2 players"):
        match_create(game="tic-tac-toe", agents=[lv0])
    with pytest.raises(ServiceError, match="only plays tic-tac-toe"):
        match_create(game="connect-four", agents=[lv0, lv0])
    with pytest.raises(ServiceError, match="Invalid options"):
        match_create(game="tic-tac-toe", agents=[lv0, lv0], options={"board": 4})
    match = match_create(game="tic-tac-toe", agents=[lv0, lv0], seed=9)
    assert match.record["game_version"] == "1"
    assert [a["slug"] for a in match.record["agents"]] == ["tic-tac-toe-lv0", "tic-tac-toe-lv0"]
    assert match.record["code_version"]


def test_illegal_decision_changes_nothing(ttt_bots):
    match = _running(ttt_bots)
    decision_record(match=match, ply=0, action=4)
    with pytest.raises(IllegalAction, match="not a legal move"):
        decision_record(match=match, ply=1, action=4)
    match.refresh_from_db()
    assert match.ply == 1
    assert Decision.objects.count() == 1
    assert match_replayed_state(match).board[4] == 0


def test_a_decision_is_never_recorded_twice(ttt_bots):
    match = _running(ttt_bots)
    decision_record(match=match, ply=0, action=0)
    with pytest.raises(ServiceError, match="stale"):
        decision_record(match=match, ply=0, action=1)
    with pytest.raises(ServiceError, match="now run by test"):
        decision_record(match=match, ply=1, action=1, worker="someone-else")
    assert list(Decision.objects.values_list("ply", "action_text")) == [(0, "a3")]


def test_attempts_are_stored_with_their_decision(ttt_bots):
    match = _running(ttt_bots)
    attempts = [
        AttemptData(verdict="unparseable", raw_text="I think the centre", prompt_tokens=10, completion_tokens=5),
        AttemptData(verdict="ok", raw_text="Answer: b2", parsed_action="b2", prompt_tokens=12, completion_tokens=3),
    ]
    decision_record(match=match, ply=0, action=4, attempts=attempts, elapsed_ms=1500)
    decision = Decision.objects.get()
    assert (decision.prompt_tokens, decision.completion_tokens, decision.elapsed_ms) == (22, 8, 1500)
    assert list(decision.attempts.values_list("number", "verdict")) == [(1, "unparseable"), (2, "ok")]


def test_rejected_human_tries_are_numbered(ttt_bots):
    match = _running(ttt_bots)
    for text in ("z9", "b2b2"):
        attempt_record_rejected(match=match, ply=0, seat=0, attempt=AttemptData(verdict="illegal", raw_text=text))
    assert list(Attempt.objects.values_list("number", "raw_text")) == [(1, "z9"), (2, "b2b2")]
    assert Decision.objects.count() == 0


def test_finishing_writes_scores_to_match_and_seats(ttt_bots):
    match = _running(ttt_bots)
    for ply, cell in enumerate([0, 3, 1, 4, 2]):  # X takes the top row
        match = decision_record(match=match, ply=ply, action=cell)
    assert match.status == Match.Status.FINISHED
    assert match.scores == [1.0, 0.0]
    assert match.termination == "three in a row"
    assert list(match.seats.values_list("score", flat=True)) == [1.0, 0.0]
    with pytest.raises(ServiceError, match="finished"):
        decision_record(match=match, ply=5, action=5)


def test_resign_and_claims(ttt_bots):
    match = _running(ttt_bots)
    assert match_claim(match_id=match.pk, worker="other") is Refused.HELD  # held and alive
    assert match_release_stale(stale_after_s=3600) == []
    assert match_release_stale(stale_after_s=0) == [match.pk]
    assert match_claim(match_id=match.pk, worker="other").match.claimed_by == "other"
    resigned = match_resign(match=match, seat=1)
    assert resigned.scores == [1.0, 0.0]
    assert match_claim(match_id=match.pk, worker="other") is Refused.OVER


def test_runner_plays_a_whole_match_and_the_record_replays(ttt_bots):
    match = match_create(game="tic-tac-toe", agents=[ttt_bots["tic-tac-toe-lv4"], ttt_bots["tic-tac-toe-lv0"]], seed=5)
    finished = async_to_sync(run_match)(match.pk)
    assert finished.status == Match.Status.FINISHED
    assert finished.scores[0] in (1.0, 0.5)  # perfect play never loses
    assert finished.decisions.count() == finished.ply
    assert match_replayed_state(finished) is not None


def test_resumed_match_matches_an_uninterrupted_one(ttt_bots):
    """Interrupt after two decisions, resume from the record: same moves as a straight run."""
    agents = [ttt_bots["tic-tac-toe-lv2"], ttt_bots["tic-tac-toe-lv1"]]
    straight = async_to_sync(run_match)(match_create(game="tic-tac-toe", agents=agents, seed=42).pk)

    interrupted = match_create(game="tic-tac-toe", agents=agents, seed=42)
    claimed = match_claim(match_id=interrupted.pk, worker="doomed-worker").match
    for decision in straight.decisions.order_by("ply")[:2]:
        claimed = decision_record(match=claimed, ply=decision.ply, action=decision.action, worker="doomed-worker")
    assert match_release_stale(stale_after_s=0) == [interrupted.pk]
    resumed = async_to_sync(run_match)(interrupted.pk, worker="new-worker")

    def moves(m):
        return list(m.decisions.order_by("ply").values_list("ply", "seat", "action_text"))

    assert moves(resumed) == moves(straight)
    assert resumed.scores == straight.scores


def test_a_bot_level_the_code_no_longer_has_is_retired_not_deleted():
    gone = agent_ensure(  # a level seeded by an earlier version of the code (people cannot register the slug)
        slug="tic-tac-toe-lv9", name="Tic-tac-toe Lv9", kind=Agent.Kind.BOT, game="tic-tac-toe", config={"level": 9}
    )
    current = bots_ensure(game="tic-tac-toe")
    gone.refresh_from_db()
    assert not gone.is_active  # the lobby offers only active agents
    assert all(agent.is_active for agent in current)
    assert "tic-tac-toe-lv9" not in {agent.slug for agent in current}
