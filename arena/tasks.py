"""Background work run by `manage.py db_worker` (django.tasks on django-tasks-db)."""

from __future__ import annotations

from django.tasks import task

from arena.runner import run_match


@task(queue_name="matches")
async def run_match_task(match_id: int) -> str:
    """Play a match to its end (or resume it); safe to enqueue twice."""
    match = await run_match(match_id)
    return "skipped: held elsewhere or already over" if match is None else match.status
