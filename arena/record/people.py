"""Services for people: their seats (accounts and guests), consent, challenges and moves.

Like `arena.record.services`, these are the only functions that write what they touch.
"""

from __future__ import annotations

import random
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.text import slugify

from arena.limits import play_limit
from arena.models import Agent, Attempt, Challenge, Decision, Match, Seat, Tournament
from arena.record.compiled import ByPrimaryKey
from arena.record.decisions import AttemptData, DecisionResult
from arena.record.selectors import seat_versions, socket_seats
from arena.record.services import (
    LOCK_QUERY,
    Recorded,
    ServiceError,
    attempt_record_rejected,
    decisions_write,
    match_create,
    match_lock,
    match_resign,
    variant_options,
)
from arena.record.signals import agents_merged
from arena.record.turns import ByPerson
from games import IllegalAction, get_game

#: Longest move text a person may send: room for a plan game's JSON plan, nothing near a flood.
MAX_MOVE_TEXT = 12_000


def person_agent_for_user(*, user) -> Agent:
    """The agent that seats this account in matches, created on first use."""
    agent = Agent.objects.filter(user=user).first()
    if agent is not None:
        return agent
    with transaction.atomic():
        base = f"u-{slugify(user.get_username())[:60] or 'person'}"
        slug = base if not Agent.objects.filter(slug=base).exists() else f"{base}-{secrets.token_hex(3)}"
        agent = Agent.objects.create(slug=slug, name=user.get_username(), kind=Agent.Kind.HUMAN, user=user)
        agent.versions.create(number=1, config={})
    return agent


@transaction.atomic
def account_create(*, form, guest: Agent | None):
    """The account of a valid sign-up `form` (Django's UserCreationForm) with its seat: the guest this browser
    played as, else a new one. One transaction, so a refused claim leaves no account without a seat behind."""
    user = form.save()
    if guest is not None:
        guest_claim(guest=guest, user=user)
    else:
        person_agent_for_user(user=user)
    return user


@transaction.atomic
def guest_claim(*, guest: Agent, user) -> Agent:
    """Make a guest's agent the new account's own: its games, rating and consent stay with it, and it takes the
    account's name so one name shows everywhere. Only an unclaimed guest, for an account without an agent."""
    guest = Agent.objects.select_for_update().get(pk=guest.pk)
    if guest.kind != Agent.Kind.HUMAN or guest.user_id is not None:
        raise ServiceError("Only a guest's own seat can be claimed.")
    if Agent.objects.filter(user=user).exists():
        raise ServiceError("This account already has its seat.")
    guest.user = user
    guest.name = user.get_username()
    guest.save(update_fields=["user", "name"])
    return guest


def guest_pending_merge(*, guest: Agent | None, user) -> Agent | None:
    """The guest a signed-in account may take over: an unclaimed guest with finished games, not the account's own."""
    if guest is None or guest.kind != Agent.Kind.HUMAN or guest.user_id is not None or guest.owner_id is not None:
        return None
    if not Seat.objects.filter(agent_version__agent=guest).exists():
        return None
    return guest


@transaction.atomic
def guest_merge(*, guest: Agent, user) -> Agent:
    """Move a guest's games into an existing account's agent and delete the guest: seats, open challenges and
    ladder climbs follow; the account's consent stays, or takes the guest's if it never answered; ratings refit.

    Refused while the guest has an unfinished game, or when the guest played against the account itself."""
    guest = Agent.objects.select_for_update().get(pk=guest.pk)
    if guest_pending_merge(guest=guest, user=user) is None:
        raise ServiceError("Only a guest's own games, played before signing in, can be merged.")
    account = person_agent_for_user(user=user)
    seats = Seat.objects.filter(agent_version__agent=guest)
    unfinished = seats.exclude(match__status__in=[Match.Status.FINISHED, Match.Status.ABORTED])
    if unfinished.exists():
        raise ServiceError(f"Finish or resign game {unfinished.first().match_id} first; then merge.")
    shared = Seat.objects.filter(match__in=seats.values("match"), agent_version__agent=account)
    if shared.exists():
        raise ServiceError(f"As a guest you played this account in game {shared.first().match_id}; it cannot merge.")
    match_ids = list(seats.values_list("match_id", flat=True).distinct())
    seats.update(agent_version=account.current_version())
    guest.challenges.update(creator=account)
    for match in Match.objects.filter(pk__in=match_ids, record__ladder__candidate=guest.slug):
        match.record["ladder"]["candidate"] = account.slug
        match.save(update_fields=["record"])
    for tournament in Tournament.objects.filter(matches__in=match_ids).distinct():
        tournament.config["agents"] = [account.slug if s == guest.slug else s for s in tournament.config["agents"]]
        tournament.save(update_fields=["config"])
    if account.baseline_consent is None and guest.baseline_consent is not None:
        account.baseline_consent = guest.baseline_consent
        account.save(update_fields=["baseline_consent"])
    agents_merged.send(sender=Agent, source=guest, target=account, match_ids=match_ids)
    guest.delete()
    return account


@transaction.atomic
def guest_agent_create(*, nickname: str) -> Agent:
    """A guest's seat: a nickname, no account. Its slug is kept in the guest's session."""
    nickname = nickname.strip()
    if not 1 <= len(nickname) <= 40:
        raise ServiceError("Choose a nickname of 1 to 40 characters.")
    slug = f"guest-{slugify(nickname)[:40] or 'player'}-{secrets.token_hex(3)}"
    agent = Agent.objects.create(slug=slug, name=nickname, kind=Agent.Kind.HUMAN)
    agent.versions.create(number=1, config={})
    return agent


@transaction.atomic
def person_consent_set(*, agent: Agent, consent: bool) -> Agent:
    """Record whether this person's games may be used as human-baseline data."""
    if agent.kind != Agent.Kind.HUMAN:
        raise ServiceError("Only people give baseline consent.")
    agent.baseline_consent = consent
    agent.save(update_fields=["baseline_consent"])
    return agent


def _seat_order(person: Agent, opponent: Agent, seat: int | None, seats: int, rng: random.Random) -> list[Agent]:
    """The person in `seat` (None: drawn at random), the opponent agent in every other seat."""
    if seat is None:
        seat = rng.randrange(seats)
    if not 0 <= seat < seats:
        raise ServiceError(f"Choose a seat from 0 to {seats - 1}, or random.")
    return [person if index == seat else opponent for index in range(seats)]


def person_match_create(
    *,
    person: Agent,
    opponent: Agent,
    game: str,
    seat: int | None,
    move_time_limit_s: int | None = None,
    variant: str = "",
    options: dict | None = None,
) -> Match:
    """A person against a bot or a model, the person in `seat` (None: drawn at random); `options` are the game's
    own (a study's hand count), over the variant's."""
    if person.kind != Agent.Kind.HUMAN:
        raise ServiceError("Only a person can start a match from the lobby.")
    options = {**variant_options(game, variant), **(options or {})}
    agents = _seat_order(person, opponent, seat, get_game(game).num_players, random.SystemRandom())
    policies = {"move_time_limit_s": move_time_limit_s} if move_time_limit_s else {}
    return match_create(game=game, agents=agents, options=options, policies=policies)


@transaction.atomic
def challenge_create(
    *, creator: Agent, game: str, seat: int | None, move_time_limit_s: int | None = None, variant: str = ""
) -> Challenge:
    """An open challenge other people can accept."""
    variant_options(game, variant)
    if creator.kind != Agent.Kind.HUMAN:
        raise ServiceError("Only people post challenges.")
    return Challenge.objects.create(
        creator=creator, game=game, seat=seat, move_time_limit_s=move_time_limit_s, variant=variant
    )


@transaction.atomic
def challenge_cancel(*, challenge: Challenge, person: Agent) -> None:
    """Withdraw an open challenge; only its creator may, and only before someone accepted it."""
    challenge = Challenge.objects.select_for_update().get(pk=challenge.pk)
    if challenge.creator_id != person.pk:
        raise ServiceError("Only the person who posted a challenge can cancel it.")
    if challenge.match_id is not None:
        raise ServiceError("Someone already accepted this challenge; the game has started.")
    challenge.delete()


@transaction.atomic
def challenge_accept(*, challenge: Challenge, accepter: Agent) -> Match:
    """Start the challenge's match; each challenge is accepted at most once."""
    challenge = Challenge.objects.select_for_update().get(pk=challenge.pk)
    if challenge.match_id is not None:
        raise ServiceError("Someone already accepted this challenge.")
    if accepter.pk == challenge.creator_id:
        raise ServiceError("You cannot accept your own challenge.")
    match = person_match_create(
        person=challenge.creator,
        opponent=accepter,
        game=challenge.game,
        seat=challenge.seat,
        move_time_limit_s=challenge.move_time_limit_s,
        variant=challenge.variant,
    )
    challenge.match = match
    challenge.save(update_fields=["match"])
    return match


def person_seats(match: Match, agent: Agent | None) -> list[int]:
    """The seats `agent` holds in `match` (none for spectators): while it is played, from the seats a process reads
    once per match (`seat_versions`: the socket that opened it, its runner and its moves share one read); once it
    is over, read afresh (a guest's games move to their account then)."""
    if agent is None:
        return []
    live = match.status in (Match.Status.PENDING, Match.Status.RUNNING)
    versions = seat_versions(match.uid) if live else seat_versions.__wrapped__(match.uid)
    return [index for index, version in enumerate(versions) if version.agent_id == agent.pk]


def person_move(*, match_id: int, agent: Agent, text: str, ply: int, runner: str = "") -> Recorded:
    """A person's move, as typed or clicked: the match afterwards and the decision recorded. Illegal moves are
    recorded as rejected tries and raise.

    Raises ServiceError (not your turn, stale position) or IllegalAction (with the rules' message);
    in both cases nothing about the game changes. `runner`: this process's runner, which the match is
    handed to in the same write when a bot or a model is to reply (`match.claimed_by == runner`: the
    caller then starts it with `run_match(..., handed=match)`).
    """
    with transaction.atomic():  # one read, locked, then the writes: the match is not read twice
        match = match_lock(match_id=match_id, query=_MOVE_READ)
        since = _thinking_since(match)
        game, state, seat = _check_turn(match, agent, ply)
        text = text.strip()
        if len(text) > MAX_MOVE_TEXT:
            raise ServiceError(f"A move is at most {MAX_MOVE_TEXT:,} characters.")
        try:
            action = game.parse_action(state, text)
            game.require_legal(state, action)
        except IllegalAction as error:
            refused = error  # recorded after this transaction, which would otherwise roll the record back
        else:
            return _move_write(match, game, state, action, text, runner, since)
    person_rejection_record(match=match, ply=ply, seat=seat, text=text, message=str(refused))
    raise refused


def _check_turn(match: Match, agent: Agent, ply: int) -> tuple[Any, Any, int]:
    """The game, state and seat to move, if a move by `agent` at `ply` may be made now (ServiceError if not)."""
    if match.status != Match.Status.RUNNING:
        raise ServiceError(f"This match is {match.get_status_display().lower()}; no more moves.")
    game = get_game(match.game)
    state = game.from_json(match.state)
    seat = game.current_player(state)
    if seat not in (mine := person_seats(match, agent)):
        raise ServiceError("It is not your turn." if mine else "You are not playing this match.")
    if ply != match.ply:
        raise ServiceError("The position changed before your move arrived; look again and retry.")
    return game, state, seat


def _move_write(match: Match, game: Any, state: Any, action: Any, text: str, runner: str, since: datetime) -> Recorded:
    """Record a legal move on the locked `match`, handing the reply to `runner` if a bot or a model makes it;
    the person has been thinking `since` then."""
    thought_s = time_used_s(since)
    if game.clock_runs(state):  # real-time games: the person's thinking delays the command
        action = game.arrival(state, action, thought_s)
    elapsed_ms = round(thought_s * 1000)  # a person's thinking time, recorded like a model's
    attempt = AttemptData(verdict="ok", raw_text=text, latency_ms=elapsed_ms)
    decision = DecisionResult(action=action, attempts=[attempt], elapsed_ms=elapsed_ms)
    by = ByPerson(runner=runner, people=socket_seats(match.uid))
    return decisions_write(locked=match, ply=match.ply, decisions=[decision], by=by)


@transaction.atomic
def person_rejection_record(*, match: Match, ply: int, seat: int, text: str, message: str) -> None:
    """Store a person's rejected move, or, once `rejected_tries_kept` are stored for this decision,
    count it on the last one stored (`unstored_rejections`): a flood costs a counter, not a row."""
    kept = Attempt.objects.select_for_update().filter(match=match, ply=ply, seat=seat).order_by("-number").first()
    if kept is not None and kept.number >= play_limit("rejected_tries_kept"):
        Attempt.objects.filter(pk=kept.pk).update(unstored_rejections=F("unstored_rejections") + 1)
        return
    attempt_record_rejected(
        match=match, ply=ply, seat=seat, attempt=AttemptData(verdict="illegal", raw_text=text, message=message)
    )


def _last_move_at() -> Subquery:
    """When the match's last decision was made (None before the first), as an annotation of the match."""
    return Subquery(Decision.objects.filter(match=OuterRef("pk")).order_by("-ply").values("created_at")[:1])


#: The annotation a move's read and a flag's read carry the last decision's time in, for `_thinking_since`.
_LAST_MOVE_AT = "last_move_at"
#: A move's read: the match, locked, with its clock (built and compiled once, as LOCK_READ).
_MOVE_READ = ByPrimaryKey(LOCK_QUERY.annotate(**{_LAST_MOVE_AT: _last_move_at()}))


def _thinking_since(match: Match) -> datetime:
    """Since when the side to move has been thinking (the last decision, else the start), from a match read with
    the `_LAST_MOVE_AT` annotation; the annotation is taken off, so the match goes on with only its fields."""
    last_move_at = vars(match).pop(_LAST_MOVE_AT)
    return last_move_at or match.started_at or match.created_at


def time_used_s(since: datetime) -> float:
    """Seconds the side to move has been thinking, `since` being `_thinking_since` the match."""
    return (timezone.now() - since).total_seconds()


def person_flag(*, match_id: int, agent: Agent | None) -> Match | None:
    """End the match on time if the side to move has overrun the per-move limit; None if not.

    Only a player of the match may call the flag (ServiceError for anyone else).
    """
    match = Match.objects.annotate(**{_LAST_MOVE_AT: _last_move_at()}).get(pk=match_id)
    since = _thinking_since(match)
    if not person_seats(match, agent):
        raise ServiceError("Only the players of this match can flag its clock.")
    limit = match.record.get("policies", {}).get("move_time_limit_s")
    if not limit or match.status != Match.Status.RUNNING or time_used_s(since) <= limit:
        return None
    seat = get_game(match.game).current_player(get_game(match.game).from_json(match.state))
    return match_resign(match=match, seat=seat, reason="ran out of time")


def person_resign(*, match_id: int, agent: Agent) -> Match:
    """The person gives up the match (their seat loses)."""
    match = Match.objects.get(pk=match_id)
    seats = person_seats(match, agent)
    if not seats:
        raise ServiceError("You are not playing this match.")
    return match_resign(match=match, seat=seats[0])


def matches_waiting_on_people(*, idle_s: int) -> QuerySet[Match]:
    """Running games nobody is working on (a person is to move) without a move for `idle_s` seconds."""
    last_move = Decision.objects.filter(match=OuterRef("pk")).order_by("-created_at").values("created_at")[:1]
    running = Match.objects.filter(status__in=[Match.Status.PENDING, Match.Status.RUNNING], claimed_by="")
    running = running.filter(paused_until=None)  # a paused match waits for its model server, not for a person
    with_people = running.filter(seats__agent_version__agent__kind=Agent.Kind.HUMAN).distinct()
    idle = with_people.annotate(last_activity=Coalesce(Subquery(last_move), "started_at", "created_at"))
    return idle.filter(last_activity__lt=timezone.now() - timedelta(seconds=idle_s)).order_by("last_activity")


def adjourned_ids(matches: list[Match]) -> set[int]:
    """Which of `matches` are adjourned: waiting on a person's move for ARENA_ADJOURN_AFTER_S or more."""
    waiting = matches_waiting_on_people(idle_s=settings.ARENA_ADJOURN_AFTER_S)
    return set(waiting.filter(pk__in=[m.pk for m in matches]).values_list("pk", flat=True))


def matches_abandoned_end(*, at_most: int = 20) -> list[Match]:
    """End games that waited on a person's move for ARENA_ABANDON_AFTER_S by the rules (the side to move loses),
    at most `at_most` per call; each end is its own transaction, so no caller holds the write lock for long."""
    minutes = settings.ARENA_ABANDON_AFTER_S // 60
    ended = []
    for match in matches_waiting_on_people(idle_s=settings.ARENA_ABANDON_AFTER_S)[:at_most]:
        game = get_game(match.game)
        seat = game.current_player(game.from_json(match.state))
        if seat is None:
            continue
        try:
            ended.append(match_resign(match=match, seat=seat, reason=f"abandoned (no move for {minutes} min)"))
        except ServiceError:
            continue  # a move or a resignation landed first
    return ended
