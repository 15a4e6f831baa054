"""A worker's part in studies: the void rule applied when a study match's opponent stalls, whether or not anyone
opens a study page (docs/studies.md, "void when the opponent stalls")."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from asgiref.sync import sync_to_async
from django.tasks import task
from django.utils import timezone

from arena.models import Match
from arena.record.signals import match_updated
from arena.studies.services import match_void_if_stalled


def void_check_on_decision_due(sender: type, *, match: Match, seat: int, **kwargs: Any) -> str:
    """`decision_due`'s receiver: a study match's opponent (a model, a program) is about to decide; queue a check
    for the moment it would count as stalled. Never holds the match back ("")."""
    void_after_s = match.record.get("void_after_s")  # set on a study's matches only, when it has the rule
    if void_after_s:
        void_check_enqueue(match.pk, at=timezone.now() + timedelta(seconds=void_after_s))
    return ""


def void_check_enqueue(match_id: int, *, at: datetime) -> None:
    """Queue the void rule's check of a study match for any worker, from `at` on (the queue is stored: a restart
    keeps it)."""
    study_void_check_task.using(run_after=at).enqueue(match_id)


@task(queue_name="matches")
async def study_void_check_task(match_id: int) -> str:
    """Void the study match if its opponent stalled, and tell its pages; if its opponent is to move but not yet
    stalled (a check taken up early), check again when it would be."""
    voided, due = await sync_to_async(match_void_if_stalled)(match_id=match_id)
    if voided is not None:
        await match_updated.asend(sender=Match, match=voided)  # the live page shows the match over, void
        return "void"
    if due is not None:
        await sync_to_async(void_check_enqueue)(match_id, at=due)
        return "not yet stalled: checked again then"
    return "going on"
