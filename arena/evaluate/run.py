"""Play an evaluation in this process (`manage.py evaluate --run`), stopping before its budget is passed."""

from __future__ import annotations

from collections.abc import Callable

from asgiref.sync import sync_to_async

from arena.evaluate.services import budget_reached
from arena.models import Match, Tournament
from arena.record.services import STALE_AFTER_S
from arena.runner.loop import default_worker_id, run_match
from arena.tournaments.run import _next_runnable
from arena.tournaments.services import tournament_advance


def _next(tournament_ids: list[int], stale_after_s: float) -> int | None:
    for pk in tournament_ids:
        if (match_id := _next_runnable(pk, stale_after_s)) is not None:
            return match_id
    return None


def _advance(tournament_ids: list[int]) -> None:
    for tournament in Tournament.objects.filter(pk__in=tournament_ids):
        tournament_advance(tournament=tournament)


async def run_evaluation(
    tournaments: list[Tournament],
    *,
    worker: str | None = None,
    stale_after_s: float = STALE_AFTER_S,
    on_match: Callable[[Match | None], None] | None = None,
) -> str:
    """Run the evaluation's matches one by one, its ladders scheduling as results come in.

    Returns "" when nothing is left to play, or why it stopped (the budget)."""
    worker = worker or default_worker_id()
    ids = [t.pk for t in tournaments]
    await sync_to_async(_advance)(ids)
    while True:
        if reason := await sync_to_async(budget_reached)(tournaments):
            return reason
        match_id = await sync_to_async(_next)(ids, stale_after_s)
        if match_id is None:
            return ""
        match = await run_match(match_id, worker=worker)
        if on_match:
            await sync_to_async(on_match)(match)
