"""GameBench's RAP against the scripted server: a hand-computed tree, the search picks the move.

The scripted model answers each of Appendix H's prompts by what it asks, so the tree is known (tic-tac-toe's
opening; the model shortlists b2 then a1 of the nine legal moves; below the root it predicts actions p, q):

    intuition P("0") = 0.6, P("1") = 0.4 everywhere; self-evaluation P(yes): b2 0.8, a1 0.6, else 0.6;
    P(win): after b2 0, after a1 0.8, deeper 0.6
    fast reward = intuition + self-evaluation:  b2 1.4, a1 1.0, p 1.2, q 1.0
    reward = fast reward + 2·P(win) − 1:        b2 0.4, a1 1.6, p 1.4 (q 1.2)

llm-reasoners' MCTS (UCT weight 1; an unvisited child is scored by its fast reward; a node at the depth
limit reached by selection stays unexpanded and counts its fast reward) runs b2 → p greedily, then selects
b2 → p, b2 → p, b2 → q, b2 → q (Q(b2) falls from 1.8 to 1.64), and in the sixth iteration a1, whose UCT
1.0 + √(ln 5) = 2.27 passes b2's 1.64 + √(ln 5 / 5) = 2.21; a1 → p follows greedily, and a1 keeps the
last four iterations (a1 → p, p, q, q: Q(a1) = (3 · 3.0 + 2 · 2.6) / 5 = 2.84). The best trajectory
to depth 2 is a1 → p (1.6 + 1.4 = 3.0) over b2 → p (0.4 + 1.4 = 1.8): the search plays a1, which a greedy
pick on the fast reward (b2) would not.
"""

from __future__ import annotations

import math
import re

import pytest

from arena.agents.base import AgentConfigError
from arena.agents.llm.agent import LLMAgent
from arena.agents.llm.scaffolds import rap_search as rap
from arena.agents.llm.scaffolds.rap_search import sampled_answer, token_probability, top_logprobs_asked
from tests.arena.llm.scripted_server import Reply
from tests.shared_files import SEEDS, needs

RAP_PAPER = SEEDS / "004_ac22f438e0c45140.txt"
SELF_EVAL = {"b2": 0.8, "a1": 0.6}
WIN = {"after b2": 0.0, "after a1": 0.8}
INTUITION = [0.6, 0.4]


def observed_state(body: dict) -> str:
    """The state in the prompt's prefix (the last user message that carries one)."""
    marker = "Your observation of the game is between <state> and </state>:\n<state>\n"
    text = next(m["content"] for m in reversed(body["messages"]) if marker in m["content"])
    return text.split(marker)[-1].split("\n</state>")[0]


def wanted(body: dict) -> dict[str, float]:
    """What a probability prompt's first token should be, with its probability."""
    question = body["messages"][-1]["content"]
    if question == rap.SELECT_ASK:
        return {str(i): p for i, p in enumerate(INTUITION)}
    if question == rap.SELF_EVAL_ASK:
        p = SELF_EVAL.get(body["messages"][-2]["content"], 0.6)
    else:
        assert question.endswith(rap.WIN_ASK)
        p = WIN.get(observed_state(body), 0.6)
    return {"Yes": p, "No": 1 - p}


def model(*, logprobs: bool):
    """A world model answering Appendix H's prompts; with `logprobs` off, as a server that never sends them."""

    def respond(body: dict) -> Reply:
        question = body["messages"][-1]["content"]
        if body.get("max_tokens") in (1, rap.SAMPLE_TOKENS):  # a probability prompt
            distribution = wanted(body)
            if logprobs:
                top = [(t, math.log(p)) for t, p in distribution.items() if p > 0]
                return Reply(content=top[0][0], top_logprobs=top)
            n = int(body.get("n") or 1)
            answers = [t for t, p in distribution.items() for _ in range(round(p * n))][:n]
            return Reply(content=answers[0], more=answers[1:])
        if question.endswith("Answer with one line: `Answer: <move>`."):  # the direct answer
            return Reply(content="Answer: c3")
        state = observed_state(body)
        if "most promising" in question:
            return Reply(content="<actions>\nb2\na1\n</actions>")
        if question.endswith(rap.OTHERS_Q):
            return Reply(content="<others>O answers in a corner.</others>")
        if question == rap.STATE_Q:
            action = body["messages"][-4]["content"]
            after = f"after {action}" if state.startswith("You play") else f"{state}, {action}"
            return Reply(content=f"<state>{after}</state>")
        if question.endswith(rap.ACTIONS_Q):
            return Reply(content="<actions>\n0. p\n1. q\n</actions>")
        raise AssertionError(f"unexpected prompt: {question[-200:]}")

    return respond


def rap_config(llm_config, **fields):
    return {**llm_config, "scaffold": "rap", "rap_actions": 2, "price_in_per_mtok": 1.0, **fields}


async def test_the_search_plays_the_trajectory_with_the_highest_reward(scripted, llm_config, ttt):
    game, state = ttt
    scripted.responder = model(logprobs=True)
    result = await LLMAgent(rap_config(llm_config)).decide(game, state, 0, 7)
    assert game.action_to_text(state, result.action) == "a1"
    [attempt] = result.attempts  # the search's choice is the decision's one attempt: no answer prompt
    assert (attempt.verdict, attempt.parsed_action, attempt.raw_text) == ("ok", "a1", "Answer: a1")
    requests = scripted.chat_requests()
    assert not any(r.body["messages"][-1]["content"].endswith("`Answer: <move>`.") for r in requests)
    probability_calls = [r.body for r in requests if r.body.get("logprobs")]
    assert probability_calls
    # GameBench's code: one alternative per answer wanted (yes/no: 2; an action's number among n: n), at most 5
    assert {b["max_tokens"] for b in probability_calls} == {1}
    yes_no = [b for b in probability_calls if b["messages"][-1]["content"].endswith((rap.WIN_ASK, rap.SELF_EVAL_ASK))]
    assert yes_no
    assert {b["top_logprobs"] for b in yes_no} == {2}
    assert attempt.reasoning_text.startswith(f"RAP search ({len(requests)} calls)")
    assert "- b2: 1.400, 0.400, 5, 1.640" in attempt.reasoning_text  # fast reward, reward, visits, Q
    assert "- a1: 1.000, 1.600, 5, 2.840" in attempt.reasoning_text
    assert attempt.prompt_tokens == 50 * len(requests)  # every search call is charged to the decision
    assert attempt.cost == pytest.approx(50 * len(requests) / 1_000_000)
    # Each node is predicted once (calls are memoised), so the tree bounds the calls: shortlist 1, root 1 + 2,
    # 2 depth-1 nodes × (others ≤ 1, state, win, actions, intuition, 2 self-evaluations), 4 depth-2 × 3.
    assert len(requests) <= 1 + 3 + 2 * 7 + 4 * 3


async def test_without_log_probabilities_the_probabilities_are_sampled(scripted, llm_config, ttt):
    game, state = ttt
    scripted.responder = model(logprobs=False)
    result = await LLMAgent(rap_config(llm_config)).decide(game, state, 0, 7)
    assert game.action_to_text(state, result.action) == "a1"
    [attempt] = result.attempts
    assert "the endpoint returned no log-probabilities: sampling from here on" in attempt.reasoning_text
    # After the first probability prompt found none, each is asked for 5 answers at temperature 1 in one call.
    samples = [r.body for r in scripted.chat_requests() if r.body.get("max_tokens") == rap.SAMPLE_TOKENS]
    assert samples
    assert all((b["n"], b["temperature"], "logprobs" in b) == (5, 1.0, False) for b in samples)
    # Five samples read every probability of this tree exactly (all are fifths): the same tree, the same move.
    assert "- b2: 1.400, 0.400, 5, 1.640" in attempt.reasoning_text
    assert "- a1: 1.000, 1.600, 5, 2.840" in attempt.reasoning_text


async def test_the_call_budget_stops_the_search_and_the_roots_best_estimate_is_played(scripted, llm_config, ttt):
    game, state = ttt
    scripted.responder = model(logprobs=True)
    result = await LLMAgent(rap_config(llm_config, rap_calls=4)).decide(game, state, 0, 7)
    # Shortlist, intuition and two self-evaluations fit; the world model's first call does not. b2's fast
    # reward (1.4) is then the best the search knows.
    assert len(scripted.chat_requests()) == 4
    assert game.action_to_text(state, result.action) == "b2"
    assert "## search stopped: the call budget (rap_calls = 4) ran out" in result.attempts[0].reasoning_text


async def test_a_failing_provider_ends_the_search_and_the_model_answers_directly(scripted, llm_config, ttt):
    game, state = ttt
    scripted.push(Reply(content="<actions>\nb2\na1\n</actions>"), Reply(status=503, raw_body=b'{"error": {}}'))
    scripted.responder = model(logprobs=True)
    result = await LLMAgent(rap_config(llm_config)).decide(game, state, 0, 7)
    assert game.action_to_text(state, result.action) == "c3"
    [attempt] = result.attempts
    assert attempt.reasoning_text.startswith("RAP search (2 calls)")
    assert attempt.prompt_tokens == 2 * 50  # the answer's and the shortlist's (the failed call reported none)


def test_reading_probabilities_and_samples():
    top = [(" yes", math.log(0.1)), ("Yes", math.log(0.6)), ("YES", math.log(0.05)), ("No", math.log(0.2))]
    # GameBench's reading: the first alternative spelled "yes" in any case, normalised over all returned
    assert token_probability(top, "yes") == pytest.approx(0.6 / 0.95)
    assert token_probability(top, "maybe") == 0.0
    assert [top_logprobs_asked(w) for w in (["yes", "no"], [str(i) for i in range(8)])] == [2, 5]
    assert [sampled_answer(t) for t in ("**Yes.**", "1. b2", " no", "")] == ["yes", "1", "no", ""]
    assert rap.parse_actions("<actions>\n0. e4\n1) d4\n- e4\n</actions>", 5) == ["e4", "d4"]
    assert rap.parse_tagged("no tags here", "state") is None
    assert re.search(r"</action>:$", rap.SELECT_Q)  # Appendix H's own mismatched tag, kept word for word


def test_rap_budgets_are_bounded(llm_config):
    with pytest.raises(AgentConfigError, match="rap_calls must be a whole number from 4 to 400"):
        LLMAgent({**llm_config, "scaffold": "rap", "rap_calls": 1000})
    with pytest.raises(AgentConfigError, match="rap_actions must be a whole number from 2 to 10"):
        LLMAgent({**llm_config, "scaffold": "rap", "rap_actions": 11})


async def test_the_decision_budget_bounds_the_search(scripted, llm_config, ttt):
    game, state = ttt
    scripted.responder = model(logprobs=True)
    result = await LLMAgent(rap_config(llm_config, decision_budget_s=1e-9)).decide(game, state, 0, 7)
    assert result.action is None  # out of time before the first call: the match's fallback policy moves
    assert scripted.chat_requests() == []


@needs(RAP_PAPER)
def test_the_prompts_are_appendix_hs_words():
    text = RAP_PAPER.read_text()
    appendix = re.sub(r"\s+", " ", text[text.index("H RAP prompting") : text.index("I Additional game selection")])
    appendix = appendix.replace("’", "'")
    for words in (
        rap.ACTIONS_Q,
        rap.SELECT_Q,
        rap.SELECT_ASK,
        rap.WRITE_ACTION,
        rap.WRITE_OTHERS,
        rap.SELF_EVAL_ASK,
        rap.OTHERS_Q,
        rap.OTHERS_EXAMPLE,
        rap.STATE_Q,
        rap.WIN_ASK,
        "My opponent will reveal the middle door",
        "The left and right doors are closed, and the middle is open. There is no prize behind it.",
        "You are playing a game called monty hall.",
        "there are three doors, behind one of which there is a prize. Select the door with the prize.",
        "You are now playing a game called",
        "Your observation of the game is between <state> and </state>:",
    ):
        assert re.sub(r"\s+", " ", words) in appendix, words
