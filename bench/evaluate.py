"""Model decisions per second from worker processes, against a bare asyncio + openai loop on the same server.

Usage: .venv/bin/python bench/evaluate.py [--matches 200] [--latency 0.5] [--cap 64] [--in-flight 128]
                                          [--workers 1 [2 …]] [--database-url postgres://…] [--busy-core]
                                          [--repeat 1]

A scripted OpenAI-compatible server in a child process answers every call after `--latency` seconds with the
prompt's first legal move, at most `--cap` calls at once (HTTP 429 with Retry-After above that). A throw-away site
on SQLite (or on the database at `--database-url`, emptied first) gets an LLM agent on that server and `--matches`
LLM-vs-bot matches (connect-four and kuhn-poker, against their Lv0 bots, both seat orders), queued; `--workers` worker
processes with `--in-flight` runners each play them (by default twice `--cap`: the agent's own cap keeps `--cap`
calls at the server while the other matches are between calls, at a bot's move or a database write, and while the
last matches drain). The peer, in the same run: a bare asyncio loop of the openai SDK sending as many requests as
the matches made, `--cap` at a time, to the same server. Then `verify_replays` checks the record, and every call the
server answered must be one answered attempt on record (an HTTP 429 is an attempt the server refused, waited out and
tried again, as a provider's would be). Several `--workers` counts play one evaluation each, on a fresh site, one
after the other; the peer sends as many requests as the last one made. `--busy-core` keeps one core busy with a
spinning process of its own while both sides play (a machine with other work on it).

Our clock runs from the first match's start to the last one's end, as the peer's runs from its first request to
its last answer: a worker is a long-lived process, so its start (Django's set-up, about 2 s) is paid once, not per
evaluation; the time with the workers' start and exit is printed beside it.

`--repeat N` plays the whole comparison N times in one invocation, our evaluation(s) then the peer, alternately,
each ratio taken within its own round. The ratios are noisy (±10% from run to run on a shared machine: the
neighbours' load moves both sides, not always alike), so each figure is printed as the median over the rounds,
with the range beside it:
  figure evaluate_throughput_ratio <ours / peer> (range <lowest>–<highest> over N rounds)
  figure evaluate_cpu_per_call_ratio <the workers' CPU per answered call / the peer's CPU per call> (range …)
  figure evaluate_worker_rss_mb <the largest worker's peak resident memory, over every round>
  figure evaluate_worker_scaling <the last count's calls/s / the first's> (with several --workers counts; range …)
The workers' CPU in that ratio leaves out their start and exit (Django's set-up, paid once in a worker's life; the
peer's is not counted either): an idle worker's, started on the same site before anything is queued.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.arena.llm.scripted_server import ScriptedServer, first_legal_move, rate_limited  # noqa: E402

GAMES = ("connect-four", "kuhn-poker")


def serve(conn, latency_s: float, cap: int) -> None:
    """The model: the prompt's first legal move after `latency_s`; 429 past `cap` calls at once. Counts answers."""
    answered = [0]
    lock = threading.Lock()

    def reply(body):
        if server.in_flight > cap:
            return rate_limited("0.1")
        with lock:
            answered[0] += 1
        answer = first_legal_move(body)
        answer.delay_s = latency_s
        return answer

    with ScriptedServer(reply, record=False) as server:
        conn.send(server.base_url)
        while conn.recv() != "stop":  # any other message asks for the count
            with lock:
                conn.send(answered[0])
                answered[0] = 0


def spin() -> None:
    """A busy core: what `--busy-core` runs beside both sides."""
    while True:
        pass


def manage(env: dict, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{done.stderr}")
    return done.stdout


def site_env(var: Path, database_url: str) -> dict:
    """The throw-away site's environment: SQLite in `var`, or the database at `database_url`."""
    env = {**os.environ, "ARENA_VAR_DIR": str(var), "DJANGO_SECRET_KEY": "bench-only", "ARENA_SEED_MATCHES": "0"}
    env.pop("DATABASE_URL", None)
    if database_url:
        env["DATABASE_URL"] = database_url
    return env


COUNTS = (
    "from django.db.models import Max, Min; from arena.models import Attempt, Match; "
    "span = Match.objects.aggregate(first=Min('started_at'), last=Max('finished_at')); "
    "print(Match.objects.exclude(status='finished').count(), Attempt.objects.count(), "
    "Attempt.objects.filter(message__startswith='HTTP 429').count(), "
    "(span['last'] - span['first']).total_seconds())"
)


class Played(NamedTuple):
    calls: int  # model calls answered, as the record holds them
    refused: int  # calls refused with 429 (and tried again)
    span_s: float  # from the first match's start to the last one's end
    elapsed_s: float  # from starting the worker processes to their exit
    peak_mb: float  # the largest worker's peak RSS
    cpu_s: float  # the workers' CPU (user + system)
    played_cpu_s: float  # the same without their start and exit (an idle worker's, measured on the same site)
    env: dict  # the site's environment


def ours(base_url: str, matches: int, in_flight: int, workers: int, cap: int, database_url: str) -> Played:
    """Play the evaluation with `workers` worker processes on a fresh site."""
    env = site_env(Path(tempfile.mkdtemp(prefix="arena-bench-evaluate-")), database_url)
    manage(env, "migrate", "--noinput")
    if database_url:
        manage(env, "flush", "--noinput")  # what an earlier count played
    manage(env, "seed", "--no-demo", *[arg for game in GAMES for arg in ("--game", game)])
    manage(
        env, "agents", "add", "--kind", "llm", "--slug", "bench-model", "--base-url", base_url, "--model",
        "scripted-model", "--scaffold", "direct", "--max-concurrency", str(cap), "--timeout-s", "30",
    )  # fmt: skip
    command = [sys.executable, "manage.py", "worker", "--queue-name", "matches", "--batch", "--interval", "0.1",
               "--no-startup-delay", "--no-reload", "--max-in-flight", str(in_flight)]  # fmt: skip
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    idle = subprocess.Popen(command, cwd=ROOT, env=env, **quiet)  # nothing queued yet: a worker's start and exit
    usage = os.wait4(idle.pid, 0)[2]
    start_cpu_s = usage.ru_utime + usage.ru_stime
    per_game = max(1, matches // (2 * len(GAMES)))
    for game in GAMES:
        manage(
            env, "tournament", "create", "--slug", f"bench-{game}", "--format", "round_robin", "--games", game,
            "--agents", "bench-model", f"{game}-lv0", "--games-per-seat", str(per_game),
        )  # fmt: skip
        manage(env, "tournament", "run", f"bench-{game}", "--enqueue")
    started = time.perf_counter()
    processes = [subprocess.Popen(command, cwd=ROOT, env=env, **quiet) for _ in range(workers)]
    usages = [os.wait4(process.pid, 0)[2] for process in processes]
    elapsed = time.perf_counter() - started
    peak_mb = max(usage.ru_maxrss for usage in usages) / 1024
    cpu_s = sum(usage.ru_utime + usage.ru_stime for usage in usages)
    unfinished, attempts, refused, span = manage(env, "shell", "-c", COUNTS).splitlines()[-1].split()
    if int(unfinished):
        raise SystemExit(f"{unfinished} matches did not finish")
    played_cpu_s = cpu_s - workers * start_cpu_s
    return Played(int(attempts) - int(refused), int(refused), float(span), elapsed, peak_mb, cpu_s, played_cpu_s, env)


async def peer_loop(base_url: str, requests: int, cap: int) -> tuple[float, float]:
    """Seconds for `requests` chat completions, `cap` at a time, from one asyncio loop with the openai SDK, and
    the CPU seconds they took."""
    import openai

    client = openai.AsyncOpenAI(base_url=base_url, api_key="none", max_retries=0)
    gate = asyncio.Semaphore(cap)
    prompt = [{"role": "user", "content": "Legal moves: a, b, c\nAnswer with one."}]

    async def one() -> None:
        async with gate:
            await client.chat.completions.create(model="scripted-model", messages=prompt)

    started, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(one() for _ in range(requests)))
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    await client.close()
    return elapsed, cpu


class Round(NamedTuple):
    """One round of the comparison: our evaluation(s), then the peer."""

    rates: list[float]  # calls/s, one per --workers count
    cpu_per_call_s: float  # the first count's workers' CPU per answered call
    peer_rate: float
    peer_cpu_per_call_s: float
    peak_mb: float


def play_round(base_url: str, parent, options, in_flight: int) -> Round:
    """Our evaluation with each --workers count, each on a fresh site, then the peer with as many requests as the
    last one made."""
    rates, cpu_per_call, peak_mb = [], [], 0.0
    for workers in options.workers:
        run = ours(base_url, options.matches, in_flight, workers, options.cap, options.database_url)
        parent.send("count")
        answered = parent.recv()
        verified = manage(run.env, "verify_replays").strip().splitlines()[-1]
        rates.append(run.calls / run.span_s)
        cpu_per_call.append(run.played_cpu_s / run.calls)
        peak_mb = max(peak_mb, run.peak_mb)
        print(f"arena, {workers} worker(s): {run.calls} answered calls in {run.span_s:.1f} s (first match started "
              f"to last finished; {run.elapsed_s:.1f} s with the workers' start and exit) = {rates[-1]:.1f}/s "
              f"({run.calls / run.elapsed_s:.1f}/s); server answered {answered}; {run.refused} calls refused with "
              f"429 and tried again; CPU {run.cpu_s:.1f} s = {1000 * run.cpu_s / run.calls:.2f} ms per answered "
              f"call, {1000 * run.played_cpu_s / run.calls:.2f} ms without the workers' start and exit; "
              f"peak RSS {run.peak_mb:.0f} MB")  # fmt: skip
        print(f"verify_replays: {verified}")
        if answered != run.calls:
            print(f"LOST OR DOUBLED: the server answered {answered} calls, the record holds {run.calls} answered "
                  "attempts")  # fmt: skip
    attempts = run.calls
    peer_s, peer_cpu_s = asyncio.run(peer_loop(base_url, attempts, options.cap))
    parent.send("count")  # the server's count starts again from the peer's calls: the next round counts its own
    parent.recv()
    peer_rate = attempts / peer_s
    print(f"peer (asyncio + openai, {options.cap} at a time): {attempts} calls in {peer_s:.1f} s = {peer_rate:.1f}/s, "
          f"{1000 * peer_cpu_s / attempts:.2f} ms CPU per call")  # fmt: skip
    return Round(rates, cpu_per_call[0], peer_rate, peer_cpu_s / attempts, peak_mb)


def median_and_range(values: list[float]) -> str:
    """The median, and the range when there are several rounds."""
    if len(values) == 1:
        return f"{values[0]:.2f}"
    return f"{statistics.median(values):.2f} (range {min(values):.2f}–{max(values):.2f} over {len(values)} rounds)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--latency", type=float, default=0.5, help="Seconds the model takes per call.")
    parser.add_argument("--cap", type=int, default=64, help="Calls the server takes at once (429 above).")
    parser.add_argument("--in-flight", type=int, help="Runners per worker process (default: twice --cap).")
    parser.add_argument(
        "--workers", type=int, nargs="+", default=[1], help="Worker processes; several counts: one evaluation each."
    )
    parser.add_argument(
        "--database-url", default="", help="A PostgreSQL database to empty and play on (default: SQLite in a temp dir)."
    )
    parser.add_argument("--busy-core", action="store_true", help="Keep one core busy while both sides play.")
    parser.add_argument(
        "--repeat", type=int, default=1, help="Rounds of the whole comparison; each figure is their median."
    )
    options = parser.parse_args()

    busy = multiprocessing.Process(target=spin, daemon=True)
    if options.busy_core:
        busy.start()
    parent, child = multiprocessing.Pipe()
    server = multiprocessing.Process(target=serve, args=(child, options.latency, options.cap), daemon=True)
    server.start()
    base_url = parent.recv()
    in_flight = options.in_flight or 2 * options.cap
    print(f"matches {options.matches}, {in_flight} runners per worker, model latency {options.latency:g} s, "
          f"server cap {options.cap}")  # fmt: skip
    rounds = []
    try:
        for number in range(1, options.repeat + 1):
            if options.repeat > 1:
                print(f"round {number} of {options.repeat}")
            rounds.append(play_round(base_url, parent, options, in_flight))
    finally:
        parent.send("stop")
        server.join(5)
        if busy.is_alive():
            busy.kill()
    print(f"figure evaluate_throughput_ratio {median_and_range([r.rates[0] / r.peer_rate for r in rounds])}")
    cpu_ratios = [r.cpu_per_call_s / r.peer_cpu_per_call_s for r in rounds]
    print(f"figure evaluate_cpu_per_call_ratio {median_and_range(cpu_ratios)}")
    print(f"figure evaluate_worker_rss_mb {max(r.peak_mb for r in rounds):.0f}")
    if len(options.workers) > 1:
        print(f"figure evaluate_worker_scaling {median_and_range([r.rates[-1] / r.rates[0] for r in rounds])}")


if __name__ == "__main__":
    main()
