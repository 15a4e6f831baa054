"""End to end with a real model: SmolLM2-135M on the embedded llama-server plays tic-tac-toe."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from asgiref.sync import async_to_sync

from arena.agents.llm.agent import LLMAgent
from arena.agents.llm.llama_server import server_alive, server_binary, server_queue
from arena.agents.llm.local import (
    GEMMA3,
    SMOLLM2,
    SMOLLM2_REASONING,
    LocalModelMissing,
    local_base_url,
    local_llm_agents,
    served_context,
    start_server,
    stop_server,
)
from arena.agents.llm.scaffolds import get_scaffold
from arena.agents.llm.scaffolds.grammar import REASONING_CHARS
from arena.models import Attempt, Decision, Match
from arena.record.agents import agent_ensure
from arena.record.services import match_create
from arena.runner.loop import run_match
from games import get_game

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        server_binary() is None, reason="llama-server is not built (make install: scripts/build-llama-server)"
    ),
]


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def local_llm_port(tmp_path_factory):
    """llama-server with both local models on a free loopback port, for the whole session.

    One thread: the server shares two cores with the other test processes, and two threads that wait on each other
    at every step spin while either is off its core (beside three busy processes, 48 s of CPU for this file against
    18 s, and 68 s of wall time against 40 s)."""
    port = free_port()
    log = tmp_path_factory.mktemp("llama") / "server.log"
    try:
        process = start_server(port, log_path=log, wait_s=300, n_threads=1)
    except LocalModelMissing as missing:
        pytest.skip(str(missing))
    yield port
    stop_server(process)


@pytest.mark.django_db(transaction=True)
def test_smollm2_plays_a_full_game_against_the_random_bot(ttt_bots, local_llm_port):
    spec = next(s for s in local_llm_agents(local_llm_port) if s["slug"] == SMOLLM2)
    assert spec["config"]["base_url"] == local_base_url(local_llm_port)
    # Fewer and shorter tries than the seeded agent keep this affordable on two shared cores.
    llm = agent_ensure(**{**spec, "config": {**spec["config"], "retries": 1, "max_tokens": 24}})
    match = match_create(game="tic-tac-toe", agents=[llm, ttt_bots["tic-tac-toe-lv0"]], seed=3)
    async_to_sync(run_match)(match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, match.termination
    decisions = Decision.objects.filter(match=match, seat=0)
    assert decisions.exists()
    for decision in decisions:
        attempts = list(decision.attempts.all())
        assert attempts, f"decision at ply {decision.ply} has no attempts"
        for attempt in attempts:
            assert attempt.verdict != Attempt.Verdict.API_ERROR, attempt.message
            assert attempt.prompt_tokens > 0
            assert attempt.completion_tokens > 0
            assert attempt.model_reported == SMOLLM2
        assert decision.prompt_tokens > 0


@pytest.mark.parametrize("slug", [GEMMA3, SMOLLM2_REASONING])
async def test_the_seeded_grammar_models_reason_briefly_then_make_a_legal_move_of_their_own(local_llm_port, slug):
    spec = next(s for s in local_llm_agents(local_llm_port) if s["slug"] == slug)
    assert spec["config"]["scaffold"] == "grammar-reasoning"
    game = get_game("tic-tac-toe")
    state = game.apply(game.initial_state(seed=3), 4)
    result = await LLMAgent(spec["config"]).decide(game, state, 1, 3)
    [attempt] = result.attempts
    assert attempt.verdict == Attempt.Verdict.OK, attempt.message
    assert game.is_legal(state, result.action)
    assert not result.fallback
    reasoning, answer = attempt.raw_text.split("\n")
    assert reasoning.startswith("Reasoning: ")
    assert 0 < len(reasoning) - len("Reasoning: ") <= REASONING_CHARS
    assert answer == f"Answer: {attempt.parsed_action}"
    assert attempt.model_reported == spec["config"]["model"]
    assert attempt.completion_tokens > 0


async def test_the_local_server_gives_rap_its_log_probabilities(local_llm_port):
    """llama.cpp's server returns `logprobs` in OpenAI's format, so `rap` reads its rewards from them (no sampling)."""
    spec = next(s for s in local_llm_agents(local_llm_port) if s["slug"] == SMOLLM2)
    config = {
        **spec["config"], "scaffold": "rap", "rap_iterations": 1, "rap_depth": 1, "rap_actions": 2,
        "max_tokens": 24, "retries": 0,
    }  # fmt: skip
    game = get_game("tic-tac-toe")
    state = game.apply(game.initial_state(seed=3), 4)
    result = await LLMAgent(config).decide(game, state, 1, 3)
    [attempt] = result.attempts
    assert attempt.verdict == Attempt.Verdict.OK, attempt.message
    assert game.is_legal(state, result.action)
    assert "logprobs)" in attempt.reasoning_text  # a probability read from log-probabilities
    assert "sampling from here on" not in attempt.reasoning_text


async def test_the_server_decodes_several_games_at_once_and_answers_its_health_check_meanwhile(local_llm_port):
    base_url = local_base_url(local_llm_port)
    spec = next(s for s in local_llm_agents(local_llm_port) if s["slug"] == SMOLLM2)
    agent = LLMAgent({**spec["config"], "retries": 0, "max_tokens": 24})
    game = get_game("tic-tac-toe")
    games = [asyncio.create_task(agent.decide(game, game.initial_state(seed=n), 0, n)) for n in range(4)]
    most_at_once = 0
    while not all(decision.done() for decision in games):
        queue = await asyncio.to_thread(server_queue, base_url, SMOLLM2)
        most_at_once = max(most_at_once, queue.decoding)
        assert await asyncio.to_thread(server_alive, base_url, 0.5)  # never behind the completions
        await asyncio.sleep(0.05)
    for result in await asyncio.gather(*games):
        assert result.attempts[0].verdict != Attempt.Verdict.API_ERROR, result.attempts[0].message
    assert most_at_once >= 2  # decoded together, not one after another


def longest_prompt_state(slug: str, games: int):
    """The position whose prompt is the longest over `games` random games, and that prompt's length."""
    game, longest = get_game(slug), (0, None)
    for seed in range(games):
        rng, state = random.Random(seed), game.initial_state(seed=seed)
        while (seat := game.current_player(state)) is not None:
            legal = [game.action_to_text(state, action) for action in game.legal_actions(state)]
            messages = get_scaffold("grammar-reasoning").first_messages(game, state, seat, legal_texts=legal)
            longest = max(longest, (sum(len(m["content"]) for m in messages), state), key=lambda pair: pair[0])
            state = game.apply(state, game.random_action(state, rng))
    return longest


def served_fit(port: int, slug: str, game_slug: str, state) -> tuple[int, int, int]:
    """The server's own word on the prompt `slug`'s agent sends at `state`, without decoding it: the prompt's tokens
    as llama-server renders (its chat template) and tokenizes them, the reply's room (`max_tokens`), and the
    context of the slot that would serve it. llama-server refuses a request (HTTP 400) whose prompt and reply
    do not fit its slot."""
    spec = next(s for s in local_llm_agents(port) if s["slug"] == slug)
    agent, game = LLMAgent(spec["config"]), get_game(game_slug)
    seat = game.current_player(state)
    legal = [game.action_to_text(state, action) for action in game.legal_actions(state)]
    scaffold = get_scaffold(agent.config["scaffold"])
    messages = scaffold.conversation(game, state, seat, legal_texts=legal, config=agent.config).opening
    model, base = agent.config["model"], f"http://127.0.0.1:{port}"
    prompt = post_json(f"{base}/apply-template", {"model": model, "messages": messages})["prompt"]
    tokens = post_json(f"{base}/tokenize", {"model": model, "content": prompt, "parse_special": True})["tokens"]
    with urllib.request.urlopen(f"{base}/props?model={model}", timeout=60) as response:
        slot_context = json.loads(response.read())["default_generation_settings"]["n_ctx"]
    return len(tokens), int(agent.config["max_tokens"]), slot_context


def post_json(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def test_the_longest_arctic_scavengers_prompt_fits_the_local_context(local_llm_port):
    # With a 2,048-token context the server would refuse this prompt (HTTP 400, a random fallback).
    chars, state = longest_prompt_state("arctic-scavengers", games=20)
    assert chars > 8000
    prompt, reply, slot_context = served_fit(local_llm_port, SMOLLM2_REASONING, "arctic-scavengers", state)
    assert prompt > 2048
    assert prompt + reply <= slot_context == served_context(SMOLLM2)


def test_the_longest_plan_prompt_is_fitted_and_accepted(local_llm_port):
    """Unfitted, Tower Defense's longest ran to 7,163 SmolLM2 tokens; fitted, it fits the server's slot with room
    for the reply. Every game's fit is checked against the real tokenizers in test_context_budget.py; this is the
    server's own count (its chat template and tokenizer) against its own slot's context for the longest."""
    _chars, state = longest_prompt_state("tower-defense", games=2)
    prompt, reply, slot_context = served_fit(local_llm_port, SMOLLM2_REASONING, "tower-defense", state)
    assert prompt > 4096
    assert prompt + reply <= slot_context


@pytest.mark.parametrize(
    ("stop", "status"),
    [(signal.SIGTERM, 0), (signal.SIGKILL, -signal.SIGKILL)],
    ids=["sigterm", "killed-outright"],
)
def test_the_llm_server_command_leaves_no_server_when_it_stops(stop, status):
    """`make run` stops it with SIGTERM: it must stop llama.cpp and exit, not hang waiting on it. Killed outright,
    it has no say: the kernel stops llama.cpp with it (`die_with_parent`)."""
    port = free_port()
    command = [sys.executable, "manage.py", "llm_server", "--model", SMOLLM2, "--port", str(port), "--wait", "300"]
    process = subprocess.Popen(command, env={**os.environ, "LLM_PORT": str(port)}, stdout=subprocess.PIPE, text=True)
    try:
        assert "serving" in process.stdout.readline()  # printed once the server answers
        assert server_alive(local_base_url(port))
        process.send_signal(stop)
        assert process.wait(timeout=60) == status
        deadline = time.monotonic() + 20
        while server_alive(local_base_url(port)):
            assert time.monotonic() < deadline, "llama.cpp still answers after the command exited"
            time.sleep(0.5)
    finally:
        if process.poll() is None:
            process.kill()
