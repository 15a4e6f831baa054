"""Run a whole tournament in this process (`manage.py tournament run`, tests), rather than on db_worker processes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from asgiref.sync import sync_to_async
from django.db.models import Q
from django.utils import timezone

from arena.models import Match, Tournament
from arena.record.turns import STALE_AFTER_S
from arena.runner.loop import default_worker_id, run_match
from arena.tournaments.services import tournament_advance

#: Longest sleep while every match left waits out a pause: a match another process resumes is noticed this soon.
PAUSE_POLL_S = 30.0


def next_runnable(tournament_id: int, stale_after_s: float) -> int | None:
    """A pending match of the tournament, or a running one whose worker has gone quiet or that was adjourned
    (`arena.record.turns.match_adjourn`); none that is paused."""
    now = timezone.now()
    matches = Match.objects.filter(tournament_id=tournament_id).exclude(paused_until__gt=now)
    pending = matches.filter(status=Match.Status.PENDING).order_by("pk").values_list("pk", flat=True).first()
    if pending is not None:
        return pending
    cutoff = now - timezone.timedelta(seconds=stale_after_s)
    return (
        matches.filter(status=Match.Status.RUNNING)
        .filter(Q(heartbeat_at__lt=cutoff) | Q(claimed_by="", pause__adjourned=True))
        .order_by("pk")
        .values_list("pk", flat=True)
        .first()
    )


def pause_left_s(tournament_ids: list[int]) -> float | None:
    """Seconds until the first of these tournaments' paused matches may be tried again (at most PAUSE_POLL_S);
    None when none is paused."""
    paused = Match.objects.filter(tournament_id__in=tournament_ids, status=Match.Status.RUNNING)
    first = paused.exclude(paused_until=None).order_by("paused_until").values_list("paused_until", flat=True).first()
    if first is None:
        return None
    return min(PAUSE_POLL_S, max(0.0, (first - timezone.now()).total_seconds()))


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
    while True:
        match_id = await sync_to_async(next_runnable)(tournament_id, stale_after_s)
        if match_id is None:
            wait_s = await sync_to_async(pause_left_s)([tournament_id])
            if wait_s is None:
                return
            await asyncio.sleep(wait_s)  # only paused matches are left: wait for the first to be due
            continue
        match = await run_match(match_id, worker=worker)  # when it ends, the tournament schedules what follows
        if on_match:
            await sync_to_async(on_match)(match)
