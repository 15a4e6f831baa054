"""Serve Arena with daphne: one process, or several sharing one listening socket (one per core).

Python runs one thread of Django code at a time per process, so a machine's other cores serve
websockets only through more processes. Each has its own listening socket on the same port
(SO_REUSEPORT), so the kernel spreads new connections evenly over them (one shared socket lets
whichever process wakes first take a burst of connections, and that process then serves most
games); they must share a channel layer (Redis), so that a move made through one process
reaches every page watching the match through another.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

DAPHNE = str(Path(sys.executable).with_name("daphne"))
#: Seconds a websocket may take from its request to the application's accept before daphne drops it
#: (daphne's own default is 5): a crowd arriving at once waits its turn instead of failing and retrying.
HANDSHAKE_TIMEOUT_S = 20
APP = "arena.asgi:application"


def shared_channel_layer() -> bool:
    return "InMemory" not in settings.CHANNEL_LAYERS["default"]["BACKEND"]


class Command(BaseCommand):
    help = "Serve HTTP and websockets with daphne, in --processes processes on one port."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument(
            "--processes", type=int, default=1, help="daphne processes; more than one needs REDIS_URL set."
        )

    def handle(self, *, host: str, port: int, processes: int, **options) -> None:
        if processes < 1:
            raise CommandError("--processes must be at least 1.")
        if processes > 1 and not shared_channel_layer():
            raise CommandError(
                "Several web processes need a shared channel layer: set REDIS_URL (see docs/operations.md)."
            )
        try:
            # A plain bind first: a port another server holds (even another `serve`) is an error,
            # not a port to share.
            socket.create_server((host, port)).close()
            listeners = [socket.create_server((host, port), backlog=1024, reuse_port=True) for _ in range(processes)]
        except OSError as error:
            raise CommandError(f"Cannot listen on {host}:{port}: {error.strerror}.") from None
        children = [
            subprocess.Popen(
                [DAPHNE, "--fd", str(sock.fileno()), "--websocket_connect_timeout", str(HANDSHAKE_TIMEOUT_S), APP],
                pass_fds=[sock.fileno()],
            )
            for sock in listeners
        ]
        for sock in listeners:
            sock.close()  # the children hold them now
        self.stdout.write(f"Arena is serving http://{host}:{port}/ with {processes} daphne process(es).")
        stop = lambda *_: [child.terminate() for child in children if child.poll() is None]  # noqa: E731
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        # If one process dies, the others are stopped too: a supervisor (systemd, make run) restarts the set.
        while all(child.poll() is None for child in children):
            time.sleep(0.5)
        failed = [child.returncode for child in children if child.returncode is not None and child.returncode > 0]
        stop()
        for child in children:
            child.wait()
        if failed:
            raise CommandError(f"A daphne process exited with status {failed[0]}.")
