"""A db_worker killed with SIGKILL mid-tournament: restart it and nothing is lost or doubled.

Real processes on a real SQLite file: manage.py commands and `db_worker`, as `make run` starts them.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
AGENTS = ["tic-tac-toe-lv0", "tic-tac-toe-lv1", "tic-tac-toe-lv2", "tic-tac-toe-lv3", "tic-tac-toe-lv4"]

pytestmark = pytest.mark.slow


class Site:
    """One Arena instance in its own var/ directory."""

    def __init__(self, var: Path) -> None:
        self.var = var
        self.env = {
            **os.environ,
            "ARENA_VAR_DIR": str(var),
            "DJANGO_SECRET_KEY": "test-only",
            "ARENA_SEED_MATCHES": "0",
        }  # only the tournament under test in the queue
        self.env.pop("DJANGO_SETTINGS_MODULE", None)

    def manage(self, *args: str) -> str:
        result = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=300
        )
        assert result.returncode == 0, result.stderr
        return result.stdout

    def worker(self) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "manage.py", "db_worker", "--queue-name", "matches", "--interval", "0.1",
             "--no-startup-delay", "--no-reload"],
            cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip

    def query(self, sql: str) -> list[tuple]:
        with sqlite3.connect(self.var / "arena.sqlite3", timeout=30) as db:
            return db.execute(sql).fetchall()

    def status(self, slug: str) -> dict:
        return json.loads(self.manage("tournament", "status", slug, "--json"))

    def prepare(self) -> None:
        self.manage("migrate", "--noinput")
        self.manage("seed", "--no-demo", "--game", "tic-tac-toe")
        # Fixed seeds, so the killed site replays the reference's deals.
        self.manage(
            "tournament", "create", "--slug", "rr", "--format", "round_robin", "--games", "tic-tac-toe",
            "--agents", *AGENTS, "--games-per-seat", "4", "--first-seed", "0",
        )  # fmt: skip

    def results(self) -> dict[tuple, tuple]:
        """Per match (seed, seat agents): its moves and scores."""
        rows = self.query(
            """SELECT m.id, m.seed, m.scores, m.ply, group_concat(a.slug, ',')
               FROM arena_match m JOIN arena_seat s ON s.match_id = m.id
               JOIN arena_agentversion v ON v.id = s.agent_version_id JOIN arena_agent a ON a.id = v.agent_id
               GROUP BY m.id ORDER BY m.id"""
        )
        out = {}
        for match_id, seed, scores, ply, seats in rows:
            moves = [
                r[0]
                for r in self.query(f"SELECT action_text FROM arena_decision WHERE match_id={match_id} ORDER BY ply")
            ]
            assert len(moves) == ply, f"match {match_id}: {len(moves)} decisions for {ply} plies"
            out[(seed, seats)] = (tuple(moves), scores)
        return out


def wait_for(predicate, timeout: float = 240.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_killed_worker_resumes_with_identical_results(tmp_path):
    reference = Site(tmp_path / "reference")
    reference.prepare()
    reference.manage("tournament", "run", "rr")
    expected = reference.results()
    assert len(expected) == 10 * 8

    site = Site(tmp_path / "killed")
    site.prepare()
    site.manage("tournament", "run", "rr", "--enqueue")
    worker = site.worker()
    try:
        wait_for(lambda: site.query("SELECT count(*) FROM arena_match WHERE status='finished'")[0][0] >= 5)
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.wait()
    done_at_kill = site.query("SELECT count(*) FROM arena_match WHERE status='finished'")[0][0]
    assert done_at_kill < len(expected), "the worker finished everything before it could be killed"

    assert "enqueued" in site.manage("resume_matches", "--stale-after", "0")
    worker = site.worker()
    try:
        site.manage("tournament", "status", "rr", "--watch")  # one process following it to its end, not one a poll
    finally:
        worker.terminate()
        worker.wait(timeout=30)

    status = site.status("rr")
    assert (status["done"], status["aborted"]) == (len(expected), 0)
    assert site.results() == expected
    # No decision was stored twice: one row per (match, ply), plies contiguous from 0.
    (duplicates,) = site.query(
        "SELECT count(*) FROM (SELECT match_id, ply FROM arena_decision GROUP BY match_id, ply HAVING count(*) > 1)"
    )
    assert duplicates == (0,)
