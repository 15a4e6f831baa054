"""A person's climb of a game's bot ladder: starting one, and its page."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from arena.models import Match, Tournament
from arena.pages.people import current_person
from arena.pages.ratelimit import limited
from arena.pages.refusal import refusal
from arena.record.selectors import tournament_progress
from arena.record.services import ServiceError
from arena.tournaments.climbs import person_ladder_start
from games import UnknownGame, get_game


@require_POST
def ladder_start(request: HttpRequest) -> HttpResponse:
    """Start climbing a game's bot ladder as the current person."""
    person = current_person(request)
    if person is None:
        messages.error(request, "Start a game first (choose a nickname) or log in, then climb a ladder.")
        return redirect("play")
    if wait := limited(request, "ladder_climb"):
        return refusal(request, status=429, message="You are starting ladder climbs too quickly.", retry_after=wait)
    game = request.POST.get("game", "")
    try:
        get_game(game)
        tournament = person_ladder_start(person=person, game=game)
    except (ServiceError, UnknownGame) as error:
        messages.error(request, str(error))
        return redirect("play")
    return redirect("ladder-climb", slug=tournament.slug)


def ladder_climb(request: HttpRequest, slug: str) -> HttpResponse:
    """A person's ladder climb: level and progress so far, and the next game to play."""
    tournament = get_object_or_404(Tournament, slug=slug, format=Tournament.Format.LADDER)
    upcoming = tournament.matches.filter(status__in=[Match.Status.PENDING, Match.Status.RUNNING]).order_by("pk").first()
    context = {"tournament": tournament, "progress": tournament_progress(tournament), "next_match": upcoming}
    return render(request, "arena/ladder_climb.html", context)
