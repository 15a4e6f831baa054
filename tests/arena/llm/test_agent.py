"""The real LLMAgent over real HTTP against the scripted server: verdicts, retries, budgets, scaffolds."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest

from arena.agents.base import AgentConfigError
from arena.agents.llm.agent import LLMAgent
from arena.agents.llm.local import completion_check
from arena.agents.llm.scaffolds.cot import COT_SENTENCE
from arena.agents.llm_config import MAX_REPLY_CHARS
from games import get_game
from tests.arena.llm.scripted_server import (
    MODEL,
    Reply,
    ScriptedServer,
    answer,
    cut_off,
    enormous,
    hang_up,
    malformed_json,
    rate_limited,
    server_error,
    slow,
)


def verdicts(result):
    return [(a.verdict, a.transient) for a in result.attempts]


async def test_a_good_answer_is_one_ok_attempt_with_tokens_cost_and_model(scripted, llm_config, ttt):
    game, state = ttt
    scripted.push(answer("b2", prompt_tokens=1200, completion_tokens=300, model="provider/model-2026"))
    agent = LLMAgent({**llm_config, "price_in_per_mtok": 2.5, "price_out_per_mtok": 10.0, "temperature": 0.3})
    result = await agent.decide(game, state, 0, 7)
    assert result.action == 4
    assert result.fallback == ""
    [attempt] = result.attempts
    assert (attempt.verdict, attempt.parsed_action, attempt.raw_text) == ("ok", "b2", "Answer: b2")
    assert (attempt.prompt_tokens, attempt.completion_tokens) == (1200, 300)
    assert attempt.cost == pytest.approx((1200 * 2.5 + 300 * 10.0) / 1_000_000)
    assert attempt.model_reported == "provider/model-2026"
    assert attempt.latency_ms >= 0
    [request] = scripted.chat_requests()
    assert request.body["model"] == "scripted-model"
    assert request.body["temperature"] == 0.3
    assert request.body["messages"] == attempt.messages
    assert [m["role"] for m in attempt.messages] == ["system", "user"]
    assert "grammar" not in request.body


async def test_invalid_answers_are_reprompted_with_the_error_and_the_previous_output(scripted, llm_config, ttt):
    game, state = ttt
    state = game.apply(state, 4)  # b2 is taken
    scripted.push(Reply(content="I like the middle."), answer("b2"), answer("z9"), answer("a1"))
    result = await LLMAgent(llm_config).decide(game, state, 1, 7)
    assert result.action == 6
    assert verdicts(result) == [("unparseable", False), ("illegal", False), ("illegal", False), ("ok", False)]
    requests = [r.body["messages"] for r in scripted.chat_requests()]
    second, fourth = requests[1], requests[3]
    assert second[-2] == {"role": "assistant", "content": "I like the middle."}
    assert "not accepted" in second[-1]["content"]
    assert "No move found" in second[-1]["content"]
    # Every earlier invalid output and its error stay in the conversation.
    assert [m["content"] for m in fourth if m["role"] == "assistant"] == [
        "I like the middle.",
        "Answer: b2",
        "Answer: z9",
    ]
    assert "'b2' is not a legal move here" in fourth[-3]["content"]
    assert "Could not read 'z9'" in fourth[-1]["content"]
    assert result.attempts[3].messages == fourth


async def test_out_of_tries_returns_no_action_after_retries_plus_one(scripted, llm_config, ttt):
    game, state = ttt
    scripted.push(*[Reply(content="pass") for _ in range(5)])
    result = await LLMAgent({**llm_config, "retries": 2}).decide(game, state, 0, 7)
    assert result.action is None
    assert verdicts(result) == [("unparseable", False)] * 3
    assert len(scripted.chat_requests()) == 3


async def test_provider_failures_are_transient_and_do_not_use_up_retries(scripted, llm_config, ttt):
    game, state = ttt
    scripted.push(rate_limited("0"), server_error(503), Reply(content="hmm"), hang_up(), malformed_json(), answer("c3"))
    result = await LLMAgent({**llm_config, "retries": 1}).decide(game, state, 0, 7)
    assert result.action == 2
    assert verdicts(result) == [
        ("api_error", True),
        ("api_error", True),
        ("unparseable", False),
        ("api_error", True),
        ("api_error", True),
        ("ok", False),
    ]
    messages = [a.message for a in result.attempts]
    assert messages[0].startswith("HTTP 429")
    assert messages[1].startswith("HTTP 503")
    assert "Connection failed" in messages[3]
    assert "not a chat completion" in messages[4]


async def test_the_provider_is_given_up_on_after_three_retries(scripted, llm_config, ttt):
    game, state = ttt
    scripted.push(*[server_error() for _ in range(6)])
    result = await LLMAgent(llm_config).decide(game, state, 0, 7)
    assert result.action is None
    assert verdicts(result) == [("api_error", True)] * 4
    assert len(scripted.chat_requests()) == 4


async def test_429s_do_not_use_up_provider_retries_until_their_wait_runs_out(scripted, llm_config, ttt):
    game, state = ttt
    scripted.push(*[rate_limited("0") for _ in range(5)], answer("c3"))
    result = await LLMAgent({**llm_config, "provider_retries": 0}).decide(game, state, 0, 7)
    assert result.action == 2
    assert verdicts(result) == [("api_error", True)] * 5 + [("ok", False)]
    assert result.outage == ""

    scripted.responder = lambda body: rate_limited("0.01")  # the provider never stops asking to wait
    config = {**llm_config, "provider_retries": 1, "rate_limit_wait_s": 0.03}
    result = await LLMAgent(config).decide(game, state, 0, 7)
    assert result.action is None
    assert result.outage == "the local model server is not answering"  # the runner pauses, not a fallback
    assert verdicts(result)[-1] == ("api_error", True)


async def test_a_provider_that_dies_after_a_wrong_answer_is_an_outage_not_the_models_failure(scripted, llm_config, ttt):
    game, state = ttt
    scripted.push(Reply(content="hmm"), server_error(503), server_error(503))
    result = await LLMAgent({**llm_config, "retries": 1, "provider_retries": 1}).decide(game, state, 0, 7)
    assert result.action is None
    assert verdicts(result) == [("unparseable", False), ("api_error", True), ("api_error", True)]
    assert result.outage == "the local model server is not answering"


async def test_a_busy_local_server_is_an_outage_that_says_busy_and_how_many_moves_are_ahead(llm_config, ttt):
    game, state = ttt
    # One slot, as a llama-server sized so: one move decodes, one waits for the slot, and ours waits behind both.
    with ScriptedServer(lambda body: slow(10.0), slots=1) as server:
        others = [threading.Thread(target=completion_check, args=(server.base_url, MODEL)) for _ in range(2)]
        for other in others:
            other.start()
        await asyncio.to_thread(server.until_busy)
        config = {**llm_config, "base_url": server.base_url, "timeout_s": 0.5, "retries": 0, "provider_retries": 0}
        result = await LLMAgent(config).decide(game, state, 0, 7)
        assert result.action is None
        assert result.outage == "the local model server is busy — 2 moves ahead of yours"
    for other in others:  # closing the server cut their waits short
        other.join()


async def test_a_client_error_stops_at_once_and_is_not_transient(scripted, llm_config, ttt):
    game, state = ttt
    scripted.push(Reply(status=401, raw_body=b'{"error": {"message": "Incorrect API key"}}'))
    result = await LLMAgent(llm_config).decide(game, state, 0, 7)
    assert result.action is None
    assert verdicts(result) == [("api_error", False)]
    assert "401" in result.attempts[0].message


async def test_a_slow_reply_times_out_and_is_retried(scripted, llm_config, ttt):
    game, state = ttt
    scripted.push(slow(3.0), answer("a3"))
    result = await LLMAgent({**llm_config, "timeout_s": 0.3}).decide(game, state, 0, 7)
    assert result.action == 0
    assert verdicts(result) == [("timeout", True), ("ok", False)]
    assert "No reply within 0.3 s" in result.attempts[0].message


async def test_the_decision_budget_stops_all_tries(scripted, llm_config, ttt):
    game, state = ttt
    scripted.push(Reply(content="thinking"), slow(3.0), answer("a3"))
    result = await LLMAgent({**llm_config, "decision_budget_s": 0.5}).decide(game, state, 0, 7)
    assert result.action is None
    assert verdicts(result) == [("unparseable", False), ("timeout", False)]
    assert "decision budget of 0.5 s" in result.attempts[-1].message


async def test_cut_off_and_over_budget_replies(scripted, llm_config, ttt):
    game, state = ttt
    scripted.push(cut_off(), answer("b2", completion_tokens=900), enormous(), answer("b2", completion_tokens=90))
    agent = LLMAgent({**llm_config, "max_tokens": 64, "budget_output_tokens": 100})
    result = await agent.decide(game, state, 0, 7)
    assert result.action == 4
    assert verdicts(result) == [("over_budget", False)] * 3 + [("ok", False)]
    cut, costly, huge, _ = result.attempts
    assert "cut off at the output limit (64 tokens)" in cut.message
    assert "900 output tokens, over the budget of 100" in costly.message
    assert "over the 100000 limit" in huge.message
    assert len(huge.raw_text) < MAX_REPLY_CHARS + 100
    # The feedback after a cut-off reply tells the model to be brief.
    assert "answer more briefly" in scripted.chat_requests()[1].body["messages"][-1]["content"]


async def test_empty_replies_are_unparseable(scripted, llm_config, ttt):
    game, state = ttt
    scripted.push(Reply(content=""), Reply(content=None), answer("b2"))
    result = await LLMAgent(llm_config).decide(game, state, 0, 7)
    assert verdicts(result) == [("unparseable", False), ("unparseable", False), ("ok", False)]
    assert result.attempts[0].message.startswith("The reply was empty")
    assert scripted.chat_requests()[1].body["messages"][-2] == {"role": "assistant", "content": "(empty reply)"}


async def test_reasoning_is_kept_apart_from_the_reply(scripted, llm_config, ttt):
    game, state = ttt
    scripted.push(
        answer("b2", reasoning_content="The centre is on four lines.", reasoning_tokens=42, completion_tokens=50),
        Reply(content="<think>Corners are strong.</think>\nAnswer: a1"),
        Reply(content="Answer: c1", reasoning="Blocking."),
    )
    agent = LLMAgent(llm_config)
    first = (await agent.decide(game, state, 0, 7)).attempts[0]
    assert (first.raw_text, first.reasoning_text, first.reasoning_tokens) == (
        "Answer: b2",
        "The centre is on four lines.",
        42,
    )
    second = (await agent.decide(game, state, 0, 7)).attempts[0]
    assert (second.raw_text, second.reasoning_text, second.parsed_action) == ("Answer: a1", "Corners are strong.", "a1")
    third = (await agent.decide(game, state, 0, 7)).attempts[0]
    assert (third.reasoning_text, third.parsed_action) == ("Blocking.", "c1")


async def test_cot_asks_to_reason_out_loud(scripted, llm_config, ttt):
    game, state = ttt
    scripted.push(Reply(content="Centre controls four lines.\nAnswer: b2"))
    result = await LLMAgent({**llm_config, "scaffold": "cot"}).decide(game, state, 0, 7)
    assert result.action == 4
    prompt = scripted.chat_requests()[0].body["messages"][-1]["content"]
    assert COT_SENTENCE in prompt
    assert prompt.rstrip().endswith("where <move> is one legal move written exactly as listed.")


async def test_self_consistency_takes_the_majority_and_records_every_sample(scripted, llm_config, ttt):
    game, state = ttt
    # Samples run concurrently, so replies reach them in any order: the majority must not hinge on it.
    scripted.push(answer("b2"), answer("a1"), Reply(content="no clue"), answer("b2"), answer("b2"))
    result = await LLMAgent({**llm_config, "scaffold": "self-consistency", "samples": 5}).decide(game, state, 0, 7)
    assert result.action == 4
    assert len(result.attempts) == 5
    assert sorted(a.verdict for a in result.attempts) == ["ok"] * 4 + ["unparseable"]
    assert sorted(a.parsed_action for a in result.attempts if a.verdict == "ok") == ["a1", "b2", "b2", "b2"]
    assert len(scripted.chat_requests()) == 5


async def test_self_consistency_reprompts_when_no_sample_is_legal(scripted, llm_config, ttt):
    game, state = ttt
    scripted.push(*[Reply(content="hmm") for _ in range(3)], answer("c2"), answer("c2"), answer("a3"))
    config = {**llm_config, "scaffold": "self-consistency", "samples": 3}
    result = await LLMAgent(config).decide(game, state, 0, 7)
    assert result.action == 5
    assert len(result.attempts) == 6
    assert "not accepted" in scripted.chat_requests()[3].body["messages"][-1]["content"]


async def test_grammar_scaffold_constrains_output_to_the_legal_moves(scripted, llm_config, ttt):
    game, state = ttt
    state = game.apply(game.apply(state, 4), 0)
    scripted.push(answer("c1"))
    result = await LLMAgent({**llm_config, "scaffold": "grammar"}).decide(game, state, 0, 7)
    assert result.action == 8
    grammar = scripted.chat_requests()[0].body["grammar"]
    assert grammar.startswith('root ::= "Answer: " move')
    assert 'move ::= "b3" | "c3" | "a2" | "c2" | "a1" | "b1" | "c1"' in grammar
    assert '"b2"' not in grammar


async def test_legal_list_can_be_left_out(scripted, llm_config, ttt):
    game, state = ttt
    scripted.push(answer("b2"))
    await LLMAgent({**llm_config, "legal_list": False}).decide(game, state, 0, 7)
    assert "Legal moves" not in json.dumps(scripted.chat_requests()[0].body)


async def test_the_api_key_goes_only_in_the_authorization_header(scripted, llm_config, ttt, monkeypatch):
    game, state = ttt
    secret = "sk-test-0123456789abcdef"
    monkeypatch.setenv("ARENA_TEST_LLM_KEY", secret)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-must-not-leak")
    scripted.push(
        Reply(content="nope"), Reply(status=500, raw_body=f'{{"error": {{"message": "bad key {secret}"}}}}'.encode())
    )
    scripted.push(answer("b2"))
    result = await LLMAgent({**llm_config, "api_key_env": "ARENA_TEST_LLM_KEY"}).decide(game, state, 0, 7)
    assert result.action == 4
    for request in scripted.chat_requests():
        assert request.headers["authorization"] == f"Bearer {secret}"
        assert secret.encode() not in request.raw
    recorded = json.dumps([vars(a) for a in result.attempts])
    assert secret not in recorded
    assert "[redacted]" in result.attempts[1].message
    # Without api_key_env the SDK's own environment variable is not sent either.
    scripted.push(answer("b2"))
    await LLMAgent(llm_config).decide(game, state, 0, 7)
    assert "sk-must-not-leak" not in scripted.chat_requests()[-1].headers["authorization"]


async def test_a_missing_key_variable_is_an_api_error_without_calling(scripted, llm_config, ttt, monkeypatch):
    game, state = ttt
    monkeypatch.delenv("ARENA_TEST_MISSING_KEY", raising=False)
    result = await LLMAgent({**llm_config, "api_key_env": "ARENA_TEST_MISSING_KEY"}).decide(game, state, 0, 7)
    assert result.action is None
    assert verdicts(result) == [("api_error", False)]
    assert "ARENA_TEST_MISSING_KEY is not set" in result.attempts[0].message
    assert scripted.chat_requests() == []


async def test_calls_to_one_provider_respect_its_concurrency_limit(scripted, llm_config, ttt):
    game, state = ttt
    scripted.responder = lambda body: slow(0.05, "b2")
    agent = LLMAgent({**llm_config, "max_concurrency": 2})
    results = await asyncio.gather(*(agent.decide(game, state, 0, n) for n in range(8)))
    assert [r.action for r in results] == [4] * 8
    assert scripted.max_in_flight == 2


def test_public_history_is_shown_when_information_is_hidden(ttt):
    from arena.agents.llm.prompts import user_prompt
    from arena.agents.llm.scaffolds.base import ONE_LINE

    game, state = ttt

    class HiddenTicTacToe(type(game)):
        hidden_information = True

        def public_history(self, state):
            return "1. X b2"

    text = user_prompt(HiddenTicTacToe(), state, 0, instruction=ONE_LINE, legal_texts=["a1"], legal_list=True)
    assert "Public move history:\n1. X b2" in text
    assert "Public move history" not in user_prompt(
        game, state, 0, instruction=ONE_LINE, legal_texts=[], legal_list=True
    )


def test_backoff_grows_and_honours_retry_after(llm_config):
    from arena.agents.llm.agent import DecisionRun

    run = DecisionRun.__new__(DecisionRun)
    run.config = {"backoff_base_s": 1.0, "backoff_max_s": 30.0}
    assert 0.5 <= run.backoff(0, None) <= 1.0
    assert 4.0 <= run.backoff(3, None) <= 8.0
    assert run.backoff(10, None) <= 30.0
    assert run.backoff(0, 12.0) == 12.0
    assert run.backoff(0, 600.0) == 30.0  # a server asking for ten minutes gets the cap


def test_bad_configs_are_refused(llm_config):
    with pytest.raises(AgentConfigError, match="Unknown scaffold 'tree'"):
        LLMAgent({**llm_config, "scaffold": "tree"})
    with pytest.raises(AgentConfigError, match="needs 'model'"):
        LLMAgent({"base_url": llm_config["base_url"]})


async def test_botzone_scaffold_asks_for_evaluation_reason_answer(scripted, llm_config):
    # Connect Four is not among Appendix C's games: it gets BotzoneBench's format with our rules and encoding.
    game = get_game("connect-four")
    state = game.initial_state(seed=1)
    move = game.action_to_text(state, game.legal_actions(state)[3])
    scripted.push(Reply(content=f"Evaluation: the centre column.\nReason: most lines.\nAnswer: {move}"))
    result = await LLMAgent({**llm_config, "scaffold": "botzone"}).decide(game, state, 0, 7)
    assert game.action_to_text(state, result.action) == move
    [system, user] = scripted.chat_requests()[0].body["messages"]
    assert "Evaluation: [Your Evaluation]\nReason: [Your Reason]\nAnswer: [Your Answer]" in system["content"]
    assert user["content"].endswith(
        "Briefly evaluate a few promising moves, provide reason for your final choice, and output the action.\n"
        "Evaluation: [Your Evaluation]\nReason: [Your Reason]\nAnswer: [Your Answer]"
    )
