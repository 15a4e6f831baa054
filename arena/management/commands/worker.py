"""django-tasks-db's `db_worker` that runs several matches at once and waits out database outages.

`--max-in-flight N` runs N task runners in one process, each a thread with its own event loop and its own
worker id (`<host>:<pid>/<n>`, what a match's claim records): a model's calls are I/O, so N matches waiting on
their providers cost one interpreter and N database connections, not N processes. The providers' caps
(`max_concurrency` per endpoint) are process-wide and hold across the runners; bots still think on the
runner's shared thread pool. SIGINT/SIGTERM stop every runner taking new tasks and let each finish its match;
a second signal exits at once (the matches left running are resumed by the next worker, see `STALE_AFTER_S`).
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time

from django.core.management.base import CommandError
from django.db import InterfaceError, OperationalError, connections
from django_tasks_db.management.commands.db_worker import Command as DbWorkerCommand
from django_tasks_db.management.commands.db_worker import Worker

from arena.runner.loop import default_worker_id
from arena.runner.tasks import runner_id

logger = logging.getLogger(__name__)

#: Seconds between reconnection attempts while the database is down (then the last value, forever).
RECONNECT_DELAYS_S = (1, 2, 4, 8, 15)
#: Matches one worker process runs at once by default: room for a few model matches on a laptop.
DEFAULT_IN_FLIGHT = 4
#: The most a worker may be asked for: each runner holds a thread, an event loop and a database connection.
MAX_IN_FLIGHT = 256


class Runner(Worker):
    """One of a process's task runners: django-tasks-db's loop under its own worker id, retried through database
    outages; the process's signal handler stops them all."""

    def __init__(self, *, slot: str, **options) -> None:
        super().__init__(**options)
        self.slot = slot

    def configure_signals(self) -> None:  # the process's handler, set once in the main thread
        pass

    def serve(self) -> None:
        runner_id.set(self.slot)  # run_match_task claims its matches under this id
        failures = 0
        while self.running:
            try:
                self.run()
                return  # stopped, or --batch / --max-tasks ran out
            except (OperationalError, InterfaceError) as error:
                delay = RECONNECT_DELAYS_S[min(failures, len(RECONNECT_DELAYS_S) - 1)]
                failures += 1
                logger.warning("database unavailable (%s); reconnecting in %s s", error, delay)
                connections.close_all()
                time.sleep(delay)
            finally:
                connections.close_all()  # this thread's connection


class Command(DbWorkerCommand):
    help = (
        "Run background matches (django-tasks-db's db_worker), several at once (--max-in-flight), reconnecting when "
        "the database goes away."
    )

    def add_arguments(self, parser) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--max-in-flight",
            type=int,
            default=int(os.environ.get("ARENA_WORKER_IN_FLIGHT") or DEFAULT_IN_FLIGHT),
            help=f"Matches run at once in this process: $ARENA_WORKER_IN_FLIGHT or {DEFAULT_IN_FLIGHT} "
            f"(at most {MAX_IN_FLIGHT}).",
        )

    def handle(self, *args, max_in_flight: int, verbosity: int, **options) -> None:
        if not 1 <= max_in_flight <= MAX_IN_FLIGHT:
            raise CommandError(f"--max-in-flight must be from 1 to {MAX_IN_FLIGHT}.")
        self.configure_logging(verbosity)
        queue_names = options["queue_name"].split(",")
        excluded = options["exclude_queues"].split(",") if options["exclude_queues"] else []
        prefix = default_worker_id()
        runners = [
            Runner(
                slot=f"{prefix}/{n}",
                queue_names=queue_names,
                excluded_queue_names=excluded,
                interval=options["interval"],
                batch=options["batch"],
                backend_name=options["backend_name"],
                startup_delay=options["startup_delay"],
                max_tasks=options["max_tasks"],
                worker_id=f"{options['worker_id']}-{n}"[:64],
            )
            for n in range(max_in_flight)
        ]
        stopping = threading.Event()

        def stop(signum, frame) -> None:
            if stopping.is_set():
                logger.warning("Received %s again: exiting now.", signal.strsignal(signum))
                os._exit(1)
            name = signal.strsignal(signum)
            logger.warning("Received %s: finishing the matches in flight (again to exit now).", name)
            stopping.set()
            for runner in runners:
                runner.running = False

        for name in ("SIGINT", "SIGTERM", "SIGQUIT"):
            if hasattr(signal, name):
                signal.signal(getattr(signal, name), stop)
        threads = [threading.Thread(target=r.serve, name=f"arena-runner-{n}") for n, r in enumerate(runners)]
        for thread in threads:
            thread.start()
        for thread in threads:
            while thread.is_alive():
                thread.join(0.5)  # wakes for signals
