"""Scale-out for real: two daphne processes sharing Redis; two workers sharing PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.arena.test_worker_resume import AGENTS, TournamentSite
from tests.scaleout.conftest import ROOT

pytestmark = [pytest.mark.scaleout, pytest.mark.slow]

SETUP_GAME = """
import json
from django.contrib.sessions.backends.db import SessionStore
from arena.models import Agent
from arena.record.people import guest_agent_create, person_match_create
guest = guest_agent_create(nickname="Pat")
session = SessionStore(); session["guest_agent"] = guest.slug; session.save()
bot = Agent.objects.get(slug="tic-tac-toe-lv0")
match = person_match_create(person=guest, opponent=bot, game="tic-tac-toe", seat=0)
print(json.dumps({"match": match.pk, "cookie": f"sessionid={session.session_key}"}))
"""


async def fragments(ws):
    """Fragments of a started match, as they arrive."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 20))
        if message["type"] == "fragment" and 'data-status="pending"' not in message["html"]:
            yield message


async def fragments_until(ws, ply: int):
    """A started match's fragments, up to the first at `ply` or later."""
    async for message in fragments(ws):
        yield message
        if message["ply"] >= ply:
            return


async def until(ws, predicate):
    async for message in fragments(ws):
        if predicate(message):
            return message
    raise AssertionError("connection closed")


def test_a_game_served_by_two_daphnes_stays_in_sync(scaled_site):
    import redis.asyncio
    import websockets

    scaled_site.manage("seed", "--no-demo", "--game", "tic-tac-toe")
    setup = scaled_site.python(SETUP_GAME)
    first, second = scaled_site.daphne(), scaled_site.daphne()

    async def play() -> None:
        server = redis.asyncio.Redis.from_url(scaled_site.env["REDIS_URL"])

        def connect(base: str):
            url = base.replace("http://", "ws://") + f"/ws/matches/{setup['match']}/"
            return websockets.connect(url, additional_headers={"Cookie": setup["cookie"], "Origin": base})

        async with connect(first) as ws_a, connect(second) as ws_b:
            watchers = [await websockets.connect(base.replace("http://", "ws://") + f"/ws/matches/{setup['match']}/",
                                                 additional_headers={"Origin": base})
                        for base in (first, second, first, second)]  # fmt: skip
            await until(ws_a, lambda m: "Your move." in m["html"])
            await until(ws_b, lambda m: "Your move." in m["html"])
            # Three pages in each process, one subscription to the match per process (and one channel each).
            assert await server.pubsub_numsub(f"asgi__group__match-{setup['match']}") == [
                (f"asgi__group__match-{setup['match']}".encode(), 2)
            ]
            assert len(await server.pubsub_channels("asgispecific.*")) == 2
            await ws_a.send(json.dumps({"type": "move", "move": "b2", "ply": 0}))
            seen = await until(ws_b, lambda m: m["ply"] >= 2)  # our move and the bot's, through the other server
            assert "<li>b2</li>" in seen["html"]
            free = json.loads(seen["html"].split('type="application/json">')[1].split("</script>")[0])[0]["text"]
            await ws_b.send(json.dumps({"type": "move", "move": free, "ply": seen["ply"]}))
            back = await until(ws_a, lambda m: m["ply"] >= 4)
            assert f"<li>{free}</li>" in back["html"]
            for watcher in watchers:  # every update once, in order, wherever the move was made
                plies = [message["ply"] async for message in fragments_until(watcher, 4)]
                assert plies == sorted(set(plies))
                assert plies[-1] == 4
                await watcher.close()
        await server.aclose()

    # Run the clients on their own loop in a thread: other suites (Playwright) may own this thread's loop.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, play()).result()


CATCH_UP_WHILE_PLAYING = """
import json, time
from arena.models import Match
from ratings.record.services import cells_catch_up
counted, deadline = 0, time.monotonic() + 300
while time.monotonic() < deadline and Match.objects.exclude(status=Match.Status.FINISHED).exists():
    counted += cells_catch_up()
print(json.dumps({"counted": counted}))
"""


def test_two_workers_on_postgresql_run_every_match_exactly_once(scaled_site, tmp_path):
    reference = TournamentSite(tmp_path / "reference")
    reference.prepare()
    reference.manage("tournament", "run", "rr")
    expected = reference.results()

    scaled_site.manage("seed", "--no-demo", "--game", "tic-tac-toe")
    # The reference's fixed seeds, so both sites play the same deals.
    scaled_site.manage(
        "tournament", "create", "--slug", "rr", "--format", "round_robin", "--games", "tic-tac-toe",
        "--agents", *AGENTS, "--games-per-seat", "4", "--first-seed", "0",
    )  # fmt: skip
    scaled_site.manage("tournament", "run", "rr", "--enqueue")
    scaled_site.worker()
    scaled_site.worker()
    # A third process catches the cells up all the while, racing the receivers for the same matches.
    with ThreadPoolExecutor(1) as pool:
        catching_up = pool.submit(scaled_site.python, CATCH_UP_WHILE_PLAYING)
        scaled_site.manage("tournament", "status", "rr", "--watch")  # follows it in one process to its end
        catching_up.result()  # no error: a match a receiver counted meanwhile is skipped, not inserted twice

    facts = scaled_site.python(
        """
import json
from django.db.models import Count, Sum
from django_tasks_db.models import DBTaskResult
from arena.models import Decision, Match
from ratings.record.models import CountedMatch, RatingCell, RatingCount
tasks = list(DBTaskResult.objects.filter(task_path__endswith="run_match_task")
             .values_list("args_kwargs", "status", "worker_ids", "return_value"))
runs = {}
for args, status, workers, value in tasks:
    runs.setdefault(args["args"][0], []).append((status, workers, value))
results = {}
for m in Match.objects.prefetch_related("seats__agent_version__agent"):
    seats = ",".join(s.agent_version.agent.slug for s in m.seats.order_by("index"))
    moves = list(m.decisions.order_by("ply").values_list("action_text", flat=True))
    results[f"{m.seed}|{seats}"] = [moves, m.scores, m.ply]
doubles = Decision.objects.values("match", "ply").annotate(n=Count("pk")).filter(n__gt=1).count()
cells = [CountedMatch.objects.count(), RatingCount.objects.aggregate(n=Sum("matches"))["n"],
         RatingCell.objects.aggregate(w=Sum("weight"))["w"]]
print(json.dumps({"runs": runs, "results": results, "doubles": doubles, "cells": cells}))
"""
    )
    assert facts["doubles"] == 0
    # Both workers' match_finished receivers added to the same rating cells at once: every match counted once.
    assert facts["cells"] == [80, 80, 80.0]
    assert len(facts["runs"]) == len(expected) == 80
    workers = set()
    for match_id, runs in facts["runs"].items():
        finished = [run for run in runs if run[2] == "finished"]
        assert len(finished) == 1, f"match {match_id} ran {len(finished)} times"
        workers.update(finished[0][1])
    # A worker process runs several task runners, each "<process's worker id>-<n>".
    assert len({worker.rpartition("-")[0] for worker in workers}) == 2, "both workers should have taken matches"
    for (seed, seats), (moves, scores) in expected.items():
        got_moves, got_scores, ply = facts["results"][f"{seed}|{seats}"]
        assert (tuple(got_moves), json.dumps(got_scores)) == (moves, json.dumps(json.loads(scores))), (seed, seats)
        assert len(got_moves) == ply


def test_a_database_outage_gives_clear_pages_and_loses_nothing(scaled_site, postgres_server, tmp_path):
    import urllib.error
    import urllib.request

    scaled_site.manage("seed", "--no-demo", "--game", "tic-tac-toe")
    scaled_site.manage(
        "tournament", "create", "--slug", "outage", "--format", "round_robin", "--games", "tic-tac-toe",
        "--agents", *AGENTS, "--games-per-seat", "8",
    )  # fmt: skip
    web = scaled_site.daphne()
    scaled_site.manage("tournament", "run", "outage", "--enqueue")
    scaled_site.worker()

    def finished() -> int:
        return json.loads(scaled_site.manage("tournament", "status", "outage", "--json"))["done"]

    deadline = time.monotonic() + 120
    while finished() < 10:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    postgres_server.stop()
    try:
        for path in ("/matches/", "/healthz"):
            with pytest.raises(urllib.error.HTTPError) as failure:
                urllib.request.urlopen(f"{web}{path}", timeout=30)
            assert failure.value.code == 503
            body = failure.value.read().decode()
            assert "briefly unavailable" in body or '"database": "error' in body
        time.sleep(3)
    finally:
        postgres_server.start()
    status = json.loads(scaled_site.manage("tournament", "status", "outage", "--watch", "--json"))
    assert (status["done"], status["aborted"]) == (160, 0)
    scaled_site.manage("verify_replays")  # every stored match still replays to its stored result


def test_serve_runs_several_daphnes_on_one_port_and_stops_them_all(scaled_site):
    import redis
    import websockets

    scaled_site.manage("seed", "--no-demo", "--game", "tic-tac-toe")
    setup = scaled_site.python(SETUP_GAME)
    base, serve = scaled_site.serve(processes=3)
    port = base.rsplit(":", 1)[1]
    try:
        for _ in range(5):  # health checks ping through the channel layer and leave no subscription behind
            assert urllib.request.urlopen(f"{base}/healthz", timeout=5).status == 200
        assert redis.Redis.from_url(scaled_site.env["REDIS_URL"]).pubsub_channels("*healthz*") == []
        children = [int(pid) for pid in Path(f"/proc/{serve.pid}/task/{serve.pid}/children").read_text().split()]
        second = subprocess.run([sys.executable, "manage.py", "serve", "--port", port], cwd=ROOT,
                                env=scaled_site.env, capture_output=True, text=True, timeout=120)  # fmt: skip
        assert second.returncode != 0  # a port already served is not shared with another server
        assert f"Cannot listen on 127.0.0.1:{port}" in second.stderr
        assert len(children) == 3
        assert all("--fd" in Path(f"/proc/{pid}/cmdline").read_text() for pid in children)

        async def play() -> None:
            url = f"ws://127.0.0.1:{port}/ws/matches/{setup['match']}/"
            headers = {"Cookie": setup["cookie"], "Origin": base}
            sockets = [await websockets.connect(url, additional_headers=headers) for _ in range(6)]
            try:
                for ws in sockets:
                    await until(ws, lambda m: "Your move." in m["html"])
                await sockets[0].send(json.dumps({"type": "move", "move": "b2", "ply": 0}))
                for ws in sockets:  # wherever each page was accepted, it sees the move and the bot's reply
                    seen = await until(ws, lambda m: m["ply"] >= 2)
                    assert "<li>b2</li>" in seen["html"]
            finally:
                for ws in sockets:
                    await ws.close()

        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, play()).result()
    finally:
        serve.terminate()
        assert serve.wait(timeout=60) == 0
    assert not any(Path(f"/proc/{pid}").exists() for pid in children)
