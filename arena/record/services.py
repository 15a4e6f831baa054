"""Every write to the match record goes through these functions (docs/architecture.md, The record).

They are keyword-only, typed, atomic, and named <noun>_<verb>; `match_lock` and `decisions_write` are the two
steps of `decisions_record` for a caller that checks more in the same transaction (a person's move).
"""

from __future__ import annotations

import copy
import hmac
import secrets
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Case, Exists, FloatField, OuterRef, Value, When
from django.utils import timezone

from arena.models import Agent, Attempt, Decision, Match, Seat
from arena.record.compiled import ByPrimaryKey, rows_insert, rows_update
from arena.record.decisions import AttemptData, DecisionResult
from arena.record.errors import ServiceError
from arena.record.signals import match_finished, match_seating
from arena.record.turns import ByHolder, ByPerson, by_holder, holder_after, write_refused
from arena.record.uploads import uploaded_matches_allowed
from arena.record.versions import PROMPT_VERSION, code_version
from games import Game, get_game

# -- matches -----------------------------------------------------------------------------


#: Seeds are drawn below 2**53: too many to search for the one behind a deal, and exact as JSON numbers everywhere.
SEED_RANGE = 2**53


def new_seed() -> int:
    """A fresh random seed, unpredictable to anyone who sees earlier ones."""
    return secrets.randbelow(SEED_RANGE)


def secret_seeds(label: str, start: int, count: int) -> list[int]:
    """Seeds `start` … `start + count - 1` of the site's secret seed set `label` (an evaluation protocol's part):
    drawn once per site — keyed by its SECRET_KEY, so the same on every call and unknown to anyone without it —
    and never the small consecutive seeds a reproducible run uses."""
    key = settings.SECRET_KEY.encode()
    return [
        int.from_bytes(hmac.digest(key, f"seed-set/{label}/{index}".encode(), "sha256")[:8]) % SEED_RANGE
        for index in range(start, start + count)
    ]


def variant_options(game: str, variant: str) -> dict:
    """The `initial_state` options of one of a game's variants ("" is the standard rules)."""
    if not variant:
        return {}
    rules = get_game(game)
    if variant not in rules.variants:
        choices = ", ".join(["standard", *rules.variants])
        raise ServiceError(f"{rules.name} has no variant {variant!r}; choose from: {choices}.")
    return rules.variants[variant]


def seating_refusal(game: Game, state: Any, agents: list[Agent]) -> str:
    """Why `agents` cannot play `game` from `state` (`match_seating`'s first reason), or ""."""
    reasons = match_seating.send(sender=Match, game=game, state=state, agents=agents)
    return next((reason for _, reason in reasons if reason), "")


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
    if why := seating_refusal(game_obj, state, agents):
        raise ServiceError(why)
    versions = [agent.current_version() for agent in agents]
    if tournament is None:  # a tournament's matches are bounded by its own limits
        uploaded_matches_allowed(versions)
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
    by = by_holder(worker, release_to)
    return decisions_write(locked=locked, ply=ply, decisions=[decision], by=by, facts=facts).match


@dataclass(frozen=True)
class Recorded:
    """A write of decisions: the match as it left it, and the decisions it stored, in ply order (with their ids),
    for a caller that draws the match next (the move list need not read them back)."""

    match: Match
    decisions: tuple[Decision, ...]


@transaction.atomic
def decisions_record(
    *,
    match: Match,
    ply: int,
    decisions: Sequence[DecisionResult],
    worker: str | None = None,
    release_to: Collection[int] = (),
    as_left: bool = False,
) -> Recorded:
    """Record consecutive decisions from `ply` on (a run of bots' turns) in one transaction, as
    `decision_record` would one by one: all of them or, on any refusal, none.

    `as_left`: `match` is as `worker`'s own last write left it (its own, or the person's move that handed it over:
    no tries can wait at its ply), so it is not read again: the record is written only if it still stands there.
    """
    as_left = as_left and worker is not None and match.claimed_by == worker and match.ply == ply
    by = by_holder(worker, release_to, as_left=as_left)
    locked = copy.copy(match) if as_left else match_lock(match_id=match.pk)  # a copy: the caller's, if refused, stays
    return decisions_write(locked=locked, ply=ply, decisions=decisions, by=by)


#: `match_lock`'s query, built once: building its EXISTS each time cost as much as the read.
LOCK_QUERY = Match.objects.select_for_update().annotate(
    tries_waiting=Exists(Attempt.objects.filter(match=OuterRef("pk"), ply=OuterRef("ply")))
)
#: LOCK_QUERY's SQL, compiled once too: compiling it cost twice what running it did.
LOCK_READ = ByPrimaryKey(LOCK_QUERY)


def match_lock(*, match_id: int, query: ByPrimaryKey[Match] = LOCK_READ) -> Match:
    """The match, locked until the caller's transaction ends, with `tries_waiting` (whether tries were turned
    down at its ply: its next decision takes them), in one statement; `query`: LOCK_QUERY with more annotations."""
    return query.get(match_id)


def decisions_write(
    *,
    locked: Match,
    ply: int,
    decisions: Sequence[DecisionResult],
    by: ByHolder | ByPerson | None = None,
    facts: dict[str, Any] | None = None,
) -> Recorded:
    """`decisions_record`'s work, inside the caller's transaction on a match `match_lock` locked in it.

    `by`: who records, which decides who holds the match afterwards (arena.record.turns): its holder (None: a
    setup or tool outside any run). A holder's `as_left` copy is not read in this transaction: the write is
    refused (ServiceError, nothing recorded) unless the match still stands at `ply`, run by that worker.
    """
    if locked.status != Match.Status.RUNNING:
        raise ServiceError(f"Match {locked.pk} is {locked.status}; no more moves can be recorded.")
    if refusal := write_refused(by, locked):
        raise ServiceError(refusal)
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
        rows_insert(rows)
    except IntegrityError:
        raise ServiceError(f"Match {locked.pk} already has a decision at ply {ply}.") from None
    unread = isinstance(by, ByHolder) and by.as_left
    waiting = not unread and locked.tries_waiting  # `match_lock` read it; an `as_left` copy has none by definition
    _attempts_attach(locked, rows, [result.attempts for result in decisions], tries_waiting=waiting)
    now = timezone.now()
    to_move = game.current_player(state)
    fields = ["state", "ply", "heartbeat_at"]
    if (holder := holder_after(by, locked, to_move, now)) is not None:
        locked.claimed_by = holder
        fields.append("claimed_by")
    locked.state = state_json
    locked.ply = ply + len(rows)  # safe: the row is locked (or `unread`'s write checks it) and `ply` was checked
    locked.heartbeat_at = now
    if locked.pause is not None:  # the model server answered: the outage it waited out is over
        locked.pause = None
        fields.append("pause")
    if unread:
        still_there = {"pk": locked.pk, "status": Match.Status.RUNNING, "claimed_by": by.worker, "ply": ply}
        if not rows_update(Match, where=still_there, values={name: getattr(locked, name) for name in fields}):
            raise ServiceError(f"Match {locked.pk} ended or changed hands before ply {ply} was recorded.")
        fields = []
    if to_move is None:
        outcome = game.outcome(state)
        scores = list(outcome.scores)
        _close(locked, status=Match.Status.FINISHED, scores=scores, termination=outcome.reason, also=fields)
    elif fields:
        locked.save(update_fields=fields)
    return Recorded(locked, tuple(rows))


def _attempts_attach(
    match: Match, decisions: list[Decision], attempts: list[list[AttemptData]], *, tries_waiting: bool
) -> None:
    """Store each decision's attempts. Tries turned down earlier (a person's illegal moves, a paused model's failed
    calls) belong to the first decision and its attempts are numbered after them: a try is stored only at the
    match's current ply, so the later decisions of a batch, at plies the record had not reached, have none."""
    first = decisions[0]
    earlier = 0
    if tries_waiting:
        earlier = Attempt.objects.filter(match=match, ply=first.ply, seat=first.seat).update(decision=first)
    if not any(attempts):
        return  # bots' decisions: no tries to store
    rows_insert(
        [
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
        ]
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
