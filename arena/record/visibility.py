"""What a viewer may see of a match: the one place every page, fragment, frame, API answer and download asks.

Two questions, two answers. Which matches a viewer may know of at all is `matches_visible_to(viewer)`, the one
query every surface fetches a match through (a match socket, `match_visible_to`: the same rule for one match): a
human baseline study's match is its participant's and the researchers' (staff), and to everyone else it does not
exist. What they may see of one such match is its
`MatchView`, built once per viewer and match, which answers everything else.

A match keeps its secrets while it, or another match on the same seed and game that it is tied to (the other half
of its duplicate pair, or a match of its tournament: the same deals, roles and bot setups), is pending or running.
Until then a viewer sees no seed and no result (scores, termination), and another seat's hidden actions only as the
game's public text; such a hidden decision shows none of `HIDDEN_FIELDS` (who made it, nor its timing, tokens, cost,
time of recording or fallback, from which the actor could be inferred: Werewolf's wolves act first at night), and
no attempts, reasoning or annotations. A Botzone program's trace (its stdout with Botzone's `debug`, and its
stderr) is its seat's private output in every game: only that seat's person reads it while the match keeps its
secrets.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from django.db.models import BooleanField, Exists, ExpressionWrapper, OuterRef, Q, QuerySet

from arena.models import Agent, Match, Seat
from games import Game, get_game

LIVE_STATUSES = (Match.Status.PENDING, Match.Status.RUNNING)
#: Agent kinds whose trace is whatever their program chose to print: private to the seat until the end.
PRIVATE_TRACE_KINDS = (Agent.Kind.PROGRAM,)
#: What a hidden decision does not show: every field but its ply and (public) action text. Its seat, and all that
#: could tell it: a role's place in the night order shows in its timing and time of recording, a model's seat in
#: its tokens, cost and fallbacks; and the action itself (its JSON, the position it was made in, a plan's round,
#: revision and similarity to the last one).
HIDDEN_FIELDS = (
    "seat", "elapsed_ms", "prompt_tokens", "completion_tokens", "reasoning_tokens", "cost", "created_at", "fallback",
    "action", "state_before", "round", "revised", "plan_similarity",
)  # fmt: skip


@dataclass(frozen=True)
class Viewer:
    """Who is looking: the agents they play as (a person's own agent; for an API token, every agent its person
    is or owns) and whether they are staff. `Viewer()` is a stranger."""

    agent_ids: frozenset[int] = frozenset()
    staff: bool = False

    @classmethod
    def of_person(cls, person: Agent | None, *, staff: bool = False) -> Viewer:
        """A page's or a socket's viewer: the person's agent (account or guest; None for nobody)."""
        return cls(frozenset() if person is None else frozenset({person.pk}), staff)

    @classmethod
    def of_user(cls, user) -> Viewer:
        """An API caller: every agent their person is or owns (their remote agents play as them)."""
        agents = Agent.objects.filter(Q(user=user) | Q(owner=user)).values_list("pk", flat=True)
        return cls(frozenset(agents), user.is_staff)


def _keeps_secrets() -> Q:
    """True (as a query expression) for a match that keeps its secrets: live, or tied to a live match on its seed."""
    twins = Match.objects.filter(status__in=LIVE_STATUSES, seed=OuterRef("seed"), game=OuterRef("game"))
    return (
        Q(status__in=LIVE_STATUSES)
        | Exists(twins.filter(tournament=OuterRef("tournament")))  # no tournament: NULL matches nothing
        | Exists(twins.filter(duplicate_of=OuterRef("pk")))
        | Exists(twins.filter(pk=OuterRef("duplicate_of")))
        | Exists(twins.filter(duplicate_of=OuterRef("duplicate_of")))
    )


def matches_visible_to(viewer: Viewer, matches: QuerySet[Match] | None = None) -> QuerySet[Match]:
    """`matches` (default: all) that `viewer` may know of, each annotated `keeps_secrets` (see the module
    docstring), which its `MatchView` reads instead of asking again."""
    matches = Match.objects.all() if matches is None else matches
    if not viewer.staff:
        played = Seat.objects.filter(agent_version__agent_id__in=viewer.agent_ids).values("match_id")
        matches = matches.exclude(Q(record__has_key="study") & ~Q(pk__in=played))
    return matches.annotate(keeps_secrets=ExpressionWrapper(_keeps_secrets(), output_field=BooleanField()))


def match_visible_to(viewer: Viewer, match_id: int) -> Match | None:
    """The match, if `viewer` may know of it (as `matches_visible_to` decides), else None; read without the
    `keeps_secrets` annotation, which costs ten times the read to build and which its `MatchView` asks for only
    once the match is over (a live match keeps its secrets)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or viewer.staff or "study" not in match.record:
        return match
    played = Seat.objects.filter(match=match, agent_version__agent_id__in=viewer.agent_ids)
    return match if viewer.agent_ids and played.exists() else None


def matches_without_secrets(matches: QuerySet[Match]) -> QuerySet[Match]:
    """`matches` minus those that still keep secrets: what exports, standings and the ratings may count."""
    return matches.exclude(_keeps_secrets())


def twins(match: Match) -> QuerySet[Match]:
    """The other matches on `match`'s deal that it keeps its secrets with (`_keeps_secrets`): its tournament's on
    its seed, and the other halves of its duplicate pair."""
    if match.seed is None:
        return Match.objects.none()
    links = Q(duplicate_of=match.pk)
    if match.duplicate_of_id is not None:
        links |= Q(pk=match.duplicate_of_id) | Q(duplicate_of=match.duplicate_of_id)
    if match.tournament_id is not None:
        links |= Q(tournament=match.tournament_id)
    return Match.objects.filter(links, seed=match.seed, game=match.game).exclude(pk=match.pk)


class Decided(Protocol):
    """A decision as the view reads it: a `Decision` row, or a move list's `MoveRow`."""

    seat: Any
    action_text: str


D = TypeVar("D", bound=Decided)


class MatchView:
    """One viewer's view of one match (fetched through `matches_visible_to`): its seed, result, each decision's
    action, seat and trace, and what may be annotated."""

    def __init__(self, match: Match, *, seats: Iterable[int] | None = None, viewer: Viewer | None = None) -> None:
        self.match = match
        self.game: Game = get_game(match.game)
        self._viewer = viewer or Viewer()
        if seats is not None:
            self.seats = tuple(seats)

    @classmethod
    def for_viewer(cls, match: Match, viewer: Viewer) -> MatchView:
        """The view of `viewer`, whose seats in the match are read when first needed."""
        return cls(match, viewer=viewer)

    @classmethod
    def for_seats(cls, match: Match, seats: Iterable[int]) -> MatchView:
        """The view of whoever holds `seats` (none: a spectator), for a caller that knows them already."""
        return cls(match, seats=seats)

    @functools.cached_property
    def seats(self) -> tuple[int, ...]:
        """The seats the viewer holds in the match."""
        if not self._viewer.agent_ids:
            return ()
        held = Seat.objects.filter(match=self.match, agent_version__agent_id__in=self._viewer.agent_ids)
        return tuple(held.order_by("index").values_list("index", flat=True))

    @functools.cached_property
    def keeps_secrets(self) -> bool:
        """While the match or a twin on its seed can still be played (the module docstring)."""
        known = getattr(self.match, "keeps_secrets", None)
        if known is not None:
            return known
        if self.match.status in LIVE_STATUSES:
            return True
        return Match.objects.filter(_keeps_secrets(), pk=self.match.pk).exists()

    @property
    def seed(self) -> int | None:
        """The seed, once nothing it determines is still in play."""
        return None if self.keeps_secrets else self.match.seed

    @property
    def scores(self) -> list[float] | None:
        """Each seat's score, once the match's set is over (a twin still to play has the same deal)."""
        return None if self.keeps_secrets else self.match.scores

    @property
    def termination(self) -> str:
        """How the match ended ("the werewolves win (P5 and P8)"), once its set is over."""
        return "" if self.keeps_secrets else self.match.termination

    def hides(self, decision: Decided) -> bool:
        """True while the viewer sees less than the decision's full action: then they see none of its HIDDEN_FIELDS."""
        if not self.keeps_secrets or decision.seat in self.seats:
            return False
        return self.game.public_action_text(decision.action_text) != decision.action_text

    def shown(self, decision: D) -> D:
        """`decision` as the viewer may see it: a hidden one as a copy with its public text and every HIDDEN_FIELD
        None. A `Decision` or a `MoveRow`; the record itself is never changed."""
        if not self.hides(decision):
            return decision
        blank: dict[str, Any] = {field: None for field in HIDDEN_FIELDS if hasattr(decision, field)}
        blank["action_text"] = self.game.public_action_text(decision.action_text)
        if isinstance(decision, tuple):
            return decision._replace(**blank)
        hidden = copy.copy(decision)
        for field, value in blank.items():
            setattr(hidden, field, value)
        return hidden

    @functools.cached_property
    def _private_seats(self) -> frozenset[int]:
        """The seats whose trace is their program's own output (PRIVATE_TRACE_KINDS)."""
        seats = Seat.objects.filter(match=self.match, agent_version__agent__kind__in=PRIVATE_TRACE_KINDS)
        return frozenset(seats.values_list("index", flat=True))

    def trace(self, decision: Decided) -> bool:
        """Whether the viewer may read the prompts, replies and reasoning behind a decision they can see: in a
        hidden-information game they spell out the seat's cards, roles or plans, and a program printed what it
        liked, so only that seat's own person may, until the end."""
        if self.hides(decision):
            return False
        if not self.keeps_secrets or decision.seat in self.seats:
            return True
        return not (self.game.hidden_information or decision.seat in self._private_seats)

    def annotatable(self, decision: Decided) -> bool:
        """A viewer annotates only a decision whose action they can see."""
        return not self.hides(decision)
