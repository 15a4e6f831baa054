"""A study's exports for its researchers (staff only): one record per participant, one row per match of a
participant, and one row per decision of those matches, each as CSV or JSON lines.

The general dataset export leaves study matches out (their people did not agree to baseline use); these exports
are the way a study's own moves and timings leave the site. None holds a recruiter's id or its hash.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator

from django.utils import timezone

from arena.models import Decision, Match
from arena.studies.codes import completion_code
from arena.studies.models import ENDED, Assignment, Study
from arena.studies.questions import attention_failed
from arena.studies.selectors import participant_score, participant_status, short

#: The per-participant CSV: one row per assigned match, the participant's fields repeated.
PARTICIPANT_COLUMNS = (
    "study",
    "participant",
    "participant_status",
    "consent_version",
    "completion_code",
    "attention_failed",
    "excluded",
    "exclusion_reason",
    "experience",
    "position",
    "game",
    "opponent",
    "seat",
    "match_id",
    "match_uid",
    "match_status",
    "score",
    "termination",
    "abandoned",
    "short",
)

#: One row per assigned match: its length in plies and seconds, and its outcome for the participant.
MATCH_COLUMNS = (
    "study",
    "participant",
    "participant_status",
    "position",
    "game",
    "opponent",
    "seat",
    "match_uid",
    "match_status",
    "started_at",
    "finished_at",
    "duration_s",
    "plies",
    "score",
    "termination",
    "abandoned",
    "short",
)

#: One row per decision of a study match: who moved (the participant or the opponent), what, and how long it took.
DECISION_COLUMNS = (
    "study",
    "participant",
    "game",
    "opponent",
    "match_uid",
    "void",
    "ply",
    "seat",
    "mover",
    "action",
    "time_to_decide_ms",
    "fallback",
    "decided_at",
)

#: One row per participant and question of the study's own: when it was asked, its kind, text and the answer.
ANSWER_COLUMNS = (
    "study",
    "participant",
    "participant_status",
    "question",
    "when",
    "kind",
    "text",
    "answer",
    "expected",
    "passed",
)

TABLES = {
    "participants": PARTICIPANT_COLUMNS,
    "matches": MATCH_COLUMNS,
    "decisions": DECISION_COLUMNS,
    "answers": ANSWER_COLUMNS,
}


def _instant(value) -> str | None:
    return value.isoformat() if value else None


def _participants(study: Study):
    return study.participants.select_related("consent").prefetch_related("assignments__match", "assignments__opponent")


def participant_records(study: Study) -> list[dict]:
    """One record per participant: pseudonymous code, status, consent version, answers, order and matches."""
    now = timezone.now()
    return [
        {
            "study": study.slug,
            "participant": participant.code,
            "participant_status": participant_status(participant, now),
            "consent_version": participant.consent.version,
            "completion_code": completion_code(participant),
            "answers": participant.answers,
            "attention_failed": attention_failed(study.questions, participant.answers.get("questions", {})),
            "game_order": participant.game_order,
            "order_seed": participant.order_seed,
            "started_at": _instant(participant.started_at),
            "completed_at": _instant(participant.completed_at),
            "excluded": participant.excluded_at is not None,
            "exclusion_reason": participant.exclusion_reason,
            "matches": [
                {
                    "position": a.position,
                    "game": a.game,
                    "opponent": a.opponent.slug,
                    "seat": a.seat,
                    "match_id": a.match_id,
                    "match_uid": str(a.match.uid) if a.match else None,
                    "match_status": a.match.status if a.match else "not started",
                    "score": participant_score(a),
                    "termination": a.match.termination if a.match else "",
                    "abandoned": a.abandoned,
                    "short": short(study, a),
                    "void_matches": a.void_matches,
                }
                for a in participant.assignments.all()
            ],
        }
        for participant in _participants(study)
    ]


def participant_rows(study: Study) -> Iterator[dict]:
    """The participant records flattened for a table: one row per assigned match (the answer for that game as
    `experience`)."""
    for record in participant_records(study):
        experience = record["answers"].get("experience", {})
        for match in record["matches"]:
            yield (
                {k: record[k] for k in PARTICIPANT_COLUMNS if k in record}
                | {k: match[k] for k in PARTICIPANT_COLUMNS if k in match}
                | {"experience": experience.get(match["game"], "")}
            )


def duration_s(match: Match | None) -> float | None:
    """Seconds from the match's start to its end; None until it has ended."""
    if match is None or match.status not in ENDED or match.finished_at is None:
        return None
    return round((match.finished_at - (match.started_at or match.created_at)).total_seconds(), 3)


def _void_matches(study: Study) -> dict[str, Match]:
    """The study's void matches (the opponent stalled) by uid."""
    uids = [uid for a in Assignment.objects.filter(participant__study=study) for uid in a.void_matches]
    return {str(match.uid): match for match in Match.objects.filter(uid__in=uids)}


def match_rows(study: Study) -> Iterator[dict]:
    """One row per match of every participant, in the participant's order: each void match (`match_status`
    "void") before the assignment's match that replaced it."""
    now = timezone.now()
    void = _void_matches(study)
    for participant in _participants(study):
        status = participant_status(participant, now)
        for a in participant.assignments.all():
            replaced = [
                void[uid] for uid in a.void_matches if uid in void and not (a.match and str(a.match.uid) == uid)
            ]
            for match in replaced:
                yield _match_row(study, participant, status, a, match, void=True)
            yield _match_row(study, participant, status, a, a.match, void=a.void())


def _match_row(study: Study, participant, status: str, a: Assignment, match: Match | None, *, void: bool) -> dict:
    return {
        "study": study.slug,
        "participant": participant.code,
        "participant_status": status,
        "position": a.position,
        "game": a.game,
        "opponent": a.opponent.slug,
        "seat": a.seat,
        "match_uid": str(match.uid) if match else None,
        "match_status": "void" if void else match.status if match else "not started",
        "started_at": _instant(match and (match.started_at or match.created_at)),
        "finished_at": _instant(match and match.finished_at),
        "duration_s": duration_s(match),
        "plies": match.ply if match else 0,
        "score": None if void or match is not a.match else participant_score(a),
        "termination": match.termination if match else "",
        "abandoned": a.abandoned and match is a.match,
        "short": not void and match is a.match and short(study, a),
    }


def answer_rows(study: Study) -> Iterator[dict]:
    """One row per participant and question of the study's own ("" where not answered yet); an attention check's
    row says whether it was passed."""
    now = timezone.now()
    for participant in _participants(study):
        status = participant_status(participant, now)
        answers = participant.answers.get("questions", {})
        for question in study.questions:
            answer = answers.get(question["id"])
            attention = question["kind"] == "attention"
            yield {
                "study": study.slug,
                "participant": participant.code,
                "participant_status": status,
                "question": question["id"],
                "when": question["when"],
                "kind": question["kind"],
                "text": question["text"],
                "answer": answer,
                "expected": question.get("expected"),
                "passed": (answer == question["expected"]) if attention and answer is not None else None,
            }


def decision_rows(study: Study) -> Iterator[dict]:
    """One row per decision of every study match, in match and ply order: the participant's and the opponent's."""
    void = _void_matches(study)
    assignments, uids = {}, {}  # by match primary key: the assignment it was played for, and its uid
    for a in Assignment.objects.filter(participant__study=study).select_related("participant", "opponent", "match"):
        for match in [void[uid] for uid in a.void_matches if uid in void] + ([a.match] if a.match else []):
            assignments[match.pk], uids[match.pk] = a, str(match.uid)
    decisions = (
        Decision.objects.filter(match_id__in=assignments)
        .order_by("match_id", "ply")
        .values_list("match_id", "ply", "seat", "action_text", "elapsed_ms", "fallback", "created_at")
    )
    for match_id, ply, seat, action, elapsed_ms, fallback, created_at in decisions.iterator(chunk_size=5_000):
        a = assignments[match_id]
        yield {
            "study": study.slug,
            "participant": a.participant.code,
            "game": a.game,
            "opponent": a.opponent.slug,
            "match_uid": uids[match_id],
            "void": uids[match_id] in a.void_matches,
            "ply": ply,
            "seat": seat,
            "mover": "participant" if seat == a.seat else "opponent",
            "action": action,
            "time_to_decide_ms": elapsed_ms,
            "fallback": fallback,
            "decided_at": _instant(created_at),
        }


def as_csv(rows: Iterable[dict], columns: tuple[str, ...]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns)
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def as_jsonl(rows: Iterable[dict]) -> str:
    return "".join(json.dumps(row, sort_keys=True) + "\n" for row in rows)
