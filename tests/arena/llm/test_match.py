"""Whole matches with a scripted LLM seat through the real runner: the rows written and the fallbacks."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync

from arena.agents.llm import PROMPT_VERSION
from arena.models import Attempt, Decision, Match
from arena.record.agents import agent_create
from arena.record.services import match_create
from arena.record.signals import match_updated
from arena.runner.loop import run_match
from tests.arena.llm.scripted_server import Reply, first_legal_move, server_error

pytestmark = pytest.mark.django_db(transaction=True)


def _play(ttt_bots, llm_config, *, policies=None, seed=5) -> Match:
    llm = agent_create(slug="scripted-llm", name="Scripted LLM", kind="llm", config=llm_config)
    match = match_create(game="tic-tac-toe", agents=[llm, ttt_bots["tic-tac-toe-lv0"]], seed=seed, policies=policies)
    async_to_sync(run_match)(match.pk)
    match.refresh_from_db()
    return match


def test_a_full_match_records_every_llm_decision_and_attempt(ttt_bots, scripted, llm_config):
    scripted.responder = first_legal_move
    match = _play(ttt_bots, {**llm_config, "price_in_per_mtok": 1.0, "price_out_per_mtok": 4.0})
    assert match.status == Match.Status.FINISHED
    assert match.record["prompt_version"] == PROMPT_VERSION
    llm_decisions = Decision.objects.filter(match=match, seat=0)
    assert llm_decisions.exists()
    for decision in llm_decisions:
        [attempt] = decision.attempts.all()
        assert attempt.verdict == Attempt.Verdict.OK
        assert attempt.parsed_action == decision.action_text
        assert attempt.model_reported == "scripted-model"
        assert (decision.prompt_tokens, decision.completion_tokens) == (50, 5)
        assert decision.cost == pytest.approx((50 * 1.0 + 5 * 4.0) / 1_000_000)
        assert decision.fallback == ""
        assert attempt.messages[0]["role"] == "system"
    # The bot's decisions leave no attempts.
    assert not Attempt.objects.filter(match=match, seat=1).exists()
    assert len(scripted.chat_requests()) == llm_decisions.count()


def test_a_models_move_and_the_random_bots_reply_are_recorded_and_shown_together(ttt_bots, scripted, llm_config):
    scripted.responder = first_legal_move
    updates = []

    async def watch(sender, *, match, decisions=(), **kwargs):
        updates.append([(decision.ply, decision.seat) for decision in decisions])

    match_updated.connect(watch, dispatch_uid="test-watch")
    try:
        match = _play(ttt_bots, llm_config)
    finally:
        match_updated.disconnect(dispatch_uid="test-watch")
    moves = [update for update in updates if update]
    assert [ply for update in moves for ply, _seat in update] == list(range(match.ply))
    seats = [[seat for _ply, seat in update] for update in moves]
    assert seats[:-1] == [[0, 1]] * (len(seats) - 1)  # one write each: the model's move and the bot's reply
    assert seats[-1] in ([0], [0, 1])
    assert len(scripted.chat_requests()) == len(seats)


def test_random_legal_fallback_after_the_tries_run_out(ttt_bots, scripted, llm_config):
    scripted.responder = lambda body: Reply(content="I cannot decide.")
    match = _play(ttt_bots, {**llm_config, "retries": 1})
    assert match.status == Match.Status.FINISHED
    for decision in Decision.objects.filter(match=match, seat=0):
        assert decision.fallback == "random_legal"
        assert [a.verdict for a in decision.attempts.all()] == ["unparseable", "unparseable"]


def test_forfeit_policy_ends_the_match_with_the_llm_losing(ttt_bots, scripted, llm_config):
    scripted.responder = lambda body: Reply(content="Answer: z9")
    match = _play(ttt_bots, {**llm_config, "retries": 2}, policies={"fallback": "forfeit"})
    assert match.status == Match.Status.FINISHED
    assert match.scores == [0.0, 1.0]
    assert "forfeit" in match.termination
    assert match.seats.get(index=0).score == 0.0
    assert not Decision.objects.filter(match=match).exists()
    rejected = Attempt.objects.filter(match=match, seat=0, ply=0)
    assert [a.verdict for a in rejected] == ["illegal"] * 3
    assert all(a.decision is None for a in rejected)


def test_a_local_model_server_that_is_down_pauses_the_match_with_the_reason_shown(ttt_bots, scripted, llm_config):
    scripted.close()  # the embedded server died: nothing answers on its port
    match = _play(ttt_bots, {**llm_config, "provider_retries": 1})
    assert match.status == Match.Status.RUNNING
    assert match.claimed_by == ""
    assert match.pause["reason"] == "the local model server is not answering; the match resumes when it does"
    assert not Decision.objects.filter(match=match).exists()
    attempts = Attempt.objects.filter(match=match)
    assert [(a.verdict, a.transient, a.decision_id) for a in attempts] == [("api_error", True, None)] * 2
    assert all(a.message.startswith("Connection failed") for a in attempts)


def test_a_provider_failing_with_5xx_pauses_the_match_without_a_fallback(ttt_bots, scripted, llm_config):
    scripted.responder = lambda body: server_error(502)
    match = _play(ttt_bots, {**llm_config, "provider_retries": 1})
    assert match.status == Match.Status.RUNNING
    assert match.paused_until is not None
    assert match.scores is None
    assert not Decision.objects.filter(match=match).exists()
    attempts = Attempt.objects.filter(match=match)
    assert [(a.verdict, a.transient) for a in attempts] == [("api_error", True)] * 2
