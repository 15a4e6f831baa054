"""Real PostgreSQL and Redis on loopback, started for the scale-out suite (`.ci/run` installs them)."""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from tests.manage_py import ManagePy
from tests.sites import free_port

ROOT = Path(__file__).resolve().parents[2]


def _pg_bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def _as_postgres() -> list[str]:
    """PostgreSQL refuses to run as root: drop to the `postgres` user when we are root."""
    return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


class PostgresServer:
    """A throw-away PostgreSQL cluster on a loopback port; can be stopped and started again (outage tests)."""

    def __init__(self) -> None:
        self.initdb, self.postgres = _pg_bin("initdb"), _pg_bin("postgres")
        self.data = Path(tempfile.mkdtemp(prefix="arena-pg-"))
        if os.geteuid() == 0:
            shutil.chown(self.data, "postgres", "postgres")
        self.port = free_port()
        self.url = f"postgres://arena@127.0.0.1:{self.port}/arena"
        self.process: subprocess.Popen | None = None
        subprocess.run([*_as_postgres(), self.initdb, "-D", str(self.data), "-A", "trust", "-U", "arena"],
                       check=True, capture_output=True)  # fmt: skip

    def start(self) -> None:
        self.process = subprocess.Popen(
            [*_as_postgres(), self.postgres, "-D", str(self.data), "-p", str(self.port), "-k", str(self.data),
             "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        import psycopg

        deadline = time.monotonic() + 60
        while True:
            try:
                with psycopg.connect(f"host=127.0.0.1 port={self.port} user=arena dbname=postgres") as conn:
                    conn.execute("SELECT 1")
                return
            except psycopg.OperationalError:
                assert self.process.poll() is None, "postgres exited during start-up"
                assert time.monotonic() < deadline, "postgres did not start"
                time.sleep(0.3)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()  # "smart" shutdown would wait for clients; SIGTERM to postgres is a fast one
            self.process.wait(timeout=60)


@pytest.fixture(scope="session")
def postgres_server():
    if not (_pg_bin("initdb") and _pg_bin("postgres")):
        pytest.skip("PostgreSQL is not installed (.ci/run installs it)")
    server = PostgresServer()
    server.start()
    import psycopg

    with psycopg.connect(f"host=127.0.0.1 port={server.port} user=arena dbname=postgres", autocommit=True) as conn:
        conn.execute("CREATE DATABASE arena")
    yield server
    server.stop()
    shutil.rmtree(server.data, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_url(postgres_server):
    return postgres_server.url


@pytest.fixture(scope="session")
def redis_url():
    binary = shutil.which("redis-server")
    if not binary:
        pytest.skip("redis-server is not installed (.ci/run installs it)")
    port = free_port()
    server = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    import socket

    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                if sock.recv(16).startswith(b"+PONG"):
                    break
        except OSError:
            assert time.monotonic() < deadline, "redis did not start"
            time.sleep(0.2)
    yield f"redis://127.0.0.1:{port}/0"
    server.terminate()
    server.wait(timeout=30)


def wait_healthy(url: str, what: str) -> str:
    """Wait (up to a minute) until `url`/healthz answers 200; returns `url`."""
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return url
        except OSError:
            pass
        assert time.monotonic() < deadline, f"{what} did not become healthy"
        time.sleep(0.2)


class ScaledSite:
    """Arena processes (daphne, db_worker, manage.py) sharing one PostgreSQL and one Redis."""

    def __init__(self, var: Path, database_url: str, redis_url: str) -> None:
        self.env = {**os.environ, "ARENA_VAR_DIR": str(var), "DJANGO_SECRET_KEY": "scaleout-tests",
                    "ARENA_SEED_MATCHES": "0", "DATABASE_URL": database_url, "REDIS_URL": redis_url}  # fmt: skip
        self.env.pop("DJANGO_SETTINGS_MODULE", None)
        self.processes: list[subprocess.Popen] = []
        self.manage = ManagePy(self.env)

    def python(self, code: str) -> dict:
        """Run Django code in this site's configuration; it prints one JSON object, returned here."""
        return json.loads(self.manage("shell", "-c", code).strip().splitlines()[-1])

    def daphne(self) -> str:
        port = free_port()
        daphne = str(Path(sys.executable).with_name("daphne"))
        self.processes.append(
            subprocess.Popen(
                [daphne, "-b", "127.0.0.1", "-p", str(port), "arena.asgi:application"],
                cwd=ROOT,
                env=self.env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        return wait_healthy(f"http://127.0.0.1:{port}", "daphne")

    def serve(self, processes: int) -> tuple[str, subprocess.Popen]:
        """`manage.py serve --processes N` on a free port: its URL once healthy, and the process."""
        port = free_port()
        command = [sys.executable, "manage.py", "serve", "--port", str(port), "--processes", str(processes)]
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        process = subprocess.Popen(command, cwd=ROOT, env=self.env, **quiet)
        self.processes.append(process)
        return wait_healthy(f"http://127.0.0.1:{port}", "serve"), process

    def worker(self) -> subprocess.Popen:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "worker", "--queue-name", "matches", "--interval", "0.2",
             "--no-startup-delay", "--no-reload"],
            cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        self.processes.append(process)
        return process

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            process.wait(timeout=30)


@pytest.fixture
def scaled_site(tmp_path, postgres_url, redis_url):
    site = ScaledSite(tmp_path, postgres_url, redis_url)
    site.manage("migrate", "--noinput")
    yield site
    site.stop()
    site.manage("flush", "--noinput")
