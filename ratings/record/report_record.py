"""The one read of the record every report starts from: each selected match's seats as plain `Result`s."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import QuerySet

from arena.models import Agent, Match, Seat
from arena.record.selectors import seat_sides
from arena.studies.models import Assignment, Study
from ratings.maths.pairwise import Pair, match_pairs

HUMAN_BASELINE = "human-baseline"


@dataclass(frozen=True)
class Baseline:
    """Whose play a report's human baseline is: pooled human play (every person who agreed to baseline use), or
    one study's included participants (then no one else's: other people's matches are left out, as today a
    non-consenting person's are)."""

    study: str = ""
    title: str = ""
    #: The included participants' seats (agent ids), and per participant the study matches they played.
    people: frozenset[int] = frozenset()
    matches: dict[int, frozenset[int]] = field(default_factory=dict)

    def counts(self, agent_id: int, consent: bool | None) -> bool:
        """Whether a person's seat is part of the baseline."""
        return agent_id in self.people if self.study else bool(consent)

    def summary(self, match_ids: set[int]) -> dict:
        """The baseline as a report names it; n counts the participants with a match among `match_ids`."""
        if not self.study:
            return {"study": None, "participants": None, "text": "Human baseline: pooled human play"}
        n = sum(1 for played in self.matches.values() if played & match_ids)
        text = f"Human baseline: {self.title} (n = {n} participant{'' if n == 1 else 's'})"
        return {"study": self.study, "title": self.title, "participants": n, "text": text}


POOLED = Baseline()


def study_baseline(slug: str) -> Baseline:
    """Study `slug`'s baseline: its participants not excluded, and the matches each played in the study."""
    if not slug:
        return POOLED
    study = Study.objects.get(slug=slug)
    participants = study.participants.filter(excluded_at__isnull=True, agent__isnull=False)
    people = frozenset(participants.values_list("agent_id", flat=True))
    played: dict[int, set[int]] = {pk: set() for pk in participants.values_list("pk", flat=True)}
    assignments = Assignment.objects.filter(participant__in=participants, match__isnull=False)
    for participant, match in assignments.values_list("participant_id", "match_id"):
        played[participant].add(match)
    matches = {pk: frozenset(ids) for pk, ids in played.items()}
    return Baseline(study=study.slug, title=study.title, people=people, matches=matches)


@dataclass(frozen=True)
class Result:
    """One finished match: per seat the row label of its agent (people pooled as the human baseline), side and score."""

    match: int
    game: str
    labels: tuple[str, ...]
    sides: tuple[int, ...]
    scores: tuple[float, ...]
    state: dict | None = None
    #: The match's rule options (a scenario: Stratego's `placement`), when asked for with the state.
    options: dict | None = None

    def pairs(self) -> list[Pair]:
        return match_pairs(list(self.labels), list(self.sides), list(self.scores))


def agent_label(slug: str, kind: str, scaffold: str, consent: bool | None, version: int | None = None) -> str | None:
    """How a seat's agent is shown in a report: models with their scaffold (side by side), consenting people pooled;
    with `version`, the agent version too ("slug v3 (cot)").

    None for a person outside the report's baseline (`Baseline.counts`): their games are left out of reports."""
    if kind == Agent.Kind.HUMAN:
        return HUMAN_BASELINE if consent else None
    name = slug if version is None else f"{slug} v{version}"
    return f"{name} ({scaffold})" if kind == Agent.Kind.LLM and scaffold else name


def _seat_rows(matches: QuerySet[Match], baseline: Baseline) -> list[tuple[int, int, str | None, str]]:
    """(match, seat, report label, agent kind) per seat. A row is an agent version × scaffold: the label names the
    version only where one agent has several versions with the same scaffold in these matches (else "slug (cot)")."""
    fields = (
        "agent_version__agent_id",
        "match_id",
        "index",
        "agent_version__agent__slug",
        "agent_version__agent__kind",
        "agent_version__config__scaffold",
        "agent_version__agent__baseline_consent",
        "agent_version__number",
    )
    seats = list(Seat.objects.filter(match__in=matches).values_list(*fields))
    versions: dict[tuple[str, str], set[int]] = defaultdict(set)
    for _, _, _, slug, kind, scaffold, _, number in seats:
        if kind != Agent.Kind.HUMAN:
            versions[(slug, scaffold or "")].add(number)
    out = []
    for agent_id, match_id, index, slug, kind, scaffold, consent, number in seats:
        several = len(versions.get((slug, scaffold or ""), ())) > 1
        counted = baseline.counts(agent_id, consent)
        label = agent_label(slug, kind, scaffold or "", counted, number if several else None)
        out.append((match_id, index, label, kind))
    return out


def seat_labels(matches: QuerySet[Match], baseline: Baseline = POOLED) -> dict[int, dict[int, str | None]]:
    """Per match, per seat index, the seat's report label."""
    seats: dict[int, dict[int, str | None]] = defaultdict(dict)
    for match_id, index, label, _ in _seat_rows(matches, baseline):
        seats[match_id][index] = label
    return seats


def label_kinds(matches: QuerySet[Match], baseline: Baseline = POOLED) -> dict[str, str]:
    """Per report label of the matches' seats, its agent's kind (llm, bot, human, …)."""
    return {label: kind for _, _, label, kind in _seat_rows(matches, baseline) if label is not None}


def results(matches: QuerySet[Match], *, with_state: bool = False, baseline: Baseline = POOLED) -> list[Result]:
    """The matches as `Result`s, in finishing order; matches with a person outside the baseline are left out."""
    labels = seat_labels(matches, baseline)
    out = []
    for pk, game, scores, state, options in matches.values_list("pk", "game", "scores", "state", "options").iterator(
        2_000
    ):
        by_seat = labels.get(pk, {})
        if len(by_seat) != len(scores) or None in by_seat.values():
            continue
        sides = seat_sides(game, state, len(scores))
        out.append(
            Result(
                match=pk,
                game=game,
                labels=tuple(by_seat[i] for i in range(len(scores))),
                sides=tuple(sides),
                scores=tuple(float(s) for s in scores),
                state=state if with_state else None,
                options=options if with_state else None,
            )
        )
    return out
