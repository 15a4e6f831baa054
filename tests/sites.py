"""Whole Arena sites for tests that run real processes: each its own var/ directory and SQLite file, driven by
`manage.py` as `make run` drives it.

`Site.migrate` builds the first site of a kind with `manage.py migrate` (and `seed`), and gives every later one in
the same test process a copy of that database: the same tables and rows, without paying the migrations again.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.manage_py import ManagePy

ROOT = Path(__file__).resolve().parents[1]

#: (games seeded, LLM_PORT) -> a database built by `manage.py` for a site of that kind, in this test process.
_templates: dict[tuple[tuple[str, ...], str], Path] = {}
_TEMPLATES = Path(tempfile.mkdtemp(prefix="arena-site-templates-"))
atexit.register(shutil.rmtree, _TEMPLATES, True)


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_healthy(url: str, process: subprocess.Popen) -> None:
    """Until `url`'s /healthz answers 200 (90 s at most, and only while `process` runs)."""
    deadline = time.monotonic() + 90
    while True:
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        assert process.poll() is None, "the server exited during start-up"
        assert time.monotonic() < deadline, "the server did not become healthy"
        time.sleep(0.2)


def _copy(source: Path, target: Path) -> None:
    """A consistent copy of one SQLite database (its WAL included), as SQLite's backup makes it."""
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    src.close()
    dst.close()


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
        self.manage = ManagePy(self.env)

    @property
    def database(self) -> Path:
        return self.var / "arena.sqlite3"

    def migrate(self, *seed_games: str) -> None:
        """`manage.py migrate`, then `seed --no-demo` with `seed_games` if any; a copy of the first such site's
        database when this process has built one (the seeded agents' model port is part of the kind)."""
        key = (seed_games, self.env.get("LLM_PORT", ""))
        self.var.mkdir(parents=True, exist_ok=True)
        if (template := _templates.get(key)) is not None:
            _copy(template, self.database)
            return
        self.manage("migrate", "--noinput")
        if seed_games:
            self.manage("seed", "--no-demo", *(arg for game in seed_games for arg in ("--game", game)))
        template = _TEMPLATES / f"{len(_templates)}.sqlite3"
        _copy(self.database, template)
        _templates[key] = template

    @contextmanager
    def served(self) -> Iterator[str]:
        """The site as `make run` serves it (`scripts/serve`: its own message bus, daphne, the workers; no local
        model) on a free port: its URL, stopped (SIGTERM, as Ctrl-C does) afterwards."""
        port = free_port()
        env = {**self.env, "PYTHON": sys.executable, "LLM_MODELS": "none", "HOST": "127.0.0.1", "PORT": str(port)}
        env.pop("REDIS_URL", None)
        serve = subprocess.Popen([str(ROOT / "scripts" / "serve")], cwd=ROOT, env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        try:
            wait_healthy(f"http://127.0.0.1:{port}", serve)
            yield f"http://127.0.0.1:{port}"
        finally:
            serve.send_signal(signal.SIGTERM)
            serve.wait(timeout=180)  # daphne takes seconds to stop, many more on a loaded machine

    def worker(self) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "manage.py", "db_worker", "--queue-name", "matches", "--interval", "0.1",
             "--no-startup-delay", "--no-reload"],
            cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip

    def query(self, sql: str) -> list[tuple]:
        with sqlite3.connect(self.database, timeout=30) as db:
            return db.execute(sql).fetchall()

    def status(self, slug: str) -> dict:
        return json.loads(self.manage("tournament", "status", slug, "--json"))

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
