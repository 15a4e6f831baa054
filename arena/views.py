"""HTTP views. Reads go through selectors, writes through services."""

from __future__ import annotations

import asyncio

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.core.paginator import Paginator
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render

from arena.forms import LLMAgentForm
from arena.models import Agent, Match, Tournament
from arena.play_views import current_person
from arena.rendering import board_html, replay_html, tournament_progress_html
from arena.selectors import agent_game_records, match_list
from arena.services import ServiceError, agent_create, agent_update
from games import UnknownGame, all_games, get_game
from games.bots import UnknownBot, ladder


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "arena/home.html", {"games": all_games()})


def _database_status() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


async def _channel_layer_status() -> str:
    layer = get_channel_layer()
    channel = await layer.new_channel("healthz")
    await layer.send(channel, {"type": "healthz.ping"})
    message = await asyncio.wait_for(layer.receive(channel), timeout=2)
    return "ok" if message.get("type") == "healthz.ping" else "unexpected reply"


async def healthz(request: HttpRequest) -> JsonResponse:
    """Database and channel-layer status: 200 when both answer, 503 otherwise."""
    checks = {}
    for name, check in (("database", sync_to_async(_database_status)), ("channel_layer", _channel_layer_status)):
        try:
            checks[name] = await check()
        except Exception as error:  # any failure is a health result, not a crash
            checks[name] = f"error: {type(error).__name__}: {error}"
    healthy = all(value == "ok" for value in checks.values())
    return JsonResponse({"status": "ok" if healthy else "degraded", **checks}, status=200 if healthy else 503)


def game_list(request: HttpRequest) -> HttpResponse:
    return render(request, "arena/game_list.html", {"games": all_games()})


def game_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """Rules, the starting position and the bot ladder of one game."""
    try:
        game = get_game(slug)
    except UnknownGame:
        raise Http404(f"No game called {slug!r}.") from None
    try:
        bots = ladder(slug)
    except UnknownBot:
        bots = []
    state = game.initial_state(seed=0)
    return render(
        request,
        "arena/game_detail.html",
        {"game": game, "board": board_html(game, state, None), "bots": bots},
    )


def agent_list(request: HttpRequest) -> HttpResponse:
    kind = request.GET.get("kind", "")
    game = request.GET.get("game", "")
    agents = Agent.objects.filter(is_active=True)
    if kind in Agent.Kind.values:
        agents = agents.filter(kind=kind)
    if game:
        agents = agents.filter(game__in=[game, ""])
    context = {"agents": agents, "kinds": Agent.Kind.choices, "kind": kind, "game": game, "games": all_games()}
    return render(request, "arena/agent_list.html", context)


def agent_detail(request: HttpRequest, slug: str) -> HttpResponse:
    agent = get_object_or_404(Agent, slug=slug)
    context = {
        "agent": agent,
        "versions": agent.versions.order_by("-number"),
        "records": agent_game_records(agent),
        "matches": match_list(agent=slug)[:20],
    }
    return render(request, "arena/agent_detail.html", context)


@staff_member_required
def agent_edit(request: HttpRequest, slug: str | None = None) -> HttpResponse:
    """Create an LLM agent, or edit one (a config that has played gets a new version)."""
    agent = get_object_or_404(Agent, slug=slug, kind=Agent.Kind.LLM) if slug else None
    initial = {"slug": agent.slug, "name": agent.name, **agent.current_version().config} if agent else None
    form = LLMAgentForm(request.POST or None, initial=initial)
    if agent:
        form.fields["slug"].disabled = True
    if request.method == "POST" and form.is_valid():
        try:
            if agent:
                version = agent_update(agent=agent, config=form.config(), name=form.cleaned_data["name"])
                messages.success(request, f"Saved {agent.slug} as version {version.number}.")
            else:
                agent = agent_create(
                    slug=form.cleaned_data["slug"],
                    name=form.cleaned_data["name"],
                    kind=Agent.Kind.LLM,
                    config=form.config(),
                )
                messages.success(request, f"Created {agent.slug}.")
            return redirect("agent-detail", slug=agent.slug)
        except ServiceError as error:
            form.add_error(None, str(error))
    return render(request, "arena/agent_form.html", {"form": form, "agent": agent})


def match_list_view(request: HttpRequest) -> HttpResponse:
    filters = {key: request.GET.get(key, "") for key in ("game", "agent", "status", "tournament")}
    page = Paginator(match_list(**filters), 50).get_page(request.GET.get("page"))
    context = {"page": page, "filters": filters, "games": all_games(), "statuses": Match.Status.choices}
    return render(request, "arena/match_list.html", context)


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The replay page: the board at `?ply=N` (default: the latest), moves, the decision trace, the record."""
    match = get_object_or_404(match_list(), pk=pk)
    context = {
        "match": match,
        "game": get_game(match.game),
        "replay": replay_html(match, _requested_ply(request, match), current_person(request)),
    }
    return render(request, "arena/match_detail.html", context)


def match_replay_fragment(request: HttpRequest, pk: int) -> HttpResponse:
    """The replay panel alone, for stepping without a page load."""
    match = get_object_or_404(Match, pk=pk)
    return HttpResponse(replay_html(match, _requested_ply(request, match), current_person(request)))


def _requested_ply(request: HttpRequest, match: Match) -> int:
    try:
        return int(request.GET.get("ply", match.ply))
    except ValueError:
        return match.ply


def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(request, "arena/tournament_list.html", {"tournaments": Tournament.objects.all()[:100]})


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
