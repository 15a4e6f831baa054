"""Background work run by `manage.py worker` (django.tasks on django-tasks-db): matches and uploaded programs'
builds."""

from __future__ import annotations

from contextvars import ContextVar
from datetime import datetime

from asgiref.sync import sync_to_async
from django.tasks import TaskResultStatus, task

from arena.agents.build import build, digest_of
from arena.models import Match, ProgramBuild
from arena.record.uploads import program_build_finish
from arena.runner.loop import run_match

#: The id a worker's task runner claims its matches under (`manage.py worker` runs several per process, each with
#: its own, so no two of them ever take one match for their own); None: the process's (`default_worker_id`).
runner_id: ContextVar[str | None] = ContextVar("runner_id", default=None)


def enqueue_matches(match_ids: list[int], *, priority: int = 0) -> None:
    """Queue matches for any worker, higher `priority` first; each runs at most once at a time (see match_claim)."""
    task = run_match_task.using(priority=priority) if priority else run_match_task
    for match_id in match_ids:
        task.enqueue(match_id)


#: An outside agent's turn in a person's game: a person is waiting, so it goes ahead of tournaments' matches (0).
PERSON_WAITING_PRIORITY = 50


def match_enqueue_once(match_id: int) -> None:
    """Queue a person's match for any worker, ahead of matches nobody watches, unless a task for it is already
    waiting (a page reconnecting queues it once)."""
    from django_tasks_db.models import DBTaskResult  # the backend's model, read once the apps are loaded

    waiting = DBTaskResult.objects.filter(
        status=TaskResultStatus.READY, task_path=run_match_task.module_path, args_kwargs__args__0=match_id
    )
    if not waiting.exists():
        run_match_task.using(priority=PERSON_WAITING_PRIORITY).enqueue(match_id)


def match_resume_enqueue(*, match_id: int, until: datetime, **_: object) -> None:
    """`match_paused`'s receiver: queue the match for any worker to take up again from `until` (the queue is
    stored: a restart keeps it)."""
    run_match_task.using(run_after=until).enqueue(match_id)


def matches_waiting_in_queue(match_ids: list[int]) -> set[int]:
    """Those of `match_ids` that already have a task waiting for a worker (queued, not yet started).

    A started task is not counted: if its worker died, only a new task brings the match back."""
    from django_tasks_db.models import DBTaskResult  # the backend's model, read once the apps are loaded

    wanted = set(match_ids)
    waiting = DBTaskResult.objects.filter(status=TaskResultStatus.READY, task_path=run_match_task.module_path)
    found = set()
    for args_kwargs in waiting.values_list("args_kwargs", flat=True).iterator(chunk_size=2_000):
        args = args_kwargs.get("args") or []
        if len(args) == 1 and args[0] in wanted:
            found.add(args[0])
    return found


@task(queue_name="matches")
async def run_match_task(match_id: int) -> str:
    """Play a match to its end (or resume it); its tournament schedules what follows when it ends."""
    match = await run_match(match_id, worker=runner_id.get())
    if match is None and (until := await _paused_until(match_id)) is not None:
        # Taken up a little early (the clocks of the pausing and this machine differ): queued again, for then.
        await sync_to_async(match_resume_enqueue)(match_id=match_id, until=until)
        return "skipped: paused"
    return "skipped: held by another worker or already over" if match is None else match.status


async def _paused_until(match_id: int) -> datetime | None:
    """When the match's pause ends, if it is paused."""
    paused = Match.objects.filter(pk=match_id, status=Match.Status.RUNNING).exclude(paused_until=None)
    return await paused.values_list("paused_until", flat=True).afirst()


def program_build_enqueue(build_id: int) -> None:
    """Queue an upload's build for the `matches` worker (which runs outside code), ahead of tournaments: its author
    is waiting on the upload page."""
    build_program_task.using(priority=PERSON_WAITING_PRIORITY).enqueue(build_id)


@task(queue_name="matches")
async def build_program_task(build_id: int) -> str:
    """Build an upload in the sandbox and keep what it made (the agent, or the compiler's messages)."""
    queued = await ProgramBuild.objects.select_related("owner").aget(pk=build_id)
    if queued.built_at is not None:
        return "skipped: already built"
    built = await build(queued.language, queued.source, bytes(queued.archive))
    digest = digest_of(built.artifact) if built.ok else ""
    finished = await sync_to_async(program_build_finish)(
        build=queued, artifact=built.artifact, digest=digest, log=built.log
    )
    return "built" if finished.agent_id else "failed"
