"""Every write to the match record goes through these functions (docs/architecture.md, The record).

They are keyword-only, typed, atomic, and named <noun>_<verb>; `match_lock` and `decisions_write` are the two
steps of `decisions_record` for a caller that checks more in the same transaction (a person's move).
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Collection, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Case, Exists, FloatField, OuterRef, QuerySet, Value, When
from django.utils import timezone

from arena.agents.base import AttemptData, DecisionResult
from arena.agents.llm import PROMPT_VERSION
from arena.models import Agent, Attempt, Decision, Match, Seat
from arena.record.errors import ServiceError
from arena.record.selectors import socket_seats
from arena.record.signals import match_finished
from arena.record.turns import paused_now
from arena.record.versions import code_version
from games import get_game

# -- matches -----------------------------------------------------------------------------


#: Seeds are drawn below 2**53: too many to search for the one behind a deal, and exact as JSON numbers everywhere.
SEED_RANGE = 2**53


def new_seed() -> int:
    """A fresh random seed, unpredictable to anyone who sees earlier ones."""
    return secrets.randbelow(SEED_RANGE)


def variant_options(game: str, variant: str) -> dict:
    """The `initial_state` options of one of a game's variants ("" is the standard rules)."""
    if not variant:
        return {}
    rules = get_game(game)
    if variant not in rules.variants:
        choices = ", ".join(["standard", *rules.variants])
        raise ServiceError(f"{rules.name} has no variant {variant!r}; choose from: {choices}.")
    return rules.variants[variant]


@transaction.atomic
def match_create(
    *,
    game: str,
    agents: list[Agent],
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    policies: dict[str, Any] | None = None,
    tournament=None,
    duplicate_of: Match | None = None,
    extra_record: dict[str, Any] | None = None,
) -> Match:
    """A pending match with its seats (agents in seat order) and its frozen reproducibility record."""
    game_obj = get_game(game)
    if len(agents) != game_obj.num_players:
        raise ServiceError(f"{game_obj.name} needs {game_obj.num_players} players, got {len(agents)}.")
    for agent in agents:
        if agent.game and agent.game != game:
            raise ServiceError(f"{agent.slug} only plays {agent.game}, not {game}.")
    seed = new_seed() if seed is None else int(seed)
    options = options or {}
    try:
        state = game_obj.initial_state(seed=seed, **options)
    except (TypeError, ValueError) as error:
        raise ServiceError(f"Invalid options for {game}: {error}") from None
    versions = [agent.current_version() for agent in agents]
    record = {
        "game_version": game_obj.version,
        "variant": game_obj.variant_of(options),
        "code_version": code_version(),
        "prompt_version": PROMPT_VERSION,
        "policies": {"fallback": "random_legal", **(policies or {})},
        "agents": [{"slug": v.agent.slug, "version": v.number, "config": v.config} for v in versions],
        **(extra_record or {}),
    }
    match = Match.objects.create(
        game=game,
        options=options,
        seed=seed,
        record=record,
        state=game_obj.to_json(state),
        tournament=tournament,
        duplicate_of=duplicate_of,
    )
    Seat.objects.bulk_create(Seat(match=match, index=i, agent_version=v) for i, v in enumerate(versions))
    return match


#: A running match's holder writes a heartbeat this often; one silent for STALE_AFTER_S is up for grabs.
HEARTBEAT_INTERVAL_S = 10.0
STALE_AFTER_S = 30.0


def _held_by_another(match: Match, worker: str, now, stale_after_s: float = STALE_AFTER_S) -> bool:
    """Whether someone other than `worker` holds the match and proved it within `stale_after_s`."""
    if not match.claimed_by or match.claimed_by == worker:
        return False
    return bool(match.heartbeat_at) and (now - match.heartbeat_at).total_seconds() < stale_after_s


@transaction.atomic
def match_claim(*, match_id: int, worker: str, stale_after_s: float = STALE_AFTER_S) -> Match | None:
    """Take a match to run: a pending one, a running one nobody holds, or one whose holder went quiet.

    Returns None when someone else holds it, it is paused (see arena.record.turns) or it is over: the caller must
    not run it. A match whose seat to move is a person's (a move arriving through a websocket) is started but not
    held (`claimed_by` empty): nobody runs it until that move, which hands it to its own process's runner.
    """
    match = Match.objects.select_for_update().get(pk=match_id)
    now = timezone.now()
    if match.status in (Match.Status.FINISHED, Match.Status.ABORTED):
        return None
    if _held_by_another(match, worker, now, stale_after_s) or paused_now(match, now):
        return None
    game = get_game(match.game)
    to_move = game.current_player(game.from_json(match.state))
    match.status = Match.Status.RUNNING
    match.claimed_by = "" if to_move in socket_seats(match.uid) else worker
    match.heartbeat_at = now
    match.started_at = match.started_at or now
    match.paused_until = None  # its pause, if any, is over; `pause` stays until a decision is recorded
    match.save(update_fields=["status", "claimed_by", "heartbeat_at", "started_at", "paused_until"])
    return match


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


@transaction.atomic
def decision_record(
    *,
    match: Match,
    ply: int,
    action: Any,
    attempts: list[AttemptData] = (),
    elapsed_ms: int = 0,
    fallback: str = "",
    round: int | None = None,
    revised: bool | None = None,
    plan_similarity: float | None = None,
    worker: str | None = None,
    release_to: Collection[int] = (),
) -> Match:
    """Apply `action` at `ply`, store the decision and its attempts, advance the match.

    The ply must be the match's next one; a repeat (same ply twice, e.g. a resumed worker)
    raises ServiceError and changes nothing, as does a `worker` that no longer holds the match.
    When a seat in `release_to` (a person's) is to move next, the worker lets go of the match in
    the same write, so whoever runs the turn after that person's move may claim it.
    """
    decision = DecisionResult(action=action, attempts=list(attempts), elapsed_ms=elapsed_ms, fallback=fallback)
    facts = {"round": round, "revised": revised, "plan_similarity": plan_similarity}
    locked = match_lock(match_id=match.pk)
    return decisions_write(
        locked=locked, ply=ply, decisions=[decision], worker=worker, release_to=release_to, facts=facts
    )


@transaction.atomic
def decisions_record(
    *,
    match: Match,
    ply: int,
    decisions: Sequence[DecisionResult],
    worker: str | None = None,
    release_to: Collection[int] = (),
) -> Match:
    """Record consecutive decisions from `ply` on (a run of bots' turns) in one transaction, as
    `decision_record` would one by one: all of them or, on any refusal, none.

    A `worker`'s match as its own last write left it (this function's, or the person's move that handed it over:
    no tries can wait at its ply) is not read again: the record is written only if the match still stands there.
    """
    held = worker is not None and match.claimed_by == worker and match.ply == ply
    as_left = held and getattr(match, "tries_waiting", None) is False
    locked = copy.copy(match) if as_left else match_lock(match_id=match.pk)  # a copy: the caller's, if refused, stays
    return decisions_write(
        locked=locked, ply=ply, decisions=decisions, worker=worker, release_to=release_to, unread=as_left
    )


#: `match_lock`'s query, built once (each use clones it): building its EXISTS each time cost as much as the read.
LOCK_QUERY = Match.objects.select_for_update().annotate(
    tries_waiting=Exists(Attempt.objects.filter(match=OuterRef("pk"), ply=OuterRef("ply")))
)


def match_lock(*, match_id: int, query: QuerySet[Match] = LOCK_QUERY) -> Match:
    """The match, locked until the caller's transaction ends, with `tries_waiting` (whether tries were turned
    down at its ply: its next decision takes them), in one statement; `query`: LOCK_QUERY with more annotations."""
    return query.get(pk=match_id)


def decisions_write(
    *,
    locked: Match,
    ply: int,
    decisions: Sequence[DecisionResult],
    worker: str | None = None,
    release_to: Collection[int] = (),
    hand_to: str = "",
    facts: dict[str, Any] | None = None,
    unread: bool = False,
) -> Match:
    """`decisions_record`'s work, inside the caller's transaction on a match `match_lock` locked in it.

    `hand_to`: when the seat to move next is not in `release_to` (a bot's or a model's) and nobody else holds
    the match, it is claimed for this worker in the same write (a person's move hands the reply to its runner).
    `unread`: `locked` is the `worker`'s copy of the match as its last write left it, not read in this transaction;
    the write is refused (ServiceError, nothing recorded) unless the match still stands at `ply`, run by `worker`.
    """
    if locked.status != Match.Status.RUNNING:
        raise ServiceError(f"Match {locked.pk} is {locked.status}; no more moves can be recorded.")
    if worker is not None and locked.claimed_by != worker:
        raise ServiceError(f"Match {locked.pk} is now run by {locked.claimed_by or 'nobody'}, not {worker}.")
    if ply != locked.ply:
        raise ServiceError(f"Match {locked.pk} is at ply {locked.ply}, not {ply}; this decision is stale.")
    if not decisions:
        raise ServiceError("No decision to record.")
    facts = facts or {}
    game = get_game(locked.game)
    state, state_json = game.from_json(locked.state), locked.state
    rows = []
    for result in decisions:
        seat = game.current_player(state)
        if seat is None:
            raise ServiceError(f"Match {locked.pk} ended at ply {ply + len(rows)}; no more moves can be recorded.")
        new_state = game.apply(state, result.action)  # IllegalAction propagates and rolls back
        info = {**facts, **game.decision_info(state, result.action)}
        attempts = result.attempts
        rows.append(
            Decision(
                match=locked,
                ply=ply + len(rows),
                seat=seat,
                round=info.get("round"),
                state_before=state_json,
                action_text=game.action_to_text(state, result.action),
                action=game.action_to_json(result.action),
                revised=info.get("revised"),
                plan_similarity=info.get("plan_similarity"),
                elapsed_ms=result.elapsed_ms,
                prompt_tokens=sum(a.prompt_tokens for a in attempts),
                completion_tokens=sum(a.completion_tokens for a in attempts),
                reasoning_tokens=sum(a.reasoning_tokens for a in attempts),
                cost=sum(a.cost for a in attempts),
                fallback=result.fallback,
            )
        )
        state, state_json = new_state, game.to_json(new_state)
    try:
        Decision.objects.bulk_create(rows)
    except IntegrityError:
        raise ServiceError(f"Match {locked.pk} already has a decision at ply {ply}.") from None
    _attempts_attach(locked, rows, [result.attempts for result in decisions])
    locked.recorded_decisions = rows  # the pages of this process that draw the match need not read them back
    now = timezone.now()
    to_move = game.current_player(state)
    fields = ["state", "ply", "heartbeat_at"]
    if worker is not None and to_move in release_to:
        locked.claimed_by = ""
        fields.append("claimed_by")
    elif hand_to and to_move is not None and to_move not in release_to and not _held_by_another(locked, hand_to, now):
        locked.claimed_by = hand_to
        fields.append("claimed_by")
    locked.state = state_json
    locked.ply = ply + len(rows)  # safe: the row is locked (or `unread`'s write checks it) and `ply` was checked
    locked.heartbeat_at = now
    if locked.pause is not None:  # the model server answered: the outage it waited out is over
        locked.pause = None
        fields.append("pause")
    locked.tries_waiting = False  # none at the new ply yet: so its holder may record the next decisions unread
    if unread:
        still_there = Match.objects.filter(pk=locked.pk, status=Match.Status.RUNNING, claimed_by=worker, ply=ply)
        if not still_there.update(**{name: getattr(locked, name) for name in fields}):
            raise ServiceError(f"Match {locked.pk} ended or changed hands before ply {ply} was recorded.")
        fields = []
    if to_move is None:
        outcome = game.outcome(state)
        scores = list(outcome.scores)
        _close(locked, status=Match.Status.FINISHED, scores=scores, termination=outcome.reason, also=fields)
    elif fields:
        locked.save(update_fields=fields)
    return locked


def _attempts_attach(match: Match, decisions: list[Decision], attempts: list[list[AttemptData]]) -> None:
    """Store each decision's attempts. Tries turned down earlier (a person's illegal moves) belong to the first
    decision and its attempts are numbered after them: a try is stored only at the match's current ply, so the
    later decisions of a batch, at plies the record had not reached, have none."""
    first = decisions[0]
    earlier = 0
    if match.tries_waiting:
        earlier = Attempt.objects.filter(match=match, ply=first.ply, seat=first.seat).update(decision=first)
    if not any(attempts):
        return  # bots' decisions: no tries to store
    Attempt.objects.bulk_create(
        Attempt(
            match=match,
            ply=decision.ply,
            seat=decision.seat,
            number=(earlier if decision is first else 0) + n,
            decision=decision,
            **vars(attempt),
        )
        for decision, tries in zip(decisions, attempts, strict=True)
        for n, attempt in enumerate(tries, start=1)
    )


def _close(
    match: Match, *, status: str, scores: list[float] | None, termination: str, also: Collection[str] = ()
) -> None:
    """Mark a locked match as over and copy the scores onto its seats (`also`: other fields changed, saved with it)."""
    match.status = status
    match.scores = scores
    match.termination = termination
    match.finished_at = timezone.now()
    match.claimed_by = ""
    match.save(update_fields={"status", "scores", "termination", "finished_at", "claimed_by", *also})
    if scores is not None:
        by_index = [When(index=index, then=Value(score)) for index, score in enumerate(scores)]
        Seat.objects.filter(match=match).update(score=Case(*by_index, output_field=FloatField()))
    # Tournaments schedule what follows and leaderboards refresh; they listen, the record does not call them.
    transaction.on_commit(lambda: match_finished.send(sender=Match, match=match))


@transaction.atomic
def attempt_record_rejected(*, match: Match, ply: int, seat: int, attempt: AttemptData) -> Attempt:
    """Store a try that was turned down (a person's illegal move) without changing the game."""
    number = Attempt.objects.filter(match=match, ply=ply, seat=seat).count() + 1
    return Attempt.objects.create(match=match, ply=ply, seat=seat, number=number, **vars(attempt))


@transaction.atomic
def match_resign(*, match: Match, seat: int, reason: str = "resignation") -> Match:
    """End a running match with `seat`'s side losing: its teammates too in a team game, every other side winning."""
    locked = Match.objects.select_for_update().get(pk=match.pk)
    if locked.status not in (Match.Status.RUNNING, Match.Status.PENDING):
        raise ServiceError(f"Match {locked.pk} is already {locked.status}.")
    game = get_game(locked.game)
    state = game.from_json(locked.state)
    side = game.team_of(state, seat)
    scores = [0.0 if game.team_of(state, i) == side else 1.0 for i in range(game.num_players)]
    _close(locked, status=Match.Status.FINISHED, scores=scores, termination=f"{reason} by seat {seat}")
    return locked


@transaction.atomic
def match_abort(*, match: Match, reason: str, transient: bool = False) -> Match:
    """Stop a match that cannot go on (an agent failed under the `abort` policy, an operator cancelled).

    `transient` marks provider trouble rather than the agent's own failure: tournaments re-run such matches.
    """
    locked = Match.objects.select_for_update().get(pk=match.pk)
    if locked.status in (Match.Status.FINISHED, Match.Status.ABORTED):
        return locked
    if transient:
        locked.record = {**locked.record, "transient_failure": True}
    _close(locked, status=Match.Status.ABORTED, scores=None, termination=reason, also=["record"] if transient else ())
    return locked


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
