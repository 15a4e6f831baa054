"""What the study pages read: participants' status, results per opponent (Wilson), the pooled baseline, exports."""

from __future__ import annotations

import hashlib
import math
from datetime import timedelta

import numpy as np
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from arena.models import Agent, Match, Seat
from arena.studies.bootstrap import Rows, interval, participant_draws, pooled_rating, resample_ratings
from arena.studies.codes import completion_code
from arena.studies.models import ENDED, Assignment, Participant, Study
from arena.studies.questions import attention_failed
from ratings.maths.metrics import wilson_interval
from ratings.record.rated_matches import final_state, match_rated

#: Participant resamples behind a study baseline's interval (each refits the game's whole comparison graph).
STUDY_BOOTSTRAP_ROUNDS = 200


STATUSES = ("started", "completed", "incomplete", "dropped", "excluded")


def short(study: Study, assignment: Assignment) -> bool:
    """The assignment's match is over and fell short of the study's minimum plies or seconds."""
    match = assignment.match
    return match is not None and match.status in ENDED and not assignment.void() and not study.played_enough(match)


def short_matches(participant: Participant) -> int:
    """How many of the participant's matches ended short of the study's minimum plies or seconds."""
    return sum(short(participant.study, a) for a in participant.assignments.all())


def participant_status(participant: Participant, now=None) -> str:
    """excluded; completed (every assigned match ended, none abandoned, each as long as the study's minimum);
    incomplete (every match ended, none abandoned, one or more shorter than the minimum: no completion code); dropped
    (a match abandoned, or not finished and no visit for ARENA_ABANDON_AFTER_S); or started."""
    now = now or timezone.now()
    if participant.excluded_at is not None:
        return "excluded"
    abandoned = any(a.abandoned for a in participant.assignments.all())
    if participant.completed_at is not None and not abandoned:
        return "incomplete" if short_matches(participant) else "completed"
    idle = now - participant.last_seen_at > timedelta(seconds=settings.ARENA_ABANDON_AFTER_S)
    if abandoned or (idle and participant.completed_at is None):
        return "dropped"
    return "started"


def is_study_seat(agent: Agent) -> bool:
    """Whether `agent` is a study participant's seat (joined a study, or played a study's match after withdrawing):
    its page is its participant's and the researchers' only."""
    if agent.kind != Agent.Kind.HUMAN:
        return False
    return (
        agent.study_participations.exists()
        or Seat.objects.filter(agent_version__agent=agent, match__record__has_key="study").exists()
    )


def participant_counts(study: Study, table: list[dict]) -> dict[str, int]:
    """Attrition: how many joined (withdrawn included), then how many are in each status, and how many withdrew."""
    counts = {status: sum(1 for r in table if r["status"] == status) for status in STATUSES}
    return {"joined": len(table) + study.withdrawn} | counts | {"withdrawn": study.withdrawn}


def participants_table(study: Study) -> list[dict]:
    now = timezone.now()
    rows = []
    for participant in study.participants.select_related("consent").prefetch_related("assignments__match"):
        assignments = list(participant.assignments.all())
        played = sum(1 for a in assignments if a.match is not None and a.match.status == Match.Status.FINISHED)
        rows.append(
            {
                "participant": participant,
                "status": participant_status(participant, now),
                "played": played,
                "assigned": len(assignments),
                "abandoned": sum(a.abandoned for a in assignments),
                "short": short_matches(participant),
                "completion_code": completion_code(participant) if study.per_participant_codes else "",
                "attention_failed": attention_failed(study.questions, participant.answers.get("questions", {})),
            }
        )
    return rows


def participant_score(assignment) -> float | None:
    """The participant's score in the assignment's match (1, 0.5, 0), or None until it has finished."""
    match = assignment.match
    if match is None or match.status != Match.Status.FINISHED or not match.scores:
        return None
    return float(match.scores[assignment.seat])


def share_interval(study: Study, points: float, n: int, people: int) -> dict:
    """Score share over n matches of `people` participants, with its 95% Wilson interval, or none ("too few
    participants") below the study's minimum n: a handful of people says little of people in general."""
    too_few = people < study.min_n
    low, high = (None, None) if too_few else wilson_interval(points, n)
    return {"share": points / n if n else None, "low": low, "high": high, "people": people, "too_few": too_few}


def included(study: Study):
    return study.participants.filter(excluded_at__isnull=True)


def results_by_opponent(study: Study) -> list[dict]:
    """Per game and opponent, the included participants' finished matches: n, W/D/L, score share with its Wilson
    interval (a draw counts half a point), and how many participants played."""
    cells: dict[tuple[str, int], dict] = {}
    participants = included(study).prefetch_related("assignments__match", "assignments__opponent")
    for participant in participants:
        for assignment in participant.assignments.all():
            key = (assignment.game, assignment.opponent_id)
            cell = cells.setdefault(
                key,
                {"game": assignment.game, "opponent": assignment.opponent, "n": 0, "points": 0.0, "people": set()}
                | {"wins": 0, "draws": 0, "losses": 0},
            )
            score = participant_score(assignment)
            if score is None:
                continue
            cell["n"] += 1
            cell["points"] += score
            cell["people"].add(participant.pk)
            cell["wins" if score == 1.0 else "losses" if score == 0.0 else "draws"] += 1
    order = {block["game"]: (i, block["opponents"]) for i, block in enumerate(study.design)}
    table = []
    for cell in sorted(cells.values(), key=lambda c: (order[c["game"]][0], c["opponent"].slug)):
        table.append(cell | share_interval(study, cell["points"], cell["n"], len(cell["people"])))
    return table


def results_by_experience(study: Study) -> list[dict]:
    """Per game and self-reported experience (none / some / expert, "not asked" without a questionnaire), the
    included participants' finished matches against every opponent: participants, n, score share, Wilson."""
    cells: dict[tuple[str, str], dict] = {}
    for participant in included(study).prefetch_related("assignments__match"):
        experience = participant.answers.get("experience", {})
        for assignment in participant.assignments.all():
            level = experience.get(assignment.game, "not asked")
            cell = cells.setdefault((assignment.game, level), {"n": 0, "points": 0.0, "people": set()})
            if (score := participant_score(assignment)) is not None:
                cell["n"] += 1
                cell["points"] += score
                cell["people"].add(participant.pk)
    levels = ("none", "some", "expert", "not asked")
    order = {game: i for i, game in enumerate(study.games())}
    table = []
    for (game, level), cell in sorted(cells.items(), key=lambda kv: (order[kv[0][0]], levels.index(kv[0][1]))):
        table.append(
            {"game": game, "experience": level, "n": cell["n"]}
            | share_interval(study, cell["points"], cell["n"], len(cell["people"]))
        )
    return table


def score_shares(study: Study) -> dict[str, dict]:
    """Per game, the included participants' share of points over their finished study matches (a draw is half a
    point), with the matches and the participants (primary keys) behind it."""
    cells: dict[str, dict] = {}
    for participant in included(study).prefetch_related("assignments__match"):
        for assignment in participant.assignments.all():
            if (score := participant_score(assignment)) is None:
                continue
            cell = cells.setdefault(assignment.game, {"points": 0.0, "matches": 0, "people": set()})
            cell["points"] += score
            cell["matches"] += 1
            cell["people"].add(participant.pk)
    return {
        game: {"share": c["points"] / c["matches"], "matches": c["matches"], "people": frozenset(c["people"])}
        for game, c in cells.items()
    }


def _rows(study: Study, games: list[str], participants: list[Participant]) -> tuple[Rows, int, int, list[int]]:
    """The games' rated matches as pairwise rows with the included participants pooled into one agent: the rows,
    the number of agents, the pooled agent's index and the anchors (Lv0 bots, whose mean is 1000)."""
    own = {p.agent_id: i for i, p in enumerate(participants) if p.agent_id is not None}
    # Only the study's own matches count for its participants (their seats play nothing else, but be sure).
    study_matches = set(
        Assignment.objects.filter(participant__in=participants, match__isnull=False).values_list("match_id", flat=True)
    )
    left_out = set(study.participants.exclude(pk__in=[p.pk for p in participants]).values_list("agent_id", flat=True))
    matches = Match.objects.filter(status=Match.Status.FINISHED, scores__isnull=False, game__in=games)
    seat_agents: dict[int, dict[int, int]] = {}
    seats = Seat.objects.filter(match__in=matches).values_list("match_id", "index", "agent_version__agent_id")
    for match_id, index, agent_id in seats.iterator(chunk_size=20_000):
        seat_agents.setdefault(match_id, {})[index] = agent_id
    index: dict[int, int] = {}
    pooled = -1
    columns: dict[str, list] = {k: [] for k in ("a", "b", "score_a", "weight", "first_mover", "participant", "match")}
    games_of_match: dict[int, str] = {}
    fields = ("pk", "scores", "game", "options", "final")
    for pk, scores, game, options, state in matches.annotate(final=final_state()).values_list(*fields).iterator(2_000):
        rated = match_rated(game, options, state, scores, seat_agents.get(pk, {}))
        if rated is None or rated.key != game or left_out & set(rated.agents):
            continue
        if pk not in study_matches and own.keys() & set(rated.agents):
            continue
        for pair in rated.pairs:
            who = own.get(pair.a, own.get(pair.b, -1))
            ends = []
            for agent in (pair.a, pair.b):
                if agent in own:
                    if pooled < 0:
                        pooled = index.setdefault(-1, len(index))
                    ends.append(pooled)
                else:
                    ends.append(index.setdefault(agent, len(index)))
            if ends[0] == ends[1]:
                continue
            for name, value in zip(
                columns, (*ends, pair.score_a, pair.weight, rated.first_mover, who, pk), strict=True
            ):
                columns[name].append(value)
            games_of_match[pk] = game
    match_ids = np.array(columns.pop("match"), dtype=np.int64)
    weight = np.array(columns["weight"], dtype=float)
    if len(games) > 1 and match_ids.size:  # every game counts equally, as on the all-games leaderboard
        per_game: dict[str, int] = {}
        for game in games_of_match.values():
            per_game[game] = per_game.get(game, 0) + 1
        total = len(games_of_match)
        weight = weight * np.array([total / (len(per_game) * per_game[games_of_match[m]]) for m in match_ids])
    rows = Rows(
        a=np.array(columns["a"], dtype=np.int64),
        b=np.array(columns["b"], dtype=np.int64),
        score_a=np.array(columns["score_a"], dtype=float),
        weight=weight,
        first_mover=np.array(columns["first_mover"], dtype=float),
        participant=np.array(columns["participant"], dtype=np.int64),
    )
    agents = Agent.objects.in_bulk([pk for pk in index if pk >= 0])
    anchors = [
        i
        for pk, i in index.items()
        if pk >= 0 and agents[pk].kind == Agent.Kind.BOT and agents[pk].slug.endswith("-lv0")
    ]
    return rows, len(index), pooled, anchors


def _finite(value: float) -> float | None:
    return round(value, 1) if math.isfinite(value) else None


def baseline(study: Study, games: list[str], *, rounds: int = STUDY_BOOTSTRAP_ROUNDS, seed: int = 0) -> dict:
    """The pooled baseline of the study's included participants on `games` (the leaderboard's scale), its 95%
    interval from resampling participants, and n (participants with a finished match there, and matches)."""
    participants = list(included(study).filter(agent__isnull=False).order_by("number"))
    rows, n_agents, pooled, anchors = _rows(study, games, participants)
    mine = rows.participant >= 0
    people = np.unique(rows.participant[mine])
    result = {"games": games, "participants": int(people.size), "matches": 0, "rating": None, "lower": None}
    result |= {"upper": None, "unbounded": False, "too_few": people.size < study.min_n}
    if pooled < 0 or not people.size:
        return result
    # Participants with no finished match here take no part: resample those who played.
    remap = np.full(len(participants), -1)
    remap[people] = np.arange(people.size)
    rows = Rows(
        rows.a, rows.b, rows.score_a, rows.weight, rows.first_mover, np.where(mine, remap[rows.participant.clip(0)], -1)
    )
    rating = pooled_rating(rows, n_agents=n_agents, pooled=pooled, anchors=anchors)
    if result["too_few"]:  # no interval below the study's minimum n
        return result | {"matches": int(mine.sum()), "rating": _finite(rating), "unbounded": not math.isfinite(rating)}
    counts = participant_draws(int(people.size), rounds, np.random.default_rng(seed))
    low, high = interval(resample_ratings(rows, n_agents=n_agents, pooled=pooled, anchors=anchors, counts=counts))
    return result | {
        "matches": int(mine.sum()),
        "rating": _finite(rating),
        "lower": _finite(low),
        "upper": _finite(high),
        "unbounded": not (math.isfinite(rating) and math.isfinite(low) and math.isfinite(high)),
    }


def baselines(study: Study) -> list[dict]:
    """One baseline per game of the study and, with two or more games, one over all of them (games weighted equally)."""
    games = study.games()
    per_game = [baseline(study, [game]) for game in games]
    return per_game + ([baseline(study, games)] if len(games) > 1 else [])


#: Seconds a study baseline shown beside a leaderboard is reused (each computation refits the game's graph
#: STUDY_BOOTSTRAP_ROUNDS times); the researcher's own page always computes afresh.
LEADERBOARD_BASELINE_TTL_S = 300


def studies_shown(*, staff: bool) -> list[Study]:
    """Studies whose baseline may be shown beside leaderboards, radars and reports: published ones, or any for staff."""
    return list(Study.objects.all() if staff else Study.objects.filter(publish_baseline=True))


def studies_for_leaderboard(game: str, *, staff: bool) -> list[Study]:
    """Studies whose baseline may be shown beside `game`'s leaderboard: published ones, or any for staff."""
    return [study for study in studies_shown(staff=staff) if game in study.games()]


def leaderboard_baseline(slug: str, game: str, *, staff: bool) -> dict | None:
    """Study `slug`'s baseline on `game`, named "Human baseline (title)", if it may be shown (else None)."""
    study = next((s for s in studies_for_leaderboard(game, staff=staff) if s.slug == slug), None)
    if study is None:
        return None
    # Keyed by who is included, so excluding a participant (or including them again) shows at once.
    people = ",".join(str(pk) for pk in included(study).order_by("pk").values_list("pk", flat=True))
    key = f"study-baseline:{study.slug}:{game}:{hashlib.sha256(people.encode()).hexdigest()[:16]}"
    result = cache.get(key)
    if result is None:
        result = baseline(study, [game])
        cache.set(key, result, LEADERBOARD_BASELINE_TTL_S)
    return result | {"name": f"Human baseline ({study.title})", "slug": study.slug}


def protocol(study: Study) -> dict:
    """The study as a methods section needs it: design, order, limits, every consent version's text, status
    counts, results per opponent and the baselines (what `/studies/<slug>/export.json` returns)."""
    table = participants_table(study)
    return {
        "study": study.slug,
        "title": study.title,
        "created_at": study.created_at.isoformat(),
        "design": study.design,
        "games_per_opponent": study.games_per_opponent,
        "order": study.order,
        "blind_opponents": study.blind_opponents,
        "focused": study.focused,
        "void_after_s": study.void_after_s,
        "per_participant_codes": study.per_participant_codes,
        "move_time_limit_s": study.move_time_limit_s,
        "min_plies": study.min_plies,
        "min_seconds": study.min_seconds,
        "questionnaire": study.questionnaire,
        "questions": study.questions,
        "max_participants": study.max_participants,
        "consents": [
            {"version": c.version, "text": c.text, "created_at": c.created_at.isoformat()}
            for c in study.consents.order_by("version")
        ],
        "min_n": study.min_n,
        "participants": participant_counts(study, table),
        "results": [
            {
                "game": r["game"],
                "opponent": r["opponent"].slug,
                "matches": r["n"],
                "participants": r["people"],
                "wins": r["wins"],
                "draws": r["draws"],
                "losses": r["losses"],
                "score_share": r["share"],
                "wilson_95": None if r["too_few"] else [r["low"], r["high"]],
            }
            for r in results_by_opponent(study)
        ],
        "results_by_experience": [
            {k: r[k] for k in ("game", "experience", "n", "people", "share")}
            | {"wilson_95": None if r["too_few"] else [r["low"], r["high"]]}
            for r in results_by_experience(study)
        ],
        "baselines": baselines(study),
        "bootstrap": {"unit": "participant", "rounds": STUDY_BOOTSTRAP_ROUNDS, "level": 0.95},
    }
