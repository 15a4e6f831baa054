"""N concurrent websocket games against daphne on loopback: people (this script) vs Lv0 bots.

Each simulated person connects like a browser (session cookie, Origin header), waits for its
turn, thinks for --think seconds, sends a random legal move, and measures two round trips:
until its own move comes back in a fragment (ack), and until the bot's reply arrives (reply).
The peer, run on the same clients in the same run, is that protocol on a bare daphne with no
Django work (bench/ws_floor_asgi.py): the floor set by the transport. The goal is p95 ack
< 100 ms at 200 concurrent games. `--processes N` serves Arena with `manage.py serve
--processes N` (a throw-away redis-server is started for the channel layer).

A person thinks 0.5–1.5 × --think seconds (default 5 s, about the pace of blitz chess) between
moves; `--think 1` is a stress test (200 people each moving every second). By default Arena runs
as `make run WEB_PROCESSES=2` would on this 2-core machine.

Server CPU per move and reply is given twice: over the whole run (every daphne's CPU from the
first connect to the last reply, so the connects and match starts too, divided by the replies),
and in the steady state: the daphnes' CPU from the moment every game has had its first move shown
to the moment the first person has made all their moves, divided by the moves and replies shown
in that window (half their sum), when no socket connects and no match starts. The client's own
CPU (this process, which shares the machine's cores with the servers) is given per move and reply.

`--spectators S` is the spectator mode: each run plays the same games twice on Arena, once with
S anonymous spectator sockets spread evenly over the first `--watched` games (default: all of
them) and once without; the peer is Arena without spectators, and the figure is what the
spectators add to the players' p95.

Usage: .venv/bin/python bench/ws_play.py [--games 50 200] [--moves 4] [--think 5] [--processes 2] [--runs 3]
       .venv/bin/python bench/ws_play.py --games 50 --spectators 1000 [--watched 50]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from _django import ROOT, setup_django

LEGAL = re.compile(r'<script id="match-\d+-legal" type="application/json">(.*?)</script>', re.S)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))] if ordered else float("nan")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def prepare(game: str, players: int) -> list[tuple[int, str]]:
    """Create one guest and one match (guest first, vs Lv0) per player; returns (match id, cookie)."""
    from django.contrib.sessions.backends.db import SessionStore

    from arena.models import Agent
    from arena.record.agents import bots_ensure
    from arena.record.people import guest_agent_create, person_match_create

    bots_ensure(game=game)
    opponent = Agent.objects.get(slug=f"{game}-lv0")
    out = []
    for n in range(players):
        guest = guest_agent_create(nickname=f"load{n}")
        session = SessionStore()
        session["guest_agent"] = guest.slug
        session.save()
        match = person_match_create(person=guest, opponent=opponent, game=game, seat=0)
        out.append((match.pk, f"sessionid={session.session_key}"))
    return out


class SteadyWindow:
    """The steady state of a run: from every game's first move shown to the first person done.

    Samples the servers' CPU (and this client's) at both ends; `seen` records when each move
    and each reply was shown, so the window's moves and replies can be counted afterwards.
    """

    def __init__(self, pids: list[int], games: int):
        self.pids, self.waiting = pids, games
        self.seen: list[float] = []
        self.start: tuple[float, float, float] | None = None
        self.end: tuple[float, float, float] | None = None

    def sample(self) -> tuple[float, float, float]:
        return time.perf_counter(), sum(map(cpu_seconds, self.pids)), time.process_time()

    def first_move_shown(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.start = self.sample()

    def person_done(self) -> None:
        if self.end is None:
            self.end = self.sample()

    def figures(self) -> dict[str, float]:
        """Server and client CPU (ms) per move and reply in the window, its length and moves and replies."""
        if self.start is None or self.end is None or self.end[0] <= self.start[0]:
            return {"steady_cpu_ms": float("nan"), "steady_client_ms": float("nan"), "steady_s": 0, "steady_n": 0}
        shown = sum(self.start[0] <= at <= self.end[0] for at in self.seen) / 2
        return {
            "steady_cpu_ms": 1000 * (self.end[1] - self.start[1]) / max(shown, 1),
            "steady_client_ms": 1000 * (self.end[2] - self.start[2]) / max(shown, 1),
            "steady_s": self.end[0] - self.start[0],
            "steady_n": shown,
        }


async def player(
    url: str,
    match_id: int,
    cookie: str,
    moves: int,
    think: float,
    stats: dict,
    rng: random.Random,
    window: SteadyWindow,
):
    import websockets

    headers = {"Cookie": cookie, "Origin": url.replace("ws://", "http://").split("/ws/")[0]}
    try:
        async with websockets.connect(url, additional_headers=headers, max_size=2**22) as ws:
            made = 0
            message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            while made < moves:
                if message["type"] == "error":
                    stats["errors"] += 1
                    message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    continue
                html = message["html"]
                if "Game over" in html:
                    return
                if "Your move." not in html:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    continue
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                legal = json.loads(LEGAL.search(html).group(1))
                ply = message["ply"]
                sent = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "move": rng.choice(legal)["text"], "ply": ply}))
                acked = False
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    if message["type"] == "error":
                        break
                    if not acked and message["ply"] >= ply + 1:
                        stats["ack"].append(1000 * (time.perf_counter() - sent))
                        window.seen.append(time.perf_counter())
                        acked = True
                        if made == 0:
                            window.first_move_shown()
                    if message["ply"] >= ply + 2 or "Game over" in message["html"]:
                        stats["reply"].append(1000 * (time.perf_counter() - sent))
                        window.seen.append(time.perf_counter())
                        made += 1
                        break
            window.person_done()
    except (OSError, TimeoutError, Exception) as error:
        stats["errors"] += 1
        stats.setdefault("error_kinds", set()).add(type(error).__name__)


async def spectator(url: str, delay: float, done: asyncio.Event, stats: dict) -> None:
    """An anonymous page watching a match (no cookie), opened after `delay` s, until the players are done."""
    import websockets

    await asyncio.sleep(delay)
    headers = {"Origin": url.replace("ws://", "http://").split("/ws/")[0]}
    try:
        async with websockets.connect(url, additional_headers=headers, max_size=2**22) as ws:
            while not done.is_set():
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                except TimeoutError:
                    continue
                if message["type"] == "error":
                    stats["spectator_errors"] += 1
                    return
                stats["spectator_frames"] += 1
    except (OSError, Exception) as error:
        stats["spectator_errors"] += 1
        stats.setdefault("error_kinds", set()).add(f"spectator {type(error).__name__}")


async def run_load(
    port: int, players: list[tuple[int, str]], moves: int, think: float, pids: list[int], watchers: list[int] = ()
) -> dict:
    """Every person's game at once, and a spectator socket per entry of `watchers` (a match id each)."""
    stats = {"ack": [], "reply": [], "errors": 0, "spectator_frames": 0, "spectator_errors": 0}
    rng = random.Random(1)
    window = SteadyWindow(pids, len(players))
    started, client_cpu = time.perf_counter(), time.process_time()
    done = asyncio.Event()
    # Spectators arrive evenly over the people's mean thinking time: a thousand handshakes in one
    # second overflow the listening sockets' backlog on this machine, which is not what a page costs.
    watching = [
        asyncio.create_task(
            spectator(f"ws://127.0.0.1:{port}/ws/matches/{match_id}/", think * n / len(watchers), done, stats)
        )
        for n, match_id in enumerate(watchers)
    ]
    await asyncio.gather(
        *(
            player(f"ws://127.0.0.1:{port}/ws/matches/{match_id}/", match_id, cookie, moves, think, stats, rng, window)
            for match_id, cookie in players
        )
    )
    stats["seconds"] = time.perf_counter() - started
    stats["client_cpu"] = time.process_time() - client_cpu
    stats.update(window.figures())
    done.set()
    await asyncio.gather(*watching)
    return stats


def server_processes(pid: int) -> list[int]:
    """The `manage.py serve` process and its daphne children."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [pid, *map(int, children)]


def wait_healthy(port: int) -> None:
    """Until the server on `port` answers its health check (20 s at most)."""
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
            return
        except OSError:
            time.sleep(0.2)


def start_redis() -> tuple[subprocess.Popen, str]:
    """A throw-away redis-server on loopback for the shared channel layer."""
    port = free_port()
    redis = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    time.sleep(0.5)
    return redis, f"redis://127.0.0.1:{port}/0"


def measure(
    command: list[str], env: dict, players: list[tuple[int, str]], args, watchers: list[int] = ()
) -> tuple[dict, float]:
    """Start a server, play every person's game against it, stop it; the stats and its CPU seconds."""
    port = free_port()
    command = [part.replace("{port}", str(port)) for part in command]
    if "REDIS_URL" in env:  # no socket counted by the previous server (stopped before it gave all back) refuses one
        import redis

        redis.Redis.from_url(env["REDIS_URL"]).flushall()
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_healthy(port)
        pids = server_processes(server.pid)
        cpu = sum(map(cpu_seconds, pids))
        stats = asyncio.run(run_load(port, players, args.moves, args.think, pids, watchers))
        return stats, sum(map(cpu_seconds, pids)) - cpu
    finally:
        server.terminate()
        server.wait()


def spread(players: list[tuple[int, str]], spectators: int, watched: int) -> list[int]:
    """`spectators` match ids, spread evenly over the first `watched` games."""
    games = [match_id for match_id, _ in players[:watched]]
    return [games[n % len(games)] for n in range(spectators)] if games else []


def one_run(count: int, arena: list[str], floor: list[str], env: dict, args) -> dict[str, float]:
    """Arena and the peer on the same fresh games; the run's figures, printed as they come.

    The peer is the bare daphne, or in spectator mode Arena without spectators (on games of its own).
    """
    players = prepare(args.game, count)
    watchers = spread(players, args.spectators, args.watched or count)
    stats, cpu = measure(arena, env, players, args, watchers)
    if args.spectators:
        peer, _ = measure(arena, env, prepare(args.game, count), args)
    else:
        peer, _ = measure(floor, env, players, args)
    ack, reply, bare = stats["ack"], stats["reply"], peer["ack"]
    run = {
        "p50": percentile(ack, 50),
        "p95": percentile(ack, 95),
        "p99": percentile(ack, 99),
        "reply_p95": percentile(reply, 95),
        "cpu_ms": 1000 * cpu / max(len(reply), 1),
        "steady_cpu_ms": stats["steady_cpu_ms"],
        "steady_s": stats["steady_s"],
        "steady_n": stats["steady_n"],
        "client_ms": 1000 * stats["client_cpu"] / max(len(reply), 1),
        "steady_client_ms": stats["steady_client_ms"],
        "peer_p95": percentile(bare, 95),
        "errors": stats["errors"] + peer["errors"] + stats["spectator_errors"],
        "spectator_frames": stats["spectator_frames"],
    }
    print(
        f"  {len(ack)} moves in {stats['seconds']:.1f} s: own move shown p50 {run['p50']:.1f} / p95 {run['p95']:.1f}"
        f" / p99 {run['p99']:.1f} ms, bot reply p95 {run['reply_p95']:.1f} ms, server CPU {run['cpu_ms']:.1f} ms"
        f" per move and reply (steady state {run['steady_cpu_ms']:.1f} ms over {run['steady_n']:.0f} in"
        f" {run['steady_s']:.1f} s; client CPU {run['client_ms']:.1f} ms, steady {run['steady_client_ms']:.1f} ms);"
        f" {len(watchers)} spectators got {run['spectator_frames']} frames;"
        f" peer p95 {run['peer_p95']:.1f} ms; errors {run['errors']}"
        f" {sorted(stats.get('error_kinds', set()) | peer.get('error_kinds', set()))}",
        flush=True,
    )
    return run


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--moves", type=int, default=4, help="Moves per person.")
    parser.add_argument("--think", type=float, default=5.0, help="Mean seconds a person thinks before moving.")
    parser.add_argument("--game", default="connect-four")
    parser.add_argument("--processes", type=int, default=2, help="daphne processes (more than one: Redis layer).")
    parser.add_argument("--runs", type=int, default=3, help="Runs per N; medians over runs are reported.")
    parser.add_argument("--spectators", type=int, default=0, help="Spectator mode: this many watching sockets.")
    parser.add_argument("--watched", type=int, default=0, help="Games the spectators watch (default: all).")
    args = parser.parse_args()
    var = setup_django()
    # Every simulated person connects from loopback: one address, as many sockets as games.
    limits = f"sockets_per_address={max(args.games) + args.spectators + 10}"
    env = {
        "ARENA_VAR_DIR": str(var),
        "DJANGO_SECRET_KEY": "bench-only",
        "PATH": "/usr/bin:/bin",
        "ARENA_PLAY_LIMITS": limits,
    }
    redis = None
    if args.processes > 1:
        redis, env["REDIS_URL"] = start_redis()
    try:
        figures = [line for count in args.games for line in measure_count(count, env, args)]
    finally:  # even when a run fails or is interrupted, no redis-server is left behind
        if redis is not None:
            redis.terminate()
            redis.wait()
    print()
    print("\n".join(figures))


def measure_count(count: int, env: dict, args) -> list[str]:
    """`args.runs` runs with `count` concurrent games: the medians printed, and their figure lines."""
    arena = [sys.executable, "manage.py", "serve", "--port", "{port}", "--processes", str(args.processes)]
    daphne = str(Path(sys.executable).with_name("daphne"))
    floor = [daphne, "-b", "127.0.0.1", "-p", "{port}", "bench.ws_floor_asgi:application"]
    watching = f", {args.spectators} spectators over {args.watched or count} games" if args.spectators else ""
    peer = "Arena without spectators" if args.spectators else "bare daphne"
    print(
        f"{count} concurrent games{watching}, {args.processes} daphne, think {args.think} s, {args.runs} runs;"
        f" peer: {peer}",
        flush=True,
    )
    runs = [one_run(count, arena, floor, env, args) for _ in range(args.runs)]
    median = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    p95s = sorted(run["p95"] for run in runs)
    ratio = median["p95"] / median["peer_p95"]
    print(
        f"  median of runs: own move shown p50 {median['p50']:.1f} / p95 {median['p95']:.1f} "
        f"(runs {p95s[0]:.1f}–{p95s[-1]:.1f}) / p99 {median['p99']:.1f} ms; peer p95 {median['peer_p95']:.1f} ms;"
        f" ratio {ratio:.1f}x; errors {sum(run['errors'] for run in runs)}",
        flush=True,
    )
    print(
        f"  server CPU per move and reply: whole run {median['cpu_ms']:.1f} ms, steady state"
        f" {median['steady_cpu_ms']:.1f} ms; client CPU {median['client_ms']:.1f} ms, steady"
        f" {median['steady_client_ms']:.1f} ms (medians of runs)",
        flush=True,
    )
    if args.spectators:
        added = median["p95"] - median["peer_p95"]
        print(f"  spectators add {added:.1f} ms to the players' p95 (median of runs)", flush=True)
        name = f"{count}_spectators_{args.spectators}"
        return [
            f"figure ws_move_p95_ms_{name} {median['p95']:.1f} ms",
            f"figure ws_move_p95_ms_{count}_no_spectators {median['peer_p95']:.1f} ms",
            f"figure ws_spectators_add_p95_ms_{name} {added:.1f} ms",
            f"figure ws_cpu_ms_per_move_{name} {median['cpu_ms']:.1f} ms",
            f"figure ws_cpu_ms_per_move_steady_{name} {median['steady_cpu_ms']:.1f} ms",
            f"figure ws_errors_{name} {sum(run['errors'] for run in runs)} errors",
        ]
    return [
        f"figure ws_move_p50_ms_{count} {median['p50']:.1f} ms",
        f"figure ws_move_p95_ms_{count} {median['p95']:.1f} ms",
        f"figure ws_move_p99_ms_{count} {median['p99']:.1f} ms",
        f"figure ws_reply_p95_ms_{count} {median['reply_p95']:.1f} ms",
        f"figure ws_cpu_ms_per_move_{count} {median['cpu_ms']:.1f} ms",
        f"figure ws_cpu_ms_per_move_steady_{count} {median['steady_cpu_ms']:.1f} ms",
        f"figure ws_client_cpu_ms_per_move_{count} {median['client_ms']:.1f} ms",
        f"figure ws_peer_p95_ms_{count} {median['peer_p95']:.1f} ms",
        f"figure ws_move_p95_vs_peer_{count} {ratio:.2f}",
        f"figure ws_errors_{count} {sum(run['errors'] for run in runs)} errors",
    ]


if __name__ == "__main__":
    main()
