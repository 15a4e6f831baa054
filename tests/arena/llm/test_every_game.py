"""Every registered game can be played by a model over real HTTP (the scripted server on loopback): the prompt
carries the game's rules and the seat's observation, a listed move is accepted, and garbage gets a clear error.
Whole matches through the runner for Arctic Scavengers and Two Rooms and a Boom, one with garbage replies throughout."""

from __future__ import annotations

import random

import pytest
from asgiref.sync import async_to_sync
from django.utils.html import escape

from arena.agents.llm.agent import LLMAgent
from arena.models import Attempt, Decision, Match
from arena.record.agents import agent_create, bots_ensure
from arena.record.selectors import match_replayed_state
from arena.record.services import match_create
from arena.runner.loop import run_match
from games import all_games, get_game
from tests.arena.llm.scripted_server import Reply, first_legal_move

GARBAGE = "Let me think. The weather is nice today.\nAnswer: banana"


def mid_game(game, seed: int = 3, plies: int = 6):
    """A position a few random moves in (or the last one before the end)."""
    rng, state = random.Random(seed), game.initial_state(seed=seed)
    for _ in range(plies):
        after = game.apply(state, game.random_action(state, rng))
        if game.current_player(after) is None:
            break
        state = after
    return state


@pytest.mark.parametrize("slug", [game.slug for game in all_games()])
def test_a_model_reads_the_rules_and_its_view_and_its_listed_move_is_played(slug, scripted, llm_config):
    game = get_game(slug)
    state = mid_game(game)
    seat = game.current_player(state)
    first = game.action_to_text(state, game.legal_actions(state)[0])
    scripted.responder = lambda body: Reply(content=f"I pick the first option.\nAnswer: {first}")
    result = async_to_sync(LLMAgent(llm_config).decide)(game, state, seat, 3)
    assert [a.verdict for a in result.attempts] == ["ok"]
    assert game.action_to_text(state, result.action) == first
    assert result.fallback == ""
    [request] = scripted.chat_requests()
    system, user = request.body["messages"][0]["content"], request.body["messages"][-1]["content"]
    assert game.rules_text() in system
    assert game.observation_text(state, seat) in user


@pytest.mark.parametrize("slug", [game.slug for game in all_games()])
def test_garbage_gets_an_error_the_model_can_act_on_then_a_random_legal_move(slug, scripted, llm_config):
    game = get_game(slug)
    state = mid_game(game)
    seat = game.current_player(state)
    scripted.responder = lambda body: Reply(content=GARBAGE)
    result = async_to_sync(LLMAgent({**llm_config, "retries": 1}).decide)(game, state, seat, 3)
    assert result.action is None  # out of tries: the runner applies the match's fallback policy
    assert len(result.attempts) == 2
    for attempt in result.attempts:
        assert attempt.verdict in ("unparseable", "illegal")
        assert len(attempt.message) > 10, attempt.message
    retry = scripted.chat_requests()[1].body["messages"]
    assert retry[-2] == {"role": "assistant", "content": GARBAGE}
    assert result.attempts[0].message in retry[-1]["content"]


NEWEST = ["arctic-scavengers", "two-rooms-and-a-boom"]


def play(slug: str, llm_config: dict, seed: int = 11) -> Match:
    """The model in seat 0, the game's Lv0 bot in every other seat, through the real runner."""
    llm = agent_create(slug="scripted-llm", name="Scripted LLM", kind="llm", config={**llm_config, "retries": 1})
    bot = next(agent for agent in bots_ensure(game=slug) if agent.slug == f"{slug}-lv0")
    seats = [llm] + [bot] * (get_game(slug).num_players - 1)
    match = match_create(game=slug, agents=seats, seed=seed)
    async_to_sync(run_match)(match.pk)
    match.refresh_from_db()
    return match


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("slug", NEWEST)
def test_a_whole_match_with_a_model_seat_is_recorded_and_replays(slug, scripted, llm_config, client):
    scripted.responder = first_legal_move
    match = play(slug, llm_config)
    assert match.status == Match.Status.FINISHED
    assert sorted(set(match.scores)) in ([0.0, 1.0], [0.5])
    game = get_game(slug)
    assert game.outcome(match_replayed_state(match)).scores == tuple(match.scores)
    model_decisions = Decision.objects.filter(match=match, seat=0)
    assert model_decisions.count() >= 3
    for decision in model_decisions:
        assert [a.verdict for a in decision.attempts.all()] == ["ok"]
        assert decision.fallback == ""
    assert len(scripted.chat_requests()) == model_decisions.count()
    # The replay's trace of a model move: its verdict badge, its reply and the prompt it answered.
    decision = model_decisions.order_by("ply").last()
    trace = client.get(f"/matches/{match.pk}/replay/?ply={decision.ply + 1}").content.decode()
    attempt = decision.attempts.get()
    assert "badge-ok" in trace
    assert escape(attempt.raw_text) in trace
    assert escape(attempt.messages[-1]["content"]) in trace


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("slug", NEWEST)
def test_a_model_answering_garbage_falls_back_to_random_moves_and_the_match_stays_consistent(
    slug, scripted, llm_config
):
    scripted.responder = lambda body: Reply(content=GARBAGE)
    match = play(slug, llm_config)
    assert match.status == Match.Status.FINISHED
    match_replayed_state(match)  # raises ReplayMismatch if the record disagrees with itself
    model_decisions = Decision.objects.filter(match=match, seat=0)
    assert model_decisions.exists()
    for decision in model_decisions:
        assert decision.fallback == "random_legal"
        attempts = list(decision.attempts.all())
        assert len(attempts) == 2
        for attempt in attempts:
            assert attempt.verdict in (Attempt.Verdict.UNPARSEABLE, Attempt.Verdict.ILLEGAL)
            assert "banana" in attempt.message, attempt.message
