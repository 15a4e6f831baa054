"""Who may move a match, and when: claims, heartbeats, releases, hand-overs and pauses (docs/architecture.md).

The rule, in one place:
- A match is run by at most one worker at a time, its holder (`claimed_by`), who proves it is alive with a
  heartbeat every HEARTBEAT_INTERVAL_S; one silent for STALE_AFTER_S is up for grabs (`match_claim`).
- Nobody holds a match while a person is to move (a seat whose moves arrive through a websocket): the claim
  starts it without holding it (`AwaitingPerson`), and the holder's write that leaves a person to move lets go
  of it (`ByHolder`). That person's move hands the reply to its own process's runner in the same write
  (`ByPerson`), unless another live worker holds the match.
- A match whose model server is not answering is paused: held by nobody until `paused_until`, waiting longer
  after each failed retry, and aborted once its outage has lasted PAUSE_GIVE_UP_S (`match_pause`).
- A person's page sets a runner going only for a match nobody runs (`needs_runner`).
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from arena.models import Match
from arena.record.selectors import socket_seats
from arena.record.signals import match_paused
from games import get_game

#: A running match's holder writes a heartbeat this often; one silent for STALE_AFTER_S is up for grabs.
HEARTBEAT_INTERVAL_S = 10.0
STALE_AFTER_S = 30.0

# -- claims ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Claimed:
    """The worker holds the match and runs its bots' and models' turns (`started`: this claim started it)."""

    match: Match
    started: bool


@dataclass(frozen=True)
class AwaitingPerson:
    """The match is started and held by nobody: a person is to move (`started`: this claim started it)."""

    match: Match
    started: bool


class Refused(enum.Enum):
    """Why a worker may not run the match now."""

    OVER = "over"
    HELD = "held by another worker"
    PAUSED = "paused"


def held_by_another(match: Match, worker: str, now: datetime, stale_after_s: float = STALE_AFTER_S) -> bool:
    """Whether someone other than `worker` holds the match and proved it within `stale_after_s`."""
    if not match.claimed_by or match.claimed_by == worker:
        return False
    return bool(match.heartbeat_at) and (now - match.heartbeat_at).total_seconds() < stale_after_s


@transaction.atomic
def match_claim(
    *, match_id: int, worker: str, stale_after_s: float = STALE_AFTER_S
) -> Claimed | AwaitingPerson | Refused:
    """Take a match to run: a pending one, a running one nobody holds, or one whose holder went quiet.

    Refused: the caller must not run it. A match whose seat to move is a person's is started but not held.
    """
    match = Match.objects.select_for_update().get(pk=match_id)
    now = timezone.now()
    if match.status in (Match.Status.FINISHED, Match.Status.ABORTED):
        return Refused.OVER
    if held_by_another(match, worker, now, stale_after_s):
        return Refused.HELD
    if paused_now(match, now):
        return Refused.PAUSED
    game = get_game(match.game)
    to_move = game.current_player(game.from_json(match.state))
    person_next = to_move in socket_seats(match.uid)
    started = match.started_at is None
    match.status = Match.Status.RUNNING
    match.claimed_by = "" if person_next else worker
    match.heartbeat_at = now
    match.started_at = match.started_at or now
    match.paused_until = None  # its pause, if any, is over; `pause` stays until a decision is recorded
    match.save(update_fields=["status", "claimed_by", "heartbeat_at", "started_at", "paused_until"])
    return AwaitingPerson(match, started) if person_next else Claimed(match, started)


def match_heartbeat(*, match_id: int, worker: str) -> bool:
    """Prove `worker` is still running the match; False when it no longer holds it."""
    return bool(
        Match.objects.filter(pk=match_id, claimed_by=worker, status=Match.Status.RUNNING).update(
            heartbeat_at=timezone.now()
        )
    )


def match_release(*, match_id: int, worker: str) -> None:
    """Let go of a running match (it now waits for a person), so whoever gets the next move can run it."""
    Match.objects.filter(pk=match_id, claimed_by=worker).update(claimed_by="")


def matches_hand_back(*, worker: str) -> int:
    """`worker` (and its slots, `worker/n`) stops running its matches before they end (an interrupted `evaluate
    --run`): they are pending again, for the next run to take at once rather than once their heartbeats have gone
    stale. How many were handed back."""
    held = Q(claimed_by=worker) | Q(claimed_by__startswith=f"{worker}/")
    return Match.objects.filter(held, status=Match.Status.RUNNING).update(status=Match.Status.PENDING, claimed_by="")


@transaction.atomic
def match_release_stale(*, stale_after_s: float) -> list[int]:
    """Hand matches whose worker went quiet for `stale_after_s` back to the queue (pending)."""
    cutoff = timezone.now() - timezone.timedelta(seconds=stale_after_s)
    stale = (
        Match.objects.select_for_update()
        .filter(status=Match.Status.RUNNING, heartbeat_at__lte=cutoff)
        .exclude(claimed_by="")
    )
    ids = list(stale.values_list("pk", flat=True))
    Match.objects.filter(pk__in=ids).update(status=Match.Status.PENDING, claimed_by="")
    return ids


# -- who records a decision, and who holds the match after it ------------------------------


@dataclass(frozen=True)
class ByHolder:
    """The worker holding the match records its agents' decisions, and lets go when a seat of `people` (a
    person's) is next. `as_left`: the caller's match is as this worker's own last write left it (no tries wait
    at its ply), so it is not read again; the write checks it still stands there."""

    worker: str
    people: frozenset[int] = frozenset()
    as_left: bool = False


@dataclass(frozen=True)
class ByPerson:
    """A person's move: when a bot or a model (a seat not in `people`) is next and no other live worker holds the
    match, it is handed to `runner` in the same write ("": to nobody, the workers pick it up)."""

    runner: str
    people: frozenset[int]


def by_holder(worker: str | None, people: Collection[int] = (), *, as_left: bool = False) -> ByHolder | None:
    """The holder's write, or None (no `worker`: a setup or a tool writing outside any run)."""
    return None if worker is None else ByHolder(worker, frozenset(people), as_left)


def write_refused(by: ByHolder | ByPerson | None, match: Match) -> str:
    """Why `by` may not record on the locked `match` ("" when it may): a holder that no longer holds it."""
    if isinstance(by, ByHolder) and match.claimed_by != by.worker:
        return f"Match {match.pk} is now run by {match.claimed_by or 'nobody'}, not {by.worker}."
    return ""


def holder_after(by: ByHolder | ByPerson | None, match: Match, to_move: int | None, now: datetime) -> str | None:
    """Who holds the match once `by`'s write leaves `to_move` to move: a worker, "" (nobody), or None (unchanged)."""
    if isinstance(by, ByHolder) and to_move in by.people:
        return ""  # a person is next: whoever runs the turn after their move may claim it
    if isinstance(by, ByPerson) and by.runner and to_move is not None and to_move not in by.people:
        return None if held_by_another(match, by.runner, now) else by.runner
    return None


# -- live pages ---------------------------------------------------------------------------


def needs_runner(match: Match, *, viewer_seats: Sequence[int], person_seats: Collection[int]) -> bool:
    """True when this viewer's page must start the match, or set a bot or model to move that nobody runs.

    Only a page of a seated person (`viewer_seats`) does: spectators and other people only watch, and a match
    with nobody's person seated (a tournament's) belongs to the workers. `person_seats`: the people's seats.
    """
    if not viewer_seats:
        return False
    if match.status == Match.Status.PENDING:
        return True  # the runner starts it, plays any opening bot moves, then waits for the person
    if match.status != Match.Status.RUNNING or paused_now(match):
        return False  # over, or waiting for its model server (a worker resumes it)
    now = timezone.now()
    if match.claimed_by and match.heartbeat_at and (now - match.heartbeat_at).total_seconds() < STALE_AFTER_S:
        return False  # its holder is alive and on it
    seat = to_move(match)
    return seat is not None and seat not in person_seats


def to_move(match: Match) -> Any:
    """The seat to move in the match's stored state (None when it is over)."""
    game = get_game(match.game)
    return game.current_player(game.from_json(match.state))


# -- pauses -------------------------------------------------------------------------------

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


#: The status pages show for a running match that waits for its model server (not a status of the record).
PAUSED = "paused"


def shown_status(match: Match) -> str:
    """The match's status as pages show and order it: PAUSED while it waits out a pause, else its status."""
    return PAUSED if match.status == Match.Status.RUNNING and match.paused_until is not None else match.status


def pause_reason(outage: str) -> str:
    """What people are shown while a match waits for its model server."""
    return f"{outage}; the match resumes when it does"


@transaction.atomic
def match_adjourn(*, match_id: int, worker: str, reason: str) -> Match | None:
    """`worker` lets go of its match before the next decision, for `reason` (a `decision_due` receiver's): it stays
    running, held by nobody, with `pause.adjourned`, until someone runs it again (the next decision recorded clears
    the mark). None: `worker` no longer holds the match (nothing changed)."""
    match = Match.objects.select_for_update().get(pk=match_id)
    if match.status != Match.Status.RUNNING or match.claimed_by != worker:
        return None
    match.claimed_by = ""
    match.pause = {"reason": reason, "since": timezone.now().isoformat(), "adjourned": True}
    match.save(update_fields=["claimed_by", "pause"])
    return match


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
