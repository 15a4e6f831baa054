"""A person's game against an outside agent: the agent is called by a worker, never by the web process.

Real processes on a real SQLite file: daphne run under the embedded message bus (`manage.py message_bus`), a
remote agent's HTTP server on loopback, the person's page as a real websocket client, then a `manage.py worker`.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from arena.management.message_bus import bus_url
from tests.arena.agents.test_remote_agent import SECRET, AgentServer
from tests.arena.test_message_bus import fragment_at
from tests.sites import ROOT, Site, free_port, wait_healthy

pytestmark = pytest.mark.slow

SETUP_GAME = """
import json
from django.contrib.sessions.backends.db import SessionStore
from arena.models import Agent
from arena.record.people import guest_agent_create, person_match_create
guest = guest_agent_create(nickname="Pat")
session = SessionStore(); session["guest_agent"] = guest.slug; session.save()
match = person_match_create(person=guest, opponent=Agent.objects.get(slug="remote"), game="tic-tac-toe", seat=0)
print(json.dumps({"match": match.pk, "cookie": f"sessionid={session.session_key}"}))
"""


def test_a_remote_agents_turn_is_played_by_a_worker_and_the_page_hears_it(tmp_path):
    import websockets

    agent = AgentServer()
    site = Site(tmp_path)
    site.env["ARENA_TEST_AGENT_SECRET"] = SECRET
    site.migrate()
    site.manage("agents", "add", "--slug", "remote", "--kind", "remote", "--url", agent.url,
                "--secret-env", "ARENA_TEST_AGENT_SECRET")  # fmt: skip
    setup = json.loads(site.manage("shell", "-c", SETUP_GAME).strip().splitlines()[-1])
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    daphne = str(Path(sys.executable).with_name("daphne"))
    web = subprocess.Popen(
        [sys.executable, "manage.py", "message_bus", daphne, "-b", "127.0.0.1", "-p", str(port),
         "arena.asgi:application"],
        cwd=ROOT, env=site.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        wait_healthy(base, web)

        async def play() -> None:
            url = base.replace("http://", "ws://") + f"/ws/matches/{setup['match']}/"
            headers = {"Cookie": setup["cookie"], "Origin": base}
            async with websockets.connect(url, additional_headers=headers) as ws:
                await fragment_at(ws, 0)
                await ws.send(json.dumps({"type": "move", "move": "a1", "ply": 0}))
                await fragment_at(ws, 1)  # the person's own move, drawn at once
                await asyncio.sleep(3)  # time enough for a reply the web process would have asked for
                assert agent.bodies == [], "the web process called the outside agent"
                async with websockets.connect(url, additional_headers=headers) as again:  # the page reloaded
                    await fragment_at(again, 1)
                    await asyncio.sleep(1)  # time enough for its page to queue the match, were it to
                queued = site.query("SELECT args_kwargs FROM django_tasks_database_dbtaskresult WHERE status='READY'")
                assert [json.loads(row[0])["args"] for row in queued] == [[setup["match"]]]  # queued once

                worker = await asyncio.to_thread(
                    subprocess.run,
                    [sys.executable, "manage.py", "worker", "--queue-name", "matches", "--batch", "--interval", "0.1",
                     "--no-startup-delay"],
                    cwd=ROOT, env={**site.env, "REDIS_URL": bus_url(site.var)}, capture_output=True, text=True,
                    timeout=300,
                )  # fmt: skip
                assert worker.returncode == 0, worker.stderr
                assert [body["ply"] for body in agent.bodies] == [1]  # the worker asked the agent, once
                replied = await fragment_at(ws, 2)  # the page hears the worker's move through the bus
                assert replied["ply"] == 2

        asyncio.run(play())
        decisions = site.query(f"SELECT ply, seat FROM arena_decision WHERE match_id={setup['match']} ORDER BY ply")
        assert decisions == [(0, 0), (1, 1)]
    finally:
        web.terminate()
        web.wait(timeout=30)
        agent.close()
    assert not (site.var / "bus" / "redis.sock").exists()  # the bus stopped with the command it served
