"""Mixed load on loopback: websocket games, page views (leaderboards, replays) and a background tournament.

Runs against the embedded mode (SQLite, in-memory layer, one daphne, one worker) and, with
--scaleout, against PostgreSQL + Redis with two daphne processes and two workers (the servers
are started here, as the scale-out tests do). Reports throughput, p50/p95/p99 latency and errors
per kind of traffic. Peer: the embedded mode is the reference the scale-out mode is compared to.

Usage: .venv/bin/python bench/load.py [--players 40] [--viewers 10] [--seconds 30] [--scaleout]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ws_play import LEGAL, free_port, percentile

from tests.scaleout.conftest import PostgresServer, ScaledSite


def start_servers(site: ScaledSite, web: int, workers: int) -> list[str]:
    site.manage("migrate", "--noinput")
    site.manage("seed", "--no-demo", "--game", "connect-four", "--game", "tic-tac-toe")
    site.manage(
        "tournament",
        "create",
        "--slug",
        "load",
        "--format",
        "round_robin",
        "--games",
        "connect-four",
        "--agents",
        "connect-four-lv0",
        "connect-four-lv1",
        "connect-four-lv2",
        "--games-per-seat",
        "20",
    )
    urls = [site.daphne() for _ in range(web)]
    site.manage("tournament", "run", "load", "--enqueue")
    for _ in range(workers):
        site.worker()
    site.manage("refresh_ratings")
    return urls


PREPARE_PLAYERS = """
import json
from django.contrib.sessions.backends.db import SessionStore
from arena.models import Agent
from arena.record.people import guest_agent_create, person_match_create
bot = Agent.objects.get(slug="connect-four-lv0")
out = []
for n in range({count}):
    guest = guest_agent_create(nickname=f"load{{n}}")
    session = SessionStore(); session["guest_agent"] = guest.slug; session.save()
    match = person_match_create(person=guest, opponent=bot, game="connect-four", seat=0)
    out.append([match.pk, f"sessionid={{session.session_key}}"])
print(json.dumps(out))
"""


async def player(base: str, match_id: int, cookie: str, deadline: float, think: float, stats: dict) -> None:
    import websockets

    url = base.replace("http://", "ws://") + f"/ws/matches/{match_id}/"
    rng = random.Random(match_id)
    try:
        async with websockets.connect(url, additional_headers={"Cookie": cookie, "Origin": base}) as ws:
            message = json.loads(await ws.recv())
            while time.monotonic() < deadline:
                if "Game over" in message.get("html", ""):
                    return
                if message["type"] != "fragment" or "Your move." not in message["html"]:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    continue
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                ply, legal = message["ply"], json.loads(LEGAL.search(message["html"]).group(1))
                sent = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "move": rng.choice(legal)["text"], "ply": ply}))
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    if message["type"] == "error" or message["ply"] >= ply + 1:
                        stats["ws"].append(1000 * (time.perf_counter() - sent))
                        break
    except Exception as error:
        stats["errors"].append(f"ws:{type(error).__name__}")


async def viewer(base: str, paths: list[str], deadline: float, stats: dict) -> None:
    rng = random.Random(hash(base))
    while time.monotonic() < deadline:
        path = rng.choice(paths)
        started = time.perf_counter()
        try:
            await asyncio.to_thread(lambda p=path: urllib.request.urlopen(base + p, timeout=30).read())
            stats["http"].append(1000 * (time.perf_counter() - started))
        except Exception as error:
            stats["errors"].append(f"http:{type(error).__name__}")
        await asyncio.sleep(0.2)


def run_load(site: ScaledSite, urls: list[str], players: int, viewers: int, seconds: float, think: float) -> dict:
    games = json.loads(site.manage("shell", "-c", PREPARE_PLAYERS.format(count=players)).strip().splitlines()[-1])
    match = site.python(
        "import json; from arena.models import Match; "
        "print(json.dumps({'pk': Match.objects.filter(status='finished').first().pk}))"
    )["pk"]
    paths = ["/leaderboard/", "/leaderboard/connect-four/", f"/matches/{match}/?ply=3", "/matches/", "/analysis/"]
    stats: dict = {"ws": [], "http": [], "errors": []}
    before = json.loads(site.manage("tournament", "status", "load", "--json"))["done"]
    deadline = time.monotonic() + seconds

    async def everything() -> None:
        await asyncio.gather(
            *(player(urls[i % len(urls)], m, c, deadline, think, stats) for i, (m, c) in enumerate(games)),
            *(viewer(urls[i % len(urls)], paths, deadline, stats) for i in range(viewers)),
        )

    asyncio.run(everything())
    stats["tournament_matches"] = json.loads(site.manage("tournament", "status", "load", "--json"))["done"] - before
    stats["seconds"] = seconds
    return stats


def report(mode: str, stats: dict) -> list[str]:
    ws, http = stats["ws"], stats["http"]
    print(
        f"{mode}: {len(ws)} moves, {len(http)} page views, {stats['tournament_matches']} tournament matches "
        f"in {stats['seconds']:.0f} s; errors {len(stats['errors'])} {sorted(set(stats['errors']))}"
    )
    for name, values in (("move", ws), ("page", http)):
        print(
            f"  {name}: {len(values) / stats['seconds']:.1f}/s  p50 {percentile(values, 50):.0f} ms  "
            f"p95 {percentile(values, 95):.0f} ms  p99 {percentile(values, 99):.0f} ms"
        )
    key = mode.replace("-", "_")
    return [
        f"figure load_{key}_move_p95_ms {percentile(ws, 95):.0f} ms",
        f"figure load_{key}_page_p95_ms {percentile(http, 95):.0f} ms",
        f"figure load_{key}_moves_per_second {len(ws) / stats['seconds']:.1f} moves/s",
        f"figure load_{key}_pages_per_second {len(http) / stats['seconds']:.1f} pages/s",
        f"figure load_{key}_tournament_matches_per_second {stats['tournament_matches'] / stats['seconds']:.2f} /s",
        f"figure load_{key}_errors {len(stats['errors'])} errors",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--viewers", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--scaleout", action="store_true", help="Also run PostgreSQL + Redis, 2 daphne, 2 workers.")
    args = parser.parse_args()
    figures = []
    embedded = ScaledSite(Path(tempfile.mkdtemp(prefix="arena-load-")), "", "")
    for key in ("DATABASE_URL", "REDIS_URL"):
        embedded.env.pop(key)
    try:
        urls = start_servers(embedded, web=1, workers=1)
        figures += report("embedded", run_load(embedded, urls, args.players, args.viewers, args.seconds, args.think))
    finally:
        embedded.stop()
    if args.scaleout:
        postgres = PostgresServer()
        postgres.start()
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={postgres.port} user=arena dbname=postgres", autocommit=True) as db:
            db.execute("CREATE DATABASE arena")
        redis_port = free_port()
        redis = subprocess.Popen(["redis-server", "--port", str(redis_port), "--save", ""], stdout=subprocess.DEVNULL)
        site = ScaledSite(
            Path(tempfile.mkdtemp(prefix="arena-load-")), postgres.url, f"redis://127.0.0.1:{redis_port}/0"
        )
        try:
            time.sleep(0.5)
            urls = start_servers(site, web=2, workers=2)
            figures += report("scale-out", run_load(site, urls, args.players, args.viewers, args.seconds, args.think))
        finally:
            site.stop()
            redis.terminate()
            postgres.stop()
    print()
    print("\n".join(figures))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
