"""The live match page: players move here, everyone else spectates."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from arena.pages.people import current_person
from arena.pages.rendering import live_match_html
from arena.record.visibility import Viewer, matches_visible_to
from games import get_game


def play_match(request: HttpRequest, pk: int) -> HttpResponse:
    """The live page: players move here, everyone else spectates. The websocket keeps it current."""
    person = current_person(request)
    match = get_object_or_404(matches_visible_to(Viewer.of_person(person, staff=request.user.is_staff)), pk=pk)
    context = {"match": match, "live": live_match_html(match, person), "game": get_game(match.game)}
    context["focused"] = match.record.get("focused", False)  # a focused study's match: no site navigation
    return render(request, "arena/play.html", context)
