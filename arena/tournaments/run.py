"""Run a whole tournament in this process (`manage.py tournament run`, tests), rather than on db_worker processes."""

from __future__ import annotations

from collections.abc import Callable

from asgiref.sync import sync_to_async
from django.utils import timezone

from arena.models import Match, Tournament
from arena.record.services import STALE_AFTER_S
from arena.runner.loop import default_worker_id, run_match
from arena.tournaments.services import tournament_advance


def next_runnable(tournament_id: int, stale_after_s: float) -> int | None:
    """A pending match of the tournament, or a running one whose worker has gone quiet."""
    matches = Match.objects.filter(tournament_id=tournament_id)
    pending = matches.filter(status=Match.Status.PENDING).order_by("pk").values_list("pk", flat=True).first()
    if pending is not None:
        return pending
    cutoff = timezone.now() - timezone.timedelta(seconds=stale_after_s)
    return (
        matches.filter(status=Match.Status.RUNNING, heartbeat_at__lt=cutoff)
        .order_by("pk")
        .values_list("pk", flat=True)
        .first()
    )


async def run_tournament(
    tournament_id: int,
    *,
    worker: str | None = None,
    stale_after_s: float = STALE_AFTER_S,
    on_match: Callable[[Match | None], None] | None = None,
) -> None:
    """Run every match of a tournament in this process, scheduling follow-ups as results come in."""
    worker = worker or default_worker_id()
    tournament = await Tournament.objects.aget(pk=tournament_id)
    await sync_to_async(tournament_advance)(tournament=tournament)
    while (match_id := await sync_to_async(next_runnable)(tournament_id, stale_after_s)) is not None:
        match = await run_match(match_id, worker=worker)  # when it ends, the tournament schedules what follows
        if on_match:
            await sync_to_async(on_match)(match)
