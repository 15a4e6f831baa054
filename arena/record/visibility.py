"""What a viewer may see of a match: the one place every page, fragment, frame and download asks.

A match keeps its secrets while it, or another match on the same seed and game that it is tied to (the
other half of its duplicate pair, or a match of its tournament: the same deals, roles and bot setups), is
pending or running. Until then a viewer sees another seat's hidden actions only as the game's public
text, never the seed, and no attempts, reasoning or annotations of a decision hidden from them. A Botzone
program's trace (its stdout with Botzone's `debug`, and its stderr) is its seat's private output in every
game: only that seat's person reads it while the match keeps its secrets.
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, QuerySet

from arena.models import Agent, Decision, Match, Seat
from games import Game

LIVE_STATUSES = (Match.Status.PENDING, Match.Status.RUNNING)
#: Agent kinds whose trace is whatever their program chose to print: private to the seat until the end.
PRIVATE_TRACE_KINDS = (Agent.Kind.PROGRAM,)


def matches_without_secrets(matches: QuerySet[Match]) -> QuerySet[Match]:
    """`matches` minus those that still keep secrets: pending or running, or tied to such a match on their seed."""
    twins = Match.objects.filter(status__in=LIVE_STATUSES, seed=OuterRef("seed"), game=OuterRef("game"))
    return matches.exclude(status__in=LIVE_STATUSES).exclude(
        Exists(twins.filter(tournament=OuterRef("tournament")))  # no tournament: NULL matches nothing
        | Exists(twins.filter(duplicate_of=OuterRef("pk")))
        | Exists(twins.filter(pk=OuterRef("duplicate_of")))
        | Exists(twins.filter(duplicate_of=OuterRef("duplicate_of")))
    )


def match_secret(match: Match) -> bool:
    """True while the match, or a match tied to it on the same seed (see the module docstring), can still be played."""
    return match.status in LIVE_STATUSES or not matches_without_secrets(Match.objects.filter(pk=match.pk)).exists()


def visible_seed(match: Match) -> int | None:
    """The seed, once nothing it determines is still in play (None before)."""
    return None if match_secret(match) else match.seed


def visible_action(game: Game, secret: bool, seat: int, text: str, viewer_seats: list[int]) -> str:
    """A decision's action as a viewer sees it: another seat's plan, setup or night action stays hidden
    while the match keeps its secrets (`secret` is `match_secret(match)`)."""
    return game.public_action_text(text) if secret and seat not in viewer_seats else text


def action_hidden(game: Game, secret: bool, seat: int, text: str, viewer_seats: list[int]) -> bool:
    """True when the viewer sees less than the decision's full action text."""
    return visible_action(game, secret, seat, text, viewer_seats) != text


def visible_seat(game: Game, secret: bool, seat: int, text: str, viewer_seats: list[int]) -> int | None:
    """Who made a decision, as a viewer may know it: nobody (None) where its action is hidden from them, because
    who acts when can give a role away (Werewolf's night order is wolves, seer, doctor). Pages, fragments and the
    API all ask this."""
    return None if action_hidden(game, secret, seat, text, viewer_seats) else seat


def trace_visible(
    game: Game, secret: bool, seat: int | None, viewer_seats: list[int], private_seats: frozenset[int] = frozenset()
) -> bool:
    """Whether a viewer may read a seat's prompts, replies and reasoning: in a hidden-information game
    they spell out that seat's cards, roles or plans, and a seat in `private_seats` (`private_trace_seats`)
    printed what it liked, so only that seat's own person may, until the end."""
    private = game.hidden_information or seat in private_seats
    return not (secret and private and seat not in viewer_seats)


def private_trace_seats(match: Match) -> frozenset[int]:
    """The seats of `match` whose trace is their program's own output (PRIVATE_TRACE_KINDS)."""
    seats = Seat.objects.filter(match=match, agent_version__agent__kind__in=PRIVATE_TRACE_KINDS)
    return frozenset(seats.values_list("index", flat=True))


def decision_annotatable(decision: Decision, game: Game, viewer_seats: list[int]) -> bool:
    """A viewer annotates only a decision whose action they can see."""
    secret = match_secret(decision.match)
    return not action_hidden(game, secret, decision.seat, decision.action_text, viewer_seats)


def study_match_hidden(match: Match, viewer_seats: list[int] | tuple[int, ...], staff: bool) -> bool:
    """A human-baseline study's match is its participant's and the researchers' (staff): to everyone else it does
    not exist, live or replayed, so no participant sees another's games or results (docs/studies.md)."""
    return bool((match.record or {}).get("study")) and not viewer_seats and not staff


def without_study_matches(matches: QuerySet[Match]) -> QuerySet[Match]:
    """`matches` minus the studies' matches (`study_match_hidden`), for lists shown to anyone."""
    return matches.exclude(record__has_key="study")
