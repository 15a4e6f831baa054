"""Run a command with the embedded message bus: `manage.py message_bus scripts/serve` is how `make run` starts.

The command and everything it starts get the bus's URL as `REDIS_URL` (arena.management.message_bus); the bus stops
when the command exits. A Ctrl-C reaches the command, which stops its processes; a SIGTERM sent here is passed on.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from arena.management.message_bus import BusError, embedded_bus


class Command(BaseCommand):
    help = "Run COMMAND with the embedded message bus (a Redis server on a Unix socket in var/bus/) as REDIS_URL."

    def add_arguments(self, parser):
        parser.add_argument("command", nargs=argparse.REMAINDER, help="the command to run, with its arguments")

    def handle(self, *, command: list[str], **options) -> None:
        if not command:
            raise CommandError("Name the command to run with the bus, e.g. `manage.py message_bus scripts/serve`.")
        if os.environ.get("REDIS_URL"):
            raise CommandError("REDIS_URL is set: the processes share that Redis; run the command without the bus.")
        try:
            with embedded_bus(settings.VAR_DIR) as url:
                child = subprocess.Popen(command, env={**os.environ, "REDIS_URL": url})
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # the terminal's Ctrl-C reaches the command itself
                signal.signal(signal.SIGTERM, lambda *_: child.terminate())
                status = child.wait()
        except BusError as error:
            raise CommandError(str(error)) from None
        except FileNotFoundError:
            raise CommandError(f"No such command: {command[0]}.") from None
        sys.exit(status)
