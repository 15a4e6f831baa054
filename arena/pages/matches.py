"""The matches pages: the list, a match's replay page and its replay panel."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from arena.models import Match
from arena.pages.people import page_viewer
from arena.pages.rendering import blinded, live_seats, replay_html
from arena.pages.results import result_text
from arena.record.people import adjourned_ids, matches_abandoned_end
from arena.record.selectors import match_list
from arena.record.visibility import MatchView, matches_visible_to
from games import all_games


def match_list_view(request: HttpRequest) -> HttpResponse:
    matches_abandoned_end()  # games nobody will finish are ended by the rules rather than listed as live
    filters = {key: request.GET.get(key, "") for key in ("game", "agent", "status", "tournament")}
    matches = match_list(page_viewer(request), **filters)
    page = Paginator(matches, 50).get_page(request.GET.get("page"))
    context = {
        "page": page,
        "filters": filters,
        "games": all_games(),
        "statuses": Match.Status.choices,
        "adjourned": adjourned_ids(list(page.object_list)),
    }
    return render(request, "arena/match_list.html", context)


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The replay page: the board at `?ply=N` (default: the latest), moves, the decision trace, the record."""
    viewer = page_viewer(request)
    match = get_object_or_404(match_list(viewer), pk=pk)
    shown = MatchView.for_viewer(match, viewer)
    seats = _seats_shown_to(request, match)
    context = {
        "match": match,
        "game": shown.game,
        "shown": shown,
        "seats": seats,
        # A blinded study's participant sees labels, not the seats' agents, and not the record naming them.
        "blind": bool(match.record.get("seat_labels")) and not request.user.is_staff,
        "result": result_text(shown.termination, seats, shown.scores) if shown.termination else "",
        "replay": replay_html(shown, _requested_ply(request, match), request.user),
        "focused": match.record.get("focused", False) and not request.user.is_staff,
    }
    return render(request, "arena/match_detail.html", context)


def _seats_shown_to(request: HttpRequest, match: Match) -> list[dict]:
    """The match's seats, a blinded study's opponents by their labels for anyone but staff."""
    return live_seats(match) if request.user.is_staff else blinded(match, live_seats(match))


def match_replay_fragment(request: HttpRequest, pk: int) -> HttpResponse:
    """The replay panel alone, for stepping without a page load."""
    viewer = page_viewer(request)
    match = get_object_or_404(matches_visible_to(viewer), pk=pk)
    return HttpResponse(replay_html(MatchView.for_viewer(match, viewer), _requested_ply(request, match), request.user))


def _requested_ply(request: HttpRequest, match: Match) -> int:
    try:
        return int(request.GET.get("ply", match.ply))
    except ValueError:
        return match.ply
