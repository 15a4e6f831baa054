"""What one spectator's socket costs the server: Redis commands and CPU per connect and per close.

Serves Arena with `manage.py serve --processes 1` (Redis channel layer and cache, as in production), opens
--spectators anonymous sockets over --games matches in batches of --batch, waits for each one's first
fragment, then closes them all. Reported: Redis commands per socket opened and closed (Redis's own
`INFO commandstats`: a deterministic count, by command) and the daphne process's CPU per socket (user +
system, /proc), which depends on the machine's load: compare trees in the same session, alternated.

`--py-spy PATH` also records the daphne process with that py-spy binary while the sockets open
(`pip install --target /tmp/pyspy py-spy`), into --profile as collapsed stacks (py-spy's raw format).

Usage: .venv/bin/python bench/ws_connect_cost.py [--spectators 500] [--games 10] [--batch 25]
       .venv/bin/python bench/ws_connect_cost.py --py-spy /tmp/pyspy/bin/py-spy --profile /tmp/connect.txt
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import subprocess
import sys
import time

from _django import ROOT, setup_django
from ws_play import cpu_seconds, free_port, prepare, server_processes, start_redis, wait_healthy


def command_counts(client) -> dict[str, int]:
    """Redis's count of each command it has run since its statistics were reset."""
    return {name.removeprefix("cmdstat_"): stats["calls"] for name, stats in client.info("commandstats").items()}


async def open_sockets(url: str, match_ids: list[int], count: int, batch: int) -> list:
    import websockets

    headers = {"Origin": url.replace("ws://", "http://")}
    sockets = []
    for start in range(0, count, batch):
        opened = await asyncio.gather(
            *(
                websockets.connect(f"{url}/ws/matches/{match_ids[n % len(match_ids)]}/", additional_headers=headers)
                for n in range(start, min(count, start + batch))
            )
        )
        for ws in opened:
            assert json.loads(await ws.recv())["type"] == "fragment"
        sockets.extend(opened)
    return sockets


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--spectators", type=int, default=500)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--batch", type=int, default=25)
    parser.add_argument("--py-spy", default="", help="A py-spy binary: profile the daphne process as sockets open.")
    parser.add_argument("--profile", default="connect-profile.txt", help="Where py-spy writes (collapsed stacks).")
    args = parser.parse_args()
    var = setup_django()
    import redis

    match_ids = [match_id for match_id, _ in prepare("connect-four", args.games)]
    server_redis, url = start_redis()
    client = redis.Redis.from_url(url)
    port = free_port()
    limits = f"sockets_per_address={args.spectators + 10},sockets_per_match={args.spectators}"
    env = {"ARENA_VAR_DIR": str(var), "DJANGO_SECRET_KEY": "bench-only", "PATH": "/usr/bin:/bin", "REDIS_URL": url,
           "ARENA_PLAY_LIMITS": limits}  # fmt: skip
    command = [sys.executable, "manage.py", "serve", "--port", str(port), "--processes", "1"]
    log = var / "serve.log"  # the server's errors, if any, for the report below
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log.open("w"))
    try:
        wait_healthy(port)
        # One socket per match first, so that the figures are those of a crowd joining games already watched.
        asyncio.run(open_and_close(f"ws://127.0.0.1:{port}", match_ids, len(match_ids), args.batch))
        pids = server_processes(server.pid)[1:]  # the daphne process (serve itself only waits)
        spy = None
        if args.py_spy:
            spy = subprocess.Popen([args.py_spy, "record", "-p", str(pids[0]), "-f", "raw", "-r", "250", "-o",
                                    args.profile], stdout=subprocess.DEVNULL)  # fmt: skip
            time.sleep(1)  # attached
        figures = asyncio.run(measured(f"ws://127.0.0.1:{port}", match_ids, args.spectators, args.batch, client, pids))
        if spy is not None:
            spy.send_signal(signal.SIGINT)  # py-spy writes its file when interrupted
            spy.wait()
    finally:
        server.terminate()
        server.wait()
        server_redis.terminate()
        server_redis.wait()
    errors = log.read_text().count("Traceback")
    if errors:
        print(f"{errors} tracebacks in the server's log, {log}")
    opened, closed = figures
    for what, (commands, by_command, cpu) in (("open", opened), ("close", closed)):
        per = {name: round(calls / args.spectators, 2) for name, calls in sorted(by_command.items()) if calls}
        print(f"per socket {what}: {commands / args.spectators:.2f} Redis commands {per}; daphne CPU "
              f"{1000 * cpu / args.spectators:.2f} ms")  # fmt: skip


async def open_and_close(url: str, match_ids: list[int], count: int, batch: int) -> None:
    for ws in await open_sockets(url, match_ids, count, batch):
        await ws.close()


async def measured(url: str, match_ids: list[int], count: int, batch: int, client, pids: list[int]) -> tuple:
    """Open `count` sockets and close them: Redis's commands and the daphne process's CPU for each phase."""

    def since(cpu: float) -> tuple[int, dict[str, int], float]:
        counts = {name: calls for name, calls in command_counts(client).items() if name not in IGNORED}
        return sum(counts.values()), counts, sum(map(cpu_seconds, pids)) - cpu

    client.config_resetstat()
    cpu = sum(map(cpu_seconds, pids))
    sockets = await open_sockets(url, match_ids, count, batch)
    await settled(since)
    opened = since(cpu)
    client.config_resetstat()
    cpu = sum(map(cpu_seconds, pids))
    await asyncio.gather(*(ws.close() for ws in sockets))
    await settled(since)
    return opened, since(cpu)


async def settled(since) -> None:
    """Wait until Redis has seen no new command from the server for a second: its side of the sockets is done."""
    last = -1
    while (commands := since(0)[0]) != last:
        last = commands
        await asyncio.sleep(1)


#: This script's own questions to Redis.
IGNORED = {"info", "config|resetstat"}


if __name__ == "__main__":
    main()
