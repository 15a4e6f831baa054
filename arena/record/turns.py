"""Who may move a match, and when: claims, heartbeats, releases, hand-overs and pauses (docs/architecture.md).

A match is run by at most one worker at a time, its holder (`claimed_by`), who proves it is alive with a heartbeat;
one silent for STALE_AFTER_S is up for grabs. A match whose seat to move is a person's is held by nobody until that
person's move, which hands the reply to its own process's runner. A match whose model server is not answering is
paused: held by nobody until `paused_until`, waiting longer after each failed retry, and aborted once its outage
has lasted PAUSE_GIVE_UP_S.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from arena.models import Match
from arena.record.signals import match_paused

#: The first pause of an outage; each failed retry doubles it, up to PAUSE_LONGEST_S.
PAUSE_FIRST_S = 30.0
PAUSE_LONGEST_S = 600.0
#: An outage this long (from its first pause) ends the match as aborted, with the reason.
PAUSE_GIVE_UP_S = 24 * 3600.0


@dataclass(frozen=True)
class Paused:
    """The match waits, held by nobody, until `until`; a worker may claim it from then on."""

    until: datetime
    reason: str


@dataclass(frozen=True)
class GaveUp:
    """The outage outlasted PAUSE_GIVE_UP_S: the match is to end as aborted with `reason`."""

    reason: str


def paused_now(match: Match, now: datetime | None = None) -> bool:
    """Whether the match waits out an outage: nobody may run it before `paused_until`."""
    return match.paused_until is not None and (now or timezone.now()) < match.paused_until


def pause_reason(outage: str) -> str:
    """What people are shown while a match waits for its model server."""
    return f"{outage}; the match resumes when it does"


@transaction.atomic
def match_pause(*, match_id: int, worker: str, outage: str) -> Paused | GaveUp | None:
    """`worker` lets go of its match until the model server may answer again (`outage` says which is silent).

    The wait doubles from PAUSE_FIRST_S to PAUSE_LONGEST_S over the outage's pauses, and is stored, so a
    restarted worker waits it out too. None: `worker` no longer holds the match (nothing changed).
    """
    match = Match.objects.select_for_update().get(pk=match_id)
    if match.status != Match.Status.RUNNING or match.claimed_by != worker:
        return None
    now = timezone.now()
    earlier = match.pause or {}
    since = datetime.fromisoformat(earlier["since"]) if earlier else now
    if (now - since).total_seconds() >= PAUSE_GIVE_UP_S:
        return GaveUp(reason=f"{outage}; given up after {PAUSE_GIVE_UP_S / 3600:g} h")
    delay_s = min(PAUSE_LONGEST_S, 2 * float(earlier["delay_s"])) if earlier else PAUSE_FIRST_S
    reason = pause_reason(outage)
    match.claimed_by = ""
    match.paused_until = now + timedelta(seconds=delay_s)
    match.pause = {"reason": reason, "since": since.isoformat(), "delay_s": delay_s}
    match.save(update_fields=["claimed_by", "paused_until", "pause"])
    until = match.paused_until  # the workers' queue takes it up then; the record does not call them
    transaction.on_commit(lambda: match_paused.send(sender=Match, match_id=match_id, until=until))
    return Paused(until=match.paused_until, reason=reason)
