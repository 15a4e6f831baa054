"""The home page: what is happening (live games, latest results, the top of the board)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from arena.models import Match
from arena.pages.people import page_viewer
from arena.record.selectors import first_run_progress, match_list
from games import all_games
from ratings.record.models import RatingSnapshot
from ratings.record.selectors import is_ranked


def home(request: HttpRequest) -> HttpResponse:
    """What is happening (live games, latest results, the top of the board) and how to start."""
    snapshot = RatingSnapshot.objects.filter(game="", filters="").first()
    rows = (snapshot.data or {}).get("rows", []) if snapshot else []
    viewer = page_viewer(request)
    context = {
        "games": all_games(),
        "live": match_list(viewer, status=Match.Status.RUNNING)[:5],
        "results": match_list(viewer, status=Match.Status.FINISHED).order_by("-finished_at")[:5],
        **_top_of_the_board(rows),
        "board_min_games": settings.ARENA_RANK_MIN_GAMES,
        "seeding": first_run_progress(),
    }
    return render(request, "arena/home.html", context)


def _top_of_the_board(rows: list[dict]) -> dict:
    """The leaderboard's own rule (`is_ranked`), within the largest set of agents the record compares (its
    component): ratings of agents that never met, directly or through others, are not in one order."""
    ranked = [row for row in rows if is_ranked(row)]
    first = ranked[0].get("component", 0) if ranked else None
    top = [row for row in ranked if row.get("component", 0) == first][:5]
    several = len({row.get("component", 0) for row in ranked}) > 1
    return {"top": top, "top_scope": top[0].get("component_label", "") if top and several else ""}
