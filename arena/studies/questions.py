"""A study's own questions, asked before the first match ("pre") or after the last ("post"): free text, a
five-point Likert item, multiple choice, and attention checks (multiple choice with one expected answer).

Plain data: each question is {"id": "q1", "when": "pre" | "post", "kind": …, "text": …, "choices": […],
"expected": …}; "choices" for choice and attention, "expected" for attention only.
"""

from __future__ import annotations

from arena.record.services import ServiceError

KINDS = ("text", "likert", "choice", "attention")
WHEN = ("pre", "post")
#: The Likert scale: stored as "1" … "5".
LIKERT = {
    "1": "strongly disagree",
    "2": "disagree",
    "3": "neither agree nor disagree",
    "4": "agree",
    "5": "strongly agree",
}
#: Bounds: questions per study, characters of a question, of a choice and of a free-text answer.
MAX_QUESTIONS = 30
MAX_QUESTION_CHARS = 500
MAX_CHOICE_CHARS = 200
MAX_TEXT_ANSWER_CHARS = 2000


def questions_check(questions: list[dict]) -> None:
    """ServiceError unless every question is well formed (kind, when, text, choices, expected answer)."""
    if len(questions) > MAX_QUESTIONS:
        raise ServiceError(f"A study asks at most {MAX_QUESTIONS} questions of its own.")
    for number, question in enumerate(questions, start=1):
        where = f"Question {number}"
        if question.get("when") not in WHEN or question.get("kind") not in KINDS:
            raise ServiceError(f"{where}: say when (pre or post) and what kind ({', '.join(KINDS)}).")
        if not question.get("text") or len(question["text"]) > MAX_QUESTION_CHARS:
            raise ServiceError(f"{where}: write the question, at most {MAX_QUESTION_CHARS} characters.")
        choices = question.get("choices", [])
        if question["kind"] in ("choice", "attention"):
            if len(choices) < 2 or len(set(choices)) != len(choices):
                raise ServiceError(f"{where}: give two or more different choices, separated by |.")
            if any(not c or len(c) > MAX_CHOICE_CHARS for c in choices):
                raise ServiceError(f"{where}: each choice has 1 to {MAX_CHOICE_CHARS} characters.")
        elif choices:
            raise ServiceError(f"{where}: only choice and attention questions list choices.")
        if question["kind"] == "attention" and question.get("expected") not in choices:
            raise ServiceError(f"{where}: an attention check names its expected answer, one of its choices (= …).")


def asked(questions: list[dict], when: str) -> list[dict]:
    return [question for question in questions if question["when"] == when]


def answers_check(questions: list[dict], answers: dict[str, str]) -> dict[str, str]:
    """The answers to `questions`, one each, checked against each question's kind (ServiceError otherwise)."""
    cleaned = {}
    for question in questions:
        answer = str(answers.get(question["id"], "")).strip()
        kind = question["kind"]
        if kind == "text":
            if len(answer) > MAX_TEXT_ANSWER_CHARS:
                raise ServiceError(f"Answers are at most {MAX_TEXT_ANSWER_CHARS} characters.")
        elif kind == "likert" and answer not in LIKERT:
            raise ServiceError(f"Choose one point of the scale for “{question['text']}”.")
        elif kind in ("choice", "attention") and answer not in question["choices"]:
            raise ServiceError(f"Choose one answer for “{question['text']}”.")
        cleaned[question["id"]] = answer
    return cleaned


def attention_failed(questions: list[dict], answers: dict[str, str]) -> int:
    """How many attention checks the participant answered otherwise than expected (unanswered ones not counted)."""
    return sum(
        1 for q in questions if q["kind"] == "attention" and q["id"] in answers and answers[q["id"]] != q["expected"]
    )
