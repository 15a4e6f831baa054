"""How a finished match counts on the leaderboards: its rating key, its seats' sides, its pairwise results."""

from __future__ import annotations

from typing import NamedTuple
from urllib.parse import urlencode

from django.db.models import Case, F, JSONField, Value, When

from arena.record.selectors import seat_sides
from games import get_game
from games.registry import GAMES
from ratings.maths.pairwise import Pair, match_pairs

#: Match filters that change the fit (row filters such as kind and scaffold are applied by the page).
FIT_FILTERS = ("prompt", "since", "until")


def filter_key(filters: dict[str, str]) -> str:
    """The canonical string for the fit-changing filters (the snapshot's key)."""
    return urlencode(sorted((k, v) for k, v in filters.items() if k in FIT_FILTERS and v))


def rating_key(game: str, options: dict) -> str:
    """The leaderboard a match counts on: its game, or "game:variant" for a variant (rated apart)."""
    variant = get_game(game).variant_of(options)
    return f"{game}:{variant}" if variant else game


def _needs_state() -> list[str]:
    """Games whose final state the leaderboard reads: sides in multi-seat games, PWER in skirmish."""
    return [slug for slug in GAMES if get_game(slug).num_players > 2 or slug == "skirmish"]


def final_state():
    """A match's final state where its rating reads it (sides in multi-seat games, PWER in Skirmish), else null: the
    expression to annotate a query of matches with (`final=`) for `match_rated`."""
    # Two-seat board games' states stay in the database.
    return Case(When(game__in=_needs_state(), then=F("state")), default=Value(None), output_field=JSONField())


class Rated(NamedTuple):
    """How one finished match counts on the leaderboards: its rating key, seats' agents and sides, pairwise results."""

    key: str
    agents: list[int]
    sides: list[int]
    pairs: list[Pair]
    first_mover: float  # 1: each pair's a moved first (two-seat games); 0.5: no move order between the pair


def match_rated(game: str, options: dict, state: dict | None, scores: list, by_seat: dict[int, int]) -> Rated | None:
    """The match's pairwise results (`ratings.maths.pairwise`), or None when not rated (missing seats, self-play)."""
    if len(by_seat) < 2 or len(by_seat) != len(scores):
        return None
    agents = [by_seat[seat] for seat in range(len(by_seat))]
    sides = seat_sides(game, state, len(agents))
    pairs = match_pairs(agents, sides, scores)
    if not pairs:
        return None  # self-play says nothing about strength
    return Rated(rating_key(game, options), agents, sides, pairs, 1.0 if len(agents) == 2 else 0.5)
