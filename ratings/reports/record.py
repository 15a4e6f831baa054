"""The one read of the record every report starts from: each selected match's seats as plain `Result`s."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import QuerySet

from arena.models import Agent, Match, Seat
from ratings.pairwise import Pair, match_pairs
from ratings.rated_matches import seat_sides

HUMAN_BASELINE = "human-baseline"


@dataclass(frozen=True)
class Result:
    """One finished match: per seat the row label of its agent (people pooled as the human baseline), side and score."""

    match: int
    game: str
    labels: tuple[str, ...]
    sides: tuple[int, ...]
    scores: tuple[float, ...]
    state: dict | None = None

    def pairs(self) -> list[Pair]:
        return match_pairs(list(self.labels), list(self.sides), list(self.scores))


def agent_label(slug: str, kind: str, scaffold: str, consent: bool | None) -> str | None:
    """How a seat's agent is shown in a report: models with their scaffold (side by side), consenting people pooled.

    None for a person who did not consent to baseline use: their games are left out of reports."""
    if kind == Agent.Kind.HUMAN:
        return HUMAN_BASELINE if consent else None
    return f"{slug} ({scaffold})" if kind == Agent.Kind.LLM and scaffold else slug


def seat_labels(matches: QuerySet[Match]) -> dict[int, dict[int, str | None]]:
    """Per match, per seat index, the seat's report label."""
    seats: dict[int, dict[int, str | None]] = defaultdict(dict)
    fields = (
        "match_id",
        "index",
        "agent_version__agent__slug",
        "agent_version__agent__kind",
        "agent_version__config__scaffold",
        "agent_version__agent__baseline_consent",
    )
    for match_id, index, slug, kind, scaffold, consent in Seat.objects.filter(match__in=matches).values_list(*fields):
        seats[match_id][index] = agent_label(slug, kind, scaffold or "", consent)
    return seats


def label_kinds(matches: QuerySet[Match]) -> dict[str, str]:
    """Per report label of the matches' seats, its agent's kind (llm, bot, human, …)."""
    fields = (
        "agent_version__agent__slug",
        "agent_version__agent__kind",
        "agent_version__config__scaffold",
        "agent_version__agent__baseline_consent",
    )
    out = {}
    for slug, kind, scaffold, consent in Seat.objects.filter(match__in=matches).values_list(*fields).distinct():
        if (label := agent_label(slug, kind, scaffold or "", consent)) is not None:
            out[label] = kind
    return out


def results(matches: QuerySet[Match], *, with_state: bool = False) -> list[Result]:
    """The matches as `Result`s, in finishing order; matches with a non-consenting person are left out."""
    labels = seat_labels(matches)
    out = []
    for pk, game, scores, state in matches.values_list("pk", "game", "scores", "state").iterator(2_000):
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
            )
        )
    return out
