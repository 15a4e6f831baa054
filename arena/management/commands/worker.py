"""django-tasks-db's `db_worker` that runs several matches at once and waits out database outages.

`--max-in-flight N` runs N task runners in one process, all on one event loop, each under its own worker id
(`<host>:<pid>/<n>`, what a match's claim records): a model's calls are I/O, so N matches waiting on their
providers cost one interpreter, one thread and one database connection (the loop's database work runs on one
thread, one call at a time), not N of each. The providers' caps (`max_concurrency` per endpoint) hold across the
runners; bots still think on the runner's shared thread pool, and a task written as a plain function (a ratings
refit) runs on a thread of its own. SIGINT/SIGTERM stop every runner taking new tasks and let each finish its
match; a second signal exits at once (the matches left running are resumed by the next worker, see
`STALE_AFTER_S`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import signal
import time
from inspect import iscoroutinefunction

from asgiref.sync import sync_to_async
from django.core.exceptions import SuspiciousOperation
from django.core.management.base import CommandError
from django.db import InterfaceError, OperationalError, close_old_connections, connections
from django_tasks_db.compat import TASKS_LOGGER, TaskContext, task_finished, task_started
from django_tasks_db.management.commands.db_worker import Command as DbWorkerCommand
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult
from django_tasks_db.utils import exclusive_transaction, is_locked_database_exception

from arena.agents import parked
from arena.agents.llm import client as llm_client
from arena.runner.loop import default_worker_id
from arena.runner.tasks import runner_id

logger = logging.getLogger(__name__)

#: Seconds between reconnection attempts while the database is down (then the last value, forever).
RECONNECT_DELAYS_S = (1, 2, 4, 8, 15)
#: Matches one worker process runs at once by default: room for a few model matches on a laptop.
DEFAULT_IN_FLIGHT = 4
#: The most a worker may be asked for: each runner holds a match's state and its calls in flight.
MAX_IN_FLIGHT = 256


class QueueWatch:
    """What a process's runners know of the queue: one of them reads it at a time, and while the last read that
    found it empty is younger than the interval the others wait instead of reading it again. An idle process then
    reads the queue about once per interval, not once per runner (each read is a write transaction)."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.empty_at = float("-inf")


class Runner(Worker):
    """One of a process's task runners: django-tasks-db's loop as a coroutine under its own worker id, retried
    through database outages; the process's signal handler stops them all."""

    def __init__(self, *, slot: str, queue: QueueWatch, **options) -> None:
        super().__init__(**options)
        self.slot = slot
        self.queue = queue

    def configure_signals(self) -> None:  # the process's handler, set once in the main thread
        pass

    def claim(self) -> tuple[DBTaskResult | None, bool]:
        """The next ready task, claimed under this runner's id (None: none ready), and whether the queue could be
        read (False: the database was locked)."""
        close_old_connections()
        tasks = DBTaskResult.objects.ready().filter(backend_name=self.backend_name)
        if not self.process_all_queues:
            tasks = tasks.filter(queue_name__in=self.queue_names)
        if self.excluded_queue_names:
            tasks = tasks.exclude(queue_name__in=self.excluded_queue_names)
        with exclusive_transaction(tasks.db):
            try:
                task_result = tasks.get_locked()
                if task_result is not None:
                    task_result.claim(self.worker_id)
                return task_result, True
            except OperationalError as error:
                if is_locked_database_exception(error):
                    return None, False
                raise

    async def next_task(self) -> tuple[DBTaskResult | None, bool]:
        """`claim`'s answer, or (None, True) while another runner found the queue empty less than an interval ago."""
        async with self.queue.lock:
            if time.monotonic() - self.queue.empty_at < self.interval:
                return None, True
            task_result, read = await sync_to_async(self.claim)()
            if read and task_result is None:
                self.queue.empty_at = time.monotonic()
            return task_result, read

    async def serve(self) -> None:
        runner_id.set(self.slot)  # run_match_task claims its matches under this id
        if self.startup_delay and self.interval:
            await asyncio.sleep(random.random())  # no thundering herd of workers
        failures = 0
        unfinished: DBTaskResult | None = None  # claimed, and not recorded done when the database went away
        while self.running:
            try:
                if unfinished is None:
                    task_result, read = await self.next_task()
                else:
                    task_result, read = unfinished, True
                if task_result is not None:
                    # Until its end is recorded, an outage leaves the task to this runner (under the same id, which
                    # holds its match): run again once the database answers, as every match task may be.
                    unfinished = task_result
                    await self.run_task_async(task_result)
                    unfinished = None
                failures = 0
            except (OperationalError, InterfaceError) as error:
                delay = RECONNECT_DELAYS_S[min(failures, len(RECONNECT_DELAYS_S) - 1)]
                failures += 1
                logger.warning("database unavailable (%s); reconnecting in %s s", error, delay)
                await sync_to_async(connections.close_all)()
                await asyncio.sleep(delay)
                continue
            if self.batch and read and task_result is None:
                return  # --batch: the queue is empty
            if self.max_tasks is not None and self._run_tasks >= self.max_tasks:
                return
            if self.running and task_result is None:
                await asyncio.sleep(self.interval)

    async def run_task_async(self, db_task_result: DBTaskResult) -> None:
        """`Worker.run_task` on the loop: an async task (a match) is awaited here beside the others; a plain
        function, or a task that cannot be loaded (`Worker.run_task` records why), runs whole on a thread of its
        own, with its own database connection."""
        try:
            task = db_task_result.task
        except (ImportError, SuspiciousOperation):
            task = None
        if task is None or not iscoroutinefunction(task.func):
            await sync_to_async(self._run_apart, thread_sensitive=False)(db_task_result)
            return
        sender = type(task.get_backend())
        try:
            task_result = db_task_result.task_result
            task_started.send(sender=sender, task_result=task_result)
            arguments = (TaskContext(task_result=task_result),) if task.takes_context else ()
            value = await task.acall(*arguments, *task_result.args, **task_result.kwargs)
            await sync_to_async(db_task_result.set_successful)(value)
            task_finished.send(sender=sender, task_result=db_task_result.task_result)
        except (OperationalError, InterfaceError):
            raise  # the database went away, not the task: `serve` runs it again once the database is back
        except Exception as error:
            await sync_to_async(db_task_result.set_failed)(error)
            task_finished.send(sender=sender, task_result=db_task_result.task_result)
        finally:
            self._run_tasks += 1

    def _run_apart(self, db_task_result: DBTaskResult) -> None:
        try:
            self.run_task(db_task_result)
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

    def configure_logging(self, verbosity: int) -> None:
        """Each task's start and end (two lines a match, thousands on a first run) at `-v 2` and up; by default only
        warnings and failures, which those lines would bury."""
        super().configure_logging(verbosity)
        if verbosity == 1:
            for name in (TASKS_LOGGER, "django_tasks_db"):
                logging.getLogger(name).setLevel(logging.WARNING)

    def handle(self, *args, max_in_flight: int, verbosity: int, **options) -> None:
        if not 1 <= max_in_flight <= MAX_IN_FLIGHT:
            raise CommandError(f"--max-in-flight must be from 1 to {MAX_IN_FLIGHT}.")
        self.configure_logging(verbosity)
        queue_names = options["queue_name"].split(",")
        excluded = options["exclude_queues"].split(",") if options["exclude_queues"] else []
        prefix = default_worker_id()
        queue = QueueWatch()
        runners = [
            Runner(
                slot=f"{prefix}/{n}",
                queue=queue,
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
        stopping = False

        def stop(signum, frame) -> None:
            nonlocal stopping
            if stopping:
                logger.warning("Received %s again: exiting now.", signal.strsignal(signum))
                os._exit(1)
            name = signal.strsignal(signum)
            logger.warning("Received %s: finishing the matches in flight (again to exit now).", name)
            stopping = True
            for runner in runners:
                runner.running = False

        for name in ("SIGINT", "SIGTERM", "SIGQUIT"):
            if hasattr(signal, name):
                signal.signal(getattr(signal, name), stop)
        llm_client.load()  # before the loop starts: its runners' first model calls would wait for it
        asyncio.run(_serve(runners))


async def _serve(runners: list[Runner]) -> None:
    try:
        await asyncio.gather(*(runner.serve() for runner in runners))
    finally:
        parked.stop_all()  # kept-running programs waiting out a person's turn stop with the worker
        await sync_to_async(connections.close_all)()  # the loop's database thread's connection
