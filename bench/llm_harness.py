"""How much the LLM harness itself costs per decision, against the scripted server answering at once.

Run: `.venv/bin/python bench/llm_harness.py`. Measures decisions per second with 1 and 64
decisions in flight, and the harness's overhead per decision: the time `LLMAgent.decide`
takes minus the time the server spent handling the request. The server runs in a child
process so its Python does not share the harness's interpreter. The peer, measured in the
same run, is a bare `openai` SDK `chat.completions.create` on one reused client.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")

import django

django.setup()

import openai  # noqa: E402

from arena.agents.llm.agent import LLMAgent  # noqa: E402
from games import get_game  # noqa: E402
from tests.arena.llm.scripted_server import MODEL, serve_in_child  # noqa: E402

SEQUENTIAL = int(os.environ.get("BENCH_SEQUENTIAL", 300))
CONCURRENT = int(os.environ.get("BENCH_CONCURRENT", 1280))
IN_FLIGHT = 64
WARMUP = 20


REPLY = "The centre is strongest.\nAnswer: b2"


class ChildServer:
    """The scripted server in a child process, with its handling times fetched on request."""

    def __init__(self) -> None:
        self.conn, child_conn = multiprocessing.get_context("spawn").Pipe()
        self.process = multiprocessing.get_context("spawn").Process(
            target=serve_in_child, args=(child_conn, REPLY), daemon=True
        )
        self.process.start()
        self.base_url = self.conn.recv()

    def handling_ms(self) -> list[float]:
        self.conn.send("handling_ms")
        return self.conn.recv()

    def close(self) -> None:
        self.conn.send("stop")
        self.process.join(10)


async def _sequential(call, server: ChildServer, count: int) -> tuple[list[float], float]:
    """Overheads (ms) of `count` calls one after another (took minus server time), and calls per second."""
    server.handling_ms()
    took = []
    started = time.perf_counter()
    for _ in range(count):
        began = time.perf_counter()
        await call()
        took.append((time.perf_counter() - began) * 1000)
    rate = count / (time.perf_counter() - started)
    handling = server.handling_ms()
    assert len(handling) == count, (len(handling), count)
    return [t - h for t, h in zip(took, handling, strict=True)], rate


async def _concurrent(call, count: int, in_flight: int) -> float:
    """Calls per second with `in_flight` running at once."""
    queue = iter(range(count))

    async def worker() -> None:
        for _ in queue:
            await call()

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(in_flight)))
    return count / (time.perf_counter() - started)


async def main() -> None:
    game = get_game("tic-tac-toe")
    state = game.initial_state(seed=1)
    server = ChildServer()
    agent = LLMAgent({"base_url": server.base_url, "model": MODEL, "max_concurrency": IN_FLIGHT})
    peer = openai.AsyncOpenAI(base_url=server.base_url, api_key="no-key", max_retries=0)
    messages = [{"role": "user", "content": "Tic-tac-toe: your move?"}]

    async def decide() -> None:
        result = await agent.decide(game, state, 0, 1)
        assert result.action == 4, result.attempts

    async def bare_call() -> None:
        await peer.chat.completions.create(model=MODEL, messages=messages)

    try:
        await _sequential(decide, server, WARMUP)
        await _sequential(bare_call, server, WARMUP)
        overheads, rate_1 = await _sequential(decide, server, SEQUENTIAL)
        peer_overheads, _ = await _sequential(bare_call, server, SEQUENTIAL)
        rate_64 = await _concurrent(decide, CONCURRENT, IN_FLIGHT)
    finally:
        await peer.close()
        server.close()
    overhead = statistics.median(overheads)
    peer_overhead = statistics.median(peer_overheads)
    p90 = statistics.quantiles(overheads, n=10)[-1]
    print(f"decisions: {SEQUENTIAL} one at a time, {CONCURRENT} with {IN_FLIGHT} in flight")
    print(f"harness overhead per decision: median {overhead:.2f} ms, p90 {p90:.2f} ms")
    print(f"bare SDK chat.completions.create on a reused client (peer): median {peer_overhead:.2f} ms")
    print(f"figure harness_overhead_ms_median {overhead:.2f} ms")
    print(f"figure harness_overhead_vs_bare_sdk {overhead / peer_overhead:.2f} ratio")
    print(f"figure harness_decisions_per_second_1 {rate_1:.0f} decisions/s")
    print(f"figure harness_decisions_per_second_64 {rate_64:.0f} decisions/s")


if __name__ == "__main__":
    asyncio.run(main())
