"""Play an evaluation in this process (`manage.py evaluate --run`), stopping before its budget is passed."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from asgiref.sync import sync_to_async

from arena.evaluate.selectors import evaluation_spend
from arena.evaluate.services import budget_reached
from arena.models import Match, Tournament
from arena.record.turns import STALE_AFTER_S
from arena.runner.loop import default_worker_id, run_match
from arena.tournaments.run import next_runnable, pause_left_s
from arena.tournaments.services import tournament_advance


def _next(tournament_ids: list[int], stale_after_s: float) -> int | None:
    for pk in tournament_ids:
        if (match_id := next_runnable(pk, stale_after_s)) is not None:
            return match_id
    return None


def _may_start(tournaments: list[Tournament], running: int) -> tuple[str, bool]:
    """Why no match may start ("" when one may), and whether to wait instead: with a budget, while matches run
    and none has finished, there is no price to judge the next one by. One reading of the spend for both."""
    spend = evaluation_spend(tournaments)
    if reason := budget_reached(tournaments, running=running, spend=spend):
        return reason, False
    evaluation = tournaments[0].config["evaluation"]
    budgeted = evaluation.get("budget_usd") is not None or evaluation.get("budget_tokens") is not None
    return "", bool(budgeted and running and not spend["finished"])


def _advance(tournament_ids: list[int]) -> None:
    for tournament in Tournament.objects.filter(pk__in=tournament_ids):
        tournament_advance(tournament=tournament)


async def run_evaluation(
    tournaments: list[Tournament],
    *,
    worker: str | None = None,
    in_flight: int = 1,
    stale_after_s: float = STALE_AFTER_S,
    on_match: Callable[[Match | None], None] | None = None,
) -> str:
    """Run the evaluation's matches, `in_flight` at once on this event loop (a model's calls wait together), its
    ladders scheduling as results come in. Each slot claims its matches under its own id (`worker/n`), so no
    two take the same match. No match starts when it, beside those running, would pass the budget.

    Returns "" when nothing is left to play, or why it stopped (the budget)."""
    worker = worker or default_worker_id()
    ids = [t.pk for t in tournaments]
    await sync_to_async(_advance)(ids)
    stopped = ""
    running = 0

    choosing = asyncio.Lock()  # one slot at a time decides whether a match may start, and which

    async def slot(number: int) -> None:
        nonlocal stopped, running
        while not stopped:
            async with choosing:
                reason, wait = await sync_to_async(_may_start)(tournaments, running)
                if reason:
                    stopped = stopped or reason
                    return
                match_id = None if wait else await sync_to_async(_next)(ids, stale_after_s)
                paused_s = await sync_to_async(pause_left_s)(ids) if not wait and match_id is None else None
                if not wait and match_id is None and paused_s is None:
                    return
                running += 0 if match_id is None else 1
            if wait:
                await asyncio.sleep(0.1)  # a budget, and no match paid for yet: learn what one costs first
                continue
            if match_id is None:
                await asyncio.sleep(paused_s)  # only paused matches are left: wait for the first to be due
                continue
            try:
                match = await run_match(match_id, worker=f"{worker}/{number}")
            finally:
                running -= 1
            if match is None:  # another slot took it first
                await asyncio.sleep(0.05)
                continue
            if on_match:
                await sync_to_async(on_match)(match)

    await asyncio.gather(*(slot(number) for number in range(max(1, in_flight))))
    return stopped
