"""The only writers of studies: set-up, joining, answers, starting assigned matches, progress (void matches
included), exclusion, withdrawal and erasure."""

from __future__ import annotations

import contextlib
import random
import secrets
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.text import slugify

from arena.models import Agent, Match
from arena.record.agents import agent_create
from arena.record.people import person_match_create, person_resign
from arena.record.services import ServiceError, match_abort, seating_refusal
from arena.studies.codes import keyed_hash, redirect_url_check
from arena.studies.design import conditions, plan
from arena.studies.models import ENDED, Assignment, Participant, Study, StudyConsent
from arena.studies.questions import answers_check, asked, questions_check
from games import UnknownGame, get_game

#: Most games and opponents a study may list, and matches per participant: a participant's session stays short.
MAX_GAMES = 8
MAX_MATCHES_PER_PARTICIPANT = 40
#: How often a match voided because the opponent stalled is replayed; after that the assignment ends void.
MAX_REPLAYS = 2
#: The bounds of a time per move, study-wide or per game (as the lobby's).
MIN_MOVE_TIME_S, MAX_MOVE_TIME_S = 5, 3600


def design_check(design: list[dict], games_per_opponent: int) -> None:
    """ServiceError unless every game exists and every opponent is an active non-person agent that plays it."""
    if not design:
        raise ServiceError("List at least one game.")
    if len(design) > MAX_GAMES:
        raise ServiceError(f"A study has at most {MAX_GAMES} games.")
    games = [block["game"] for block in design]
    if len(set(games)) != len(games):
        raise ServiceError("List each game once.")
    total = 0
    for block in design:
        try:
            get_game(block["game"])
        except UnknownGame:
            raise ServiceError(f"There is no game {block['game']!r}.") from None
        if not block["opponents"]:
            raise ServiceError(f"List at least one opponent for {block['game']}.")
        opponents = []
        for slug in block["opponents"]:
            agent = Agent.objects.filter(slug=slug, is_active=True).exclude(kind=Agent.Kind.HUMAN).first()
            if agent is None:
                raise ServiceError(f"There is no active bot or model {slug!r}.")
            if agent.game and agent.game != block["game"]:
                raise ServiceError(f"{slug} plays {agent.game}, not {block['game']}.")
            opponents.append(agent)
        options_check(block, opponents)
        total += len(block["opponents"]) * games_per_opponent
    if total > MAX_MATCHES_PER_PARTICIPANT:
        raise ServiceError(f"That is {total} matches per participant; at most {MAX_MATCHES_PER_PARTICIPANT}.")


def options_check(block: dict, opponents: list[Agent]) -> None:
    """ServiceError unless the block's game options start a game the opponents can play and its time per move is
    within bounds."""
    rules = get_game(block["game"])
    try:
        opening = rules.initial_state(seed=0, **block.get("options", {}))
    except (ValueError, TypeError) as error:
        raise ServiceError(f"{block['game']}: {error}") from None
    if why := seating_refusal(rules, opening, opponents):
        raise ServiceError(f"{block['game']}: {why}")
    limit = block.get("move_time_limit_s")
    if limit is not None and not (isinstance(limit, int) and MIN_MOVE_TIME_S <= limit <= MAX_MOVE_TIME_S):
        raise ServiceError(
            f"{block['game']}: the time per move is a whole number of seconds from {MIN_MOVE_TIME_S} to "
            f"{MAX_MOVE_TIME_S}."
        )


@transaction.atomic
def study_save(*, study: Study | None = None, consent_text: str, created_by=None, **fields) -> Study:
    """Create a study or change its set-up. A changed consent text becomes a new version; participants keep
    the version they accepted. The design cannot change once someone has joined."""
    consent_text = consent_text.strip()
    if not consent_text:
        raise ServiceError("A study needs a consent text.")
    design_check(fields["design"], fields["games_per_opponent"])
    redirect_url_check(fields.get("redirect_url", ""))
    questions_check(fields.get("questions", []))
    if study is None:
        study = Study(created_by=created_by, **fields)
    else:
        joined = study.participants.exists()
        fixed = ("design", "games_per_opponent", "questions")
        if joined and any(fields.get(name, getattr(study, name)) != getattr(study, name) for name in fixed):
            raise ServiceError(
                "People have joined: the games, opponents and questions are fixed now; start a new study."
            )
        for name, value in fields.items():
            setattr(study, name, value)
    study.save()
    current = study.consent()
    if current is None or current.text != consent_text:
        StudyConsent.objects.create(study=study, version=(current.version + 1 if current else 1), text=consent_text)
    return study


@transaction.atomic
def study_open_set(*, study: Study, is_open: bool) -> Study:
    study.is_open = is_open
    study.save(update_fields=["is_open"])
    return study


@transaction.atomic
def participant_join(*, study: Study, consent_version: int, external_id: str = "") -> Participant:
    """A participant who accepted consent version `consent_version`: pseudonymous code, guest seat, order of games
    and matches. An outside id joins once: the participant is then their session's (the pages keep the code there),
    and joining again with the id is refused without saying anything of the participant."""
    study = Study.objects.select_for_update().get(pk=study.pk)
    external_hash = keyed_hash(study, external_id) if external_id else ""
    if external_hash and study.participants.filter(external_id_hash=external_hash).exists():
        raise ServiceError(
            "This participant id has already joined this study. Continue in the browser you joined from; if that is "
            "not possible, contact the researcher."
        )
    consent = study.consent()
    if consent.version != consent_version:
        raise ServiceError("The consent text changed while you were reading it; please read it again.")
    if not study.is_open:
        raise ServiceError("This study is closed.")
    if study.participants.count() >= study.max_participants:
        raise ServiceError("This study has all the participants it needs. Thank you for your interest.")
    last = study.participants.aggregate(last=Max("number"))["last"]
    number = 0 if last is None else last + 1  # arrival order; a withdrawal frees a place, not a number
    code = f"P{secrets.token_hex(4).upper()}"
    agent = agent_create(  # slugify: a study's slug may hold "--", which agents' slugs keep for evaluations
        slug=slugify(f"study-{study.slug[:40]}-{code}"), name=code, kind=Agent.Kind.HUMAN, config={}, is_active=False
    )
    seed = secrets.randbits(63) if study.order == Study.Order.RANDOM else None
    sequence = conditions(study.design, study.order, number, random.Random(seed))
    order = list(dict.fromkeys(game for game, _ in sequence))  # the games by first appearance
    participant = Participant.objects.create(
        study=study,
        code=code,
        number=number,
        external_id_hash=external_hash,
        consent=consent,
        agent=agent,
        answered=not (study.questionnaire or asked(study.questions, "pre")),
        game_order=order,
        order_seed=seed,
    )
    seats = {game: get_game(game).num_players for game in order}
    opponents = {a.slug: a for a in Agent.objects.filter(slug__in={s for b in study.design for s in b["opponents"]})}
    planned = plan(sequence, study.games_per_opponent, number, seats)
    Assignment.objects.bulk_create(
        Assignment(participant=participant, position=i, game=p.game, opponent=opponents[p.opponent], seat=p.seat)
        for i, p in enumerate(planned)
    )
    return participant


EXPERIENCE = ("none", "some", "expert")


@transaction.atomic
def participant_answer(
    *, participant: Participant, experience: dict[str, str], answers: dict[str, str] | None = None
) -> Participant:
    """Store what is asked before the first match: the participant's experience with each of the study's games
    (with the questionnaire) and the answers to the study's own "pre" questions."""
    study = participant.study
    games = study.games()
    stored = {}
    if study.questionnaire:
        if set(experience) != set(games) or any(v not in EXPERIENCE for v in experience.values()):
            raise ServiceError("Answer the question for every game: none, some or expert.")
        stored["experience"] = {game: experience[game] for game in games}
    if pre := asked(study.questions, "pre"):
        stored["questions"] = answers_check(pre, answers or {})
    participant.answers = stored
    participant.answered = True
    participant.save(update_fields=["answers", "answered"])
    return participant


def post_pending(participant: Participant) -> bool:
    """Whether the study asks "post" questions this participant has not answered yet."""
    answered = participant.answers.get("questions", {})
    return any(q["id"] not in answered for q in asked(participant.study.questions, "post"))


@transaction.atomic
def participant_answer_after(*, participant: Participant, answers: dict[str, str]) -> Participant:
    """Store the answers to the study's "post" questions, asked once every assigned match has ended."""
    if participant_progress(participant=participant) is not None:
        raise ServiceError("These questions come after your last match.")
    participant.refresh_from_db()
    post = answers_check(asked(participant.study.questions, "post"), answers)
    participant.answers = {**participant.answers, "questions": {**participant.answers.get("questions", {}), **post}}
    participant.save(update_fields=["answers"])
    return participant


@transaction.atomic
def participant_progress(*, participant: Participant) -> Assignment | None:
    """Bring the record up to date (ended matches, abandoned ones marked, completion) and return the assignment
    to play now (its match running or not yet created), or None when every assigned match has ended."""
    participant = Participant.objects.select_for_update().get(pk=participant.pk)
    now = timezone.now()
    current = None
    for assignment in participant.assignments.select_related("match"):
        if stalled(participant.study, assignment, now):
            assignment_void(assignment=assignment)
        match = assignment.match
        if match is not None and match.status in ENDED:
            if match.termination.startswith("abandoned") and not assignment.abandoned:
                assignment.abandoned = True
                assignment.save(update_fields=["abandoned"])
            continue
        current = assignment
        break
    if current is None and participant.completed_at is None and participant.agent_id is not None:
        participant.completed_at = now
        participant.save(update_fields=["completed_at"])
    return current


def stalled(study: Study, assignment: Assignment, now: datetime) -> bool:
    """Whether the assignment's match is going and its opponent, to move, has not moved for the study's
    `void_after_s` (since its last decision, or the match's start)."""
    due = stalls_at(study, assignment)
    return due is not None and now >= due


def stalls_at(study: Study, assignment: Assignment) -> datetime | None:
    """When the assignment's match counts as stalled if its opponent, to move now, has not moved by then: the
    study's `void_after_s` after its last decision (or the match's start). None: no void rule, the match is over
    or not started, or the participant is to move."""
    match = assignment.match
    if study.void_after_s is None or match is None or match.status in ENDED or match.state is None:
        return None
    rules = get_game(match.game)
    to_move = rules.current_player(rules.from_json(match.state))
    if to_move is None or to_move == assignment.seat:
        return None
    last = match.decisions.order_by("-ply").values_list("created_at", flat=True).first()
    return (last or match.started_at or match.created_at) + timedelta(seconds=study.void_after_s)


@transaction.atomic
def match_void_if_stalled(*, match_id: int) -> tuple[Match | None, datetime | None]:
    """The void rule applied to one study match now, by a worker, so it holds whether or not anyone opens a study
    page: the match if it was voided (its assignment freed for the replay), else when its opponent would count as
    stalled (None: not its turn, the match is over, or it is no study's)."""
    assignment = Assignment.objects.filter(match_id=match_id).select_related("participant").first()
    if assignment is None:
        return None, None
    # The participant's lock, as `participant_progress` takes it: one of the two voids the match, never both.
    participant = Participant.objects.select_for_update().select_related("study").get(pk=assignment.participant_id)
    assignment = participant.assignments.select_related("match").get(pk=assignment.pk)
    if assignment.match_id != match_id:
        return None, None  # voided already, by a study page opened meanwhile
    if not stalled(participant.study, assignment, timezone.now()):
        return None, stalls_at(participant.study, assignment)
    assignment_void(assignment=assignment)
    return Match.objects.get(pk=match_id), None


@transaction.atomic
def assignment_void(*, assignment: Assignment) -> Assignment:
    """Abort the assignment's match as void (the opponent stalled: no result for either side) and free the
    assignment to be replayed, MAX_REPLAYS times at most; after that it ends void."""
    study = assignment.participant.study
    match_abort(match=assignment.match, reason=f"void: the opponent did not move for {study.void_after_s} s")
    assignment.void_matches = [*assignment.void_matches, str(assignment.match.uid)]
    if len(assignment.void_matches) <= MAX_REPLAYS:
        assignment.match = None
    assignment.save(update_fields=["void_matches", "match"])
    return assignment


@transaction.atomic
def participant_seen(*, participant: Participant) -> None:
    Participant.objects.filter(pk=participant.pk).update(last_seen_at=timezone.now())


@transaction.atomic
def assignment_start(*, participant: Participant) -> Match:
    """The participant's current match: the running one, or a new one against the assigned opponent and seat."""
    if not participant.answered:
        raise ServiceError("Answer the short questionnaire first.")
    if participant.excluded_at is not None:
        raise ServiceError("Your participation has ended. Thank you.")
    assignment = participant_progress(participant=participant)
    if assignment is None:
        raise ServiceError("You have played every match of this study. Thank you!")
    assignment = Assignment.objects.select_for_update().select_related("match", "opponent").get(pk=assignment.pk)
    if assignment.match is not None:
        return assignment.match
    study = participant.study
    block = next(block for block in study.design if block["game"] == assignment.game)
    match = person_match_create(
        person=participant.agent,
        opponent=assignment.opponent,
        game=assignment.game,
        seat=assignment.seat,
        move_time_limit_s=block.get("move_time_limit_s") or study.move_time_limit_s,
        options=block.get("options", {}),
    )
    record = {"study": study.slug}  # the live page then links back to the study
    if study.blind_opponents:  # the match's pages name the opponent by its label (arena.pages.rendering)
        label = study.opponent_label(assignment.game, assignment.opponent.slug)
        record["seat_labels"] = {str(i): label for i in range(get_game(match.game).num_players) if i != assignment.seat}
    if study.focused:
        record["focused"] = True
    if study.void_after_s:  # the live page tells the participant
        record["void_after_s"] = study.void_after_s
    match.record = {**match.record, **record}
    match.save(update_fields=["record"])
    assignment.match = match
    assignment.save(update_fields=["match"])
    return match


@transaction.atomic
def participant_exclude(*, participant: Participant, reason: str) -> Participant:
    """Leave a participant out of every table, the baseline and its intervals (the record keeps why)."""
    reason = reason.strip()
    if not reason:
        raise ServiceError("Say why this participant is excluded.")
    participant.excluded_at = timezone.now()
    participant.exclusion_reason = reason[:300]
    participant.save(update_fields=["excluded_at", "exclusion_reason"])
    return participant


@transaction.atomic
def participant_include(*, participant: Participant) -> Participant:
    participant.excluded_at = None
    participant.exclusion_reason = ""
    participant.save(update_fields=["excluded_at", "exclusion_reason"])
    return participant


@transaction.atomic
def participant_withdraw(*, participant: Participant) -> None:
    """Delete the participant's record: answers, consent record, outside-id hash, order and the link to their
    matches. The matches stay in the public record, anonymous: their seat is renamed and tied to nobody."""
    agent = participant.agent
    if agent is not None:
        for assignment in participant.assignments.select_related("match"):
            if assignment.match is not None and assignment.match.status not in ENDED:
                with contextlib.suppress(ServiceError):  # it ended meanwhile
                    person_resign(match_id=assignment.match_id, agent=agent)
        agent.name = "Withdrawn participant"
        agent.save(update_fields=["name"])
    Study.objects.filter(pk=participant.study_id).update(withdrawn=F("withdrawn") + 1)
    participant.delete()


@transaction.atomic
def study_erase(*, study: Study) -> int:
    """The end of a study's retention: every participant's record deleted as a withdrawal deletes it (running
    matches resigned, seats renamed, the matches kept anonymous), then the study itself (design, consent texts,
    questions, counts). Returns how many participants' records were deleted."""
    participants = list(study.participants.select_related("agent", "study"))
    for participant in participants:
        participant_withdraw(participant=participant)
    study.delete()
    return len(participants)
