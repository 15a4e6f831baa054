"""Serve Arena with daphne: one process, or several sharing one listening socket (one per core).

Python runs one thread of Django code at a time per process, so a machine's other cores serve
websockets only through more processes. Each has its own listening socket on the same port
(SO_REUSEPORT), so the kernel spreads new connections evenly over them (one shared socket lets
whichever process wakes first take a burst of connections, and that process then serves most
games); they share one channel layer, so that a move made through one process reaches every page
watching the match through another: Redis at `REDIS_URL`, else the embedded message bus this command
runs for as long as they do (arena.management.message_bus).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from arena.management.message_bus import BusError, embedded_bus

DAPHNE = str(Path(sys.executable).with_name("daphne"))
#: Seconds a websocket may take from its request to the application's accept before daphne drops it
#: (daphne's own default is 5): a crowd arriving at once waits its turn instead of failing and retrying.
HANDSHAKE_TIMEOUT_S = 20
APP = "arena.asgi:application"
#: Seconds a daphne has to stop after SIGTERM before it is killed: one that hangs in its shutdown must not keep
#: the set (and the message bus it shares) running.
STOP_GRACE_S = 30


def shared_channel_layer() -> bool:
    return "InMemory" not in settings.CHANNEL_LAYERS["default"]["BACKEND"]


class Command(BaseCommand):
    help = "Serve HTTP and websockets with daphne, in --processes processes on one port."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument(
            "--processes",
            type=int,
            default=1,
            help="daphne processes; more than one share REDIS_URL, or the embedded message bus without it.",
        )

    def handle(self, *, host: str, port: int, processes: int, **options) -> None:
        if processes < 1:
            raise CommandError("--processes must be at least 1.")
        try:
            # A plain bind first: a port another server holds (even another `serve`) is an error,
            # not a port to share.
            socket.create_server((host, port)).close()
            listeners = [socket.create_server((host, port), backlog=1024, reuse_port=True) for _ in range(processes)]
        except OSError as error:
            raise CommandError(f"Cannot listen on {host}:{port}: {error.strerror}.") from None
        with contextlib.ExitStack() as stack:
            env = dict(os.environ)
            if processes > 1 and not shared_channel_layer():
                try:
                    env["REDIS_URL"] = stack.enter_context(embedded_bus(settings.VAR_DIR))
                except BusError as error:
                    raise CommandError(str(error)) from None
            self.serve(listeners, env, host, port)

    def serve(self, listeners: list[socket.socket], env: dict[str, str], host: str, port: int) -> None:
        """Run a daphne on each listening socket until one exits; then stop the others."""
        processes = len(listeners)
        children = [
            subprocess.Popen(
                [DAPHNE, "--fd", str(sock.fileno()), "--websocket_connect_timeout", str(HANDSHAKE_TIMEOUT_S), APP],
                pass_fds=[sock.fileno()],
                env=env,
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
        deadline = time.monotonic() + STOP_GRACE_S
        for child in children:
            try:
                child.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        if failed:
            raise CommandError(f"A daphne process exited with status {failed[0]}.")
