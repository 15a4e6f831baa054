"""The `rap-verbal` scaffold against the scripted server: the model proposes, predicts and values; a search informs."""

from __future__ import annotations

import importlib
import threading

import pytest
from asgiref.sync import async_to_sync

from arena.agents.base import AgentConfigError
from arena.agents.llm.agent import LLMAgent
from arena.agents.llm.scaffolds.rap_verbal import predicted_value, proposed_moves
from arena.models import Agent, AgentVersion
from games import get_game
from tests.arena.llm.scripted_server import Reply, answer


def test_reading_the_policy_and_the_world_model():
    assert proposed_moves("Thinking…\nMove: b2\n**Move:** `a1`\nMove: b2\nMove: c3", 2) == ["b2", "a1"]
    assert predicted_value("X in the centre.\nValue: 0.8") == 0.8
    assert predicted_value("Value: 0.2 … no, Value: 1.7") == 1.0  # clamped; the last one counts
    assert predicted_value("no number") is None


async def test_the_verbal_look_ahead_searches_its_own_predictions_then_answers(scripted, llm_config, ttt):
    game, state = ttt
    scripted.push(
        Reply(content="Move: b2\nMove: a1\nMove: z9"),  # policy at the root: z9 is not a legal move, dropped
        Reply(content="X holds the centre.\nValue: 0.8"),  # world model after b2
        Reply(content="X holds a corner.\nValue: 0.3"),  # world model after a1
        answer("b2", prompt_tokens=40, completion_tokens=4),  # the answer, told what the search found
    )
    config = {**llm_config, "scaffold": "rap-verbal", "verbal_calls": 3, "verbal_depth": 1, "price_in_per_mtok": 1.0}
    result = await LLMAgent(config).decide(game, state, 0, 7)
    assert result.action == 4
    requests = scripted.chat_requests()
    assert len(requests) == 4  # 3 search calls (the budget) and the answer
    final = requests[-1].body["messages"][-1]["content"]
    assert "b2: estimated value 0.80 over 1 look-ahead(s)" in final
    assert final.index("b2: estimated") < final.index("a1: estimated")  # best first
    [attempt] = result.attempts
    assert attempt.verdict == "ok"
    assert attempt.reasoning_text.startswith("Verbal look-ahead (3 calls)")
    assert "Suppose `a1` is played now" in attempt.reasoning_text
    assert attempt.prompt_tokens == 3 * 50 + 40  # the search's calls are charged to the decision
    assert attempt.cost == pytest.approx(190 / 1_000_000)


async def test_a_deeper_search_stays_within_its_call_budget(scripted, llm_config, ttt):
    game, state = ttt
    scripted.push(
        Reply(content="Move: b2"),
        Reply(content="X centre.\nValue: 0.6"),
        Reply(content="Move: a1"),  # policy on the predicted position (depth 2)
        Reply(content="O corner.\nValue: 0.5"),
        answer("b2"),
    )
    config = {**llm_config, "scaffold": "rap-verbal", "verbal_calls": 4, "verbal_depth": 2}
    result = await LLMAgent(config).decide(game, state, 0, 7)
    assert result.action == 4
    assert len(scripted.chat_requests()) == 5
    assert (
        "b2: estimated value 0.55 over 2 look-ahead(s)" in scripted.chat_requests()[-1].body["messages"][-1]["content"]
    )


def test_a_search_that_has_explored_everything_ends_before_its_budget(scripted, llm_config):
    # One legal move and one proposal a position: the whole tree to depth 2 is 4 calls, fewer than the 6 allowed.
    game = get_game("stratego")
    state = game.initial_state(seed=1)
    [only] = [game.action_to_text(state, action) for action in game.legal_actions(state)]
    scripted.responder = lambda body: Reply(content=f"Move: {only}\nA position.\nValue: 0.5\nAnswer: {only}")
    agent = LLMAgent({**llm_config, "scaffold": "rap-verbal", "verbal_calls": 6, "verbal_depth": 2})
    decided = []
    # The search runs no I/O once the tree is whole, so it is watched from a thread, not cancelled by a timeout.
    worker = threading.Thread(
        target=lambda: decided.append(async_to_sync(agent.decide)(game, state, 0, 7)), daemon=True
    )
    worker.start()
    worker.join(timeout=60)
    assert decided, "the search went on revisiting a finished tree"
    [attempt] = decided[0].attempts
    assert (attempt.verdict, attempt.parsed_action) == ("ok", only)
    assert attempt.reasoning_text.startswith("Verbal look-ahead (4 calls)")
    assert len(scripted.chat_requests()) == 5  # the 4 search calls and the answer


def test_the_verbal_look_ahead_is_bounded(llm_config):
    with pytest.raises(AgentConfigError, match="verbal_calls must be a whole number from 2 to 16"):
        LLMAgent({**llm_config, "scaffold": "rap-verbal", "verbal_calls": 500})


@pytest.mark.django_db
def test_versions_that_ran_the_verbal_look_ahead_as_rap_are_relabelled():
    from django.apps import apps

    migration = importlib.import_module("arena.migrations.0012_rap_verbal_scaffold")
    agent = Agent.objects.create(slug="m", name="M", kind=Agent.Kind.LLM)
    old = AgentVersion.objects.create(agent=agent, number=1, config={"scaffold": "rap", "rap_calls": 6, "model": "x"})
    other = AgentVersion.objects.create(agent=agent, number=2, config={"scaffold": "cot", "rap_calls": 6})
    migration.forwards(apps, None)
    old.refresh_from_db()
    other.refresh_from_db()
    assert old.config == {"scaffold": "rap-verbal", "verbal_calls": 6, "model": "x"}
    assert other.config == {"scaffold": "cot", "rap_calls": 6}
    migration.backwards(apps, None)
    old.refresh_from_db()
    assert old.config == {"scaffold": "rap", "rap_calls": 6, "model": "x"}
