"""The tournaments pages: the list, staff's form to start one, a tournament and its live progress."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from arena.models import Agent, Tournament
from arena.pages.forms import TournamentForm
from arena.pages.rendering import tournament_progress_html
from arena.record.services import ServiceError
from arena.tournaments.services import tournament_create, tournament_queue
from games import all_games


def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(request, "arena/tournament_list.html", {"tournaments": Tournament.objects.all()[:100]})


@staff_member_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    """Staff start a tournament from the web: created and handed to the workers; its page follows it live."""
    agents = Agent.objects.filter(is_active=True).exclude(kind=Agent.Kind.HUMAN).order_by("kind", "slug")
    choices = {
        "games": [(g.slug, g.name) for g in all_games()],
        "agents": [(a.slug, f"{a.name} ({a.get_kind_display()}{', ' + a.game if a.game else ''})") for a in agents],
    }
    form = TournamentForm(request.POST or None, **choices)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        chosen = {a.slug: a for a in agents.filter(slug__in=data["agents"])}
        try:
            tournament = tournament_create(
                slug=data["slug"],
                name=data["name"],
                format=data["format"],
                games=data["games"],
                agents=[chosen[s] for s in data["agents"]],
                games_per_seat=data["games_per_seat"],
                budget=data["budget"],
                first_seed=data["first_seed"],
            )
            tournament_queue(tournament=tournament)
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"{tournament.name} is queued; its progress shows here as matches finish.")
            return redirect("tournament-detail", tournament.slug)
    return render(request, "arena/tournament_form.html", {"form": form})


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    return render(
        request,
        "arena/tournament_detail.html",
        {"tournament": tournament, "progress": tournament_progress_html(tournament)},
    )


def tournament_progress_fragment(request: HttpRequest, slug: str) -> HttpResponse:
    """The live progress block, polled by htmx while the tournament runs."""
    return HttpResponse(tournament_progress_html(get_object_or_404(Tournament, slug=slug)))
