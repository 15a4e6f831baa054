"""One message bus for every process `make run` starts: real processes, a real redis-server, a real websocket.

`scripts/serve` starts the embedded bus, then daphne and the workers on it; a match a worker plays reaches a page
open on daphne. The bus lives in a private directory of var/ and leaves nothing running or behind when it stops.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis

from arena.management.message_bus import BusError, bus_url, embedded_bus
from tests.sites import ROOT, Site, free_port, wait_healthy

CREATE_MATCH = """
from arena.models import Agent
from arena.record.services import match_create
bot = Agent.objects.get(slug="tic-tac-toe-lv0")
print(match_create(game="tic-tac-toe", agents=[bot, bot], seed=5).pk)
"""


async def fragment_at(ws, ply: int) -> dict:
    """The first fragment the page receives at `ply` or later (within 60 s)."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 60))
        assert message["type"] != "error", message
        if message["type"] == "fragment" and message["ply"] >= ply:
            return message


def bus_servers(var: Path) -> list[int]:
    """The redis-server processes serving a bus in `var` (a server works in its bus directory)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            serves_var = entry.joinpath("cwd").resolve() == var / "bus"
            if serves_var and entry.joinpath("exe").resolve().name == "redis-server":
                found.append(int(entry.name))
        except OSError:  # gone, or not a process
            continue
    return found


def test_the_bus_is_private_answers_once_and_leaves_nothing_behind(tmp_path):
    with embedded_bus(tmp_path) as url:
        assert url == bus_url(tmp_path)
        assert redis.Redis.from_url(url).ping()
        assert stat.S_IMODE((tmp_path / "bus").stat().st_mode) == 0o700
        assert stat.S_IMODE((tmp_path / "bus" / "redis.sock").stat().st_mode) == 0o700
        with pytest.raises(BusError, match="another Arena runs on this var/"), embedded_bus(tmp_path):
            pass
        assert redis.Redis.from_url(url).ping()  # the refused second bus did not stop the first
    assert not (tmp_path / "bus" / "redis.sock").exists()
    assert bus_servers(tmp_path) == []


def test_a_socket_left_by_a_killed_bus_is_replaced(tmp_path):
    with embedded_bus(tmp_path):
        [server] = bus_servers(tmp_path)
        os.kill(server, signal.SIGKILL)
    (tmp_path / "bus" / "redis.sock").touch()  # as a killed server leaves its socket file
    with embedded_bus(tmp_path) as url:
        assert redis.Redis.from_url(url).ping()


@pytest.mark.slow
def test_make_run_shares_one_bus_so_a_page_hears_the_workers_moves(tmp_path):
    import websockets

    site = Site(tmp_path)
    site.migrate("tic-tac-toe")
    match_id = int(site.manage("shell", "-c", CREATE_MATCH).split()[-1])  # pending: no worker has it yet
    with site.served() as base:

        async def watch() -> dict:
            url = base.replace("http://", "ws://") + f"/ws/matches/{match_id}/"
            async with websockets.connect(url, additional_headers={"Origin": base}) as ws:
                assert (await fragment_at(ws, 0))["ply"] == 0  # a spectator's page, open before the match starts
                await asyncio.to_thread(site.manage, "resume_matches")  # queue it for the worker
                return await fragment_at(ws, 1)

        heard = asyncio.run(watch())
        assert 'data-status="finished"' in heard["html"]  # the worker's moves, heard on daphne's page
        assert len(bus_servers(tmp_path)) == 1
    assert bus_servers(tmp_path) == []
    assert not (tmp_path / "bus" / "redis.sock").exists()


@pytest.mark.slow
def test_serve_with_several_processes_runs_the_bus_for_them_and_stops_it_after_them(tmp_path):
    site = Site(tmp_path)
    site.migrate()
    port = free_port()
    env = {k: v for k, v in site.env.items() if k != "REDIS_URL"}
    serve = subprocess.Popen([sys.executable, "manage.py", "serve", "--port", str(port), "--processes", "2"],
                             cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    daphnes: list[int] = []
    try:
        wait_healthy(f"http://127.0.0.1:{port}", serve)
        assert len(bus_servers(tmp_path)) == 1
        children = [int(pid) for pid in Path(f"/proc/{serve.pid}/task/{serve.pid}/children").read_text().split()]
        daphnes = [pid for pid in children if f"REDIS_URL={bus_url(tmp_path)}".encode() in environment(pid)]
        assert len(daphnes) == 2  # both web processes were handed the bus
        os.kill(daphnes[0], signal.SIGSTOP)  # a daphne that will not stop when asked (SIGTERM stays pending)
    finally:
        serve.send_signal(signal.SIGTERM)
        serve.wait(timeout=180)  # it gives the daphnes STOP_GRACE_S, then kills what is left
    assert bus_servers(tmp_path) == []
    assert not any(Path(f"/proc/{pid}").exists() for pid in daphnes)


def environment(pid: int) -> list[bytes]:
    return Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")


STARTER = """
import sys, time
from pathlib import Path
from arena.management.message_bus import embedded_bus
with embedded_bus(Path(sys.argv[1])):
    print("up", flush=True)
    time.sleep(600)
"""


def test_a_bus_whose_starter_is_killed_outright_stops_too(tmp_path):
    starter = subprocess.Popen(
        [sys.executable, "-c", STARTER, str(tmp_path)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert starter.stdout.readline().strip() == "up"
    assert len(bus_servers(tmp_path)) == 1
    starter.kill()  # SIGKILL: no `finally` runs
    starter.wait()
    starter.stdout.close()
    deadline = time.monotonic() + 30
    while bus_servers(tmp_path):
        assert time.monotonic() < deadline, "the bus outlived the process that started it"
        time.sleep(0.1)
