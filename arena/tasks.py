"""Background work run by `manage.py db_worker` (django.tasks on django-tasks-db)."""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.tasks import task

from arena.models import Tournament
from arena.runner import run_match
from arena.tournaments import tournament_advance


def enqueue_matches(match_ids: list[int]) -> None:
    """Queue matches for any worker; each runs at most once at a time (see match_claim)."""
    for match_id in match_ids:
        run_match_task.enqueue(match_id)


@task(queue_name="matches")
async def run_match_task(match_id: int) -> str:
    """Play a match to its end (or resume it), then let its tournament schedule what follows."""
    match = await run_match(match_id)
    if match is None:
        return "skipped: held by another worker or already over"
    if match.tournament_id:
        tournament = await Tournament.objects.aget(pk=match.tournament_id)
        created = await sync_to_async(tournament_advance)(tournament=tournament)
        await sync_to_async(enqueue_matches)(created)
    return match.status
