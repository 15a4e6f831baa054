"""The lobby: a game against a bot, a model or a person, the opponents a game offers, open challenges."""

from __future__ import annotations

from django.contrib import messages
from django.core.cache import cache
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from arena.agents import botzone
from arena.agents.llm.llama_server import server_alive
from arena.agents.llm.local import endpoint_is_local
from arena.agents.llm.scaffolds import get_scaffold
from arena.agents.presence import bot_owners_online
from arena.models import Agent, Challenge, Match, Seat
from arena.pages.forms import OPEN_CHALLENGE, LobbyForm, seat_choices, variant_choices
from arena.pages.people import current_person
from arena.pages.ratelimit import limited
from arena.record.people import (
    adjourned_ids,
    challenge_create,
    guest_agent_create,
    matches_abandoned_end,
    person_consent_set,
    person_match_create,
)
from arena.record.services import ServiceError
from games import UnknownGame, all_games, get_game

#: The lobby's opponent groups, by agent kind, in the order the select lists them.
OPPONENT_GROUPS = {
    Agent.Kind.LLM: "Models",
    Agent.Kind.BOT: "Bots",
    Agent.Kind.PROGRAM: "Programs",
    Agent.Kind.UCI: "UCI engines",
    Agent.Kind.REMOTE: "Remote agents",
}


#: How long the lobby trusts its last look at a model server on this machine (seconds).
MODEL_SERVER_CHECK_TTL_S = 5


def model_served(agent: Agent) -> bool:
    """False for a model served on this machine (the embedded llama.cpp server) whose server is not running: the
    lobby neither offers nor preselects it. A busy server is offered (its moves queue); remote providers are taken
    as up, and their outages pause their matches."""
    base_url = agent.current_version().config.get("base_url", "")
    if not endpoint_is_local(base_url):
        return True
    return cache.get_or_set(
        f"model-server-alive:{base_url}", lambda: server_alive(base_url, timeout_s=0.5), MODEL_SERVER_CHECK_TTL_S
    )


def offered_agents(user=None) -> QuerySet[Agent]:
    """The agents the lobby may offer this visitor: those staff approved, and the visitor's own."""
    offered = Q(approved=True)
    if user is not None and user.is_authenticated:
        offered |= Q(owner=user)
    return Agent.objects.filter(offered, is_active=True)


def opponent_choices(game: str, user=None) -> list[tuple[str, list[tuple[str, str]]]]:
    """Every agent offered to `user` (`offered_agents`) that can play `game` now, grouped by kind for the lobby's
    select.

    Programs play the games Arena has Botzone requests for (`botzone.has_requests`; labelled when only a variant
    of the game has them, and refused in `_start` under other rules), UCI engines chess only, a
    websocket bot only while its account is connected, and a model on this machine only while its server runs.
    """
    programs_play = botzone.has_requests(get_game(game))
    # A program in a game whose standard rules it cannot play says which variant it plays.
    programs_note = " (botzone variant only)" if programs_play and botzone.variant_refusal(get_game(game), "") else ""
    agents = [
        agent
        for agent in offered_agents(user).filter(kind__in=OPPONENT_GROUPS, game__in=["", game])
        if not (agent.kind == Agent.Kind.PROGRAM and not programs_play)
        and not (agent.kind == Agent.Kind.UCI and game != "chess")
        and not (agent.kind == Agent.Kind.LLM and not model_served(agent))
    ]
    websocket = {a.pk for a in agents if a.kind == Agent.Kind.REMOTE and a.current_version().config.get("transport")}
    online = bot_owners_online({a.owner_id for a in agents if a.pk in websocket})
    groups: dict[str, list[tuple[str, str]]] = {kind: [] for kind in OPPONENT_GROUPS}
    for agent in agents:
        if agent.pk in websocket and agent.owner_id not in online:
            continue
        label = f"{agent.name} — {agent.description}" if agent.kind == Agent.Kind.BOT else agent.name
        label += programs_note if agent.kind == Agent.Kind.PROGRAM else ""
        groups[agent.kind].append((agent.slug, label))
    return [(OPPONENT_GROUPS[kind], choices) for kind, choices in groups.items() if choices]


def bot_level(slug: str) -> int:
    """A ladder bot's level from its slug ("connect-four-lv2" → 2)."""
    return int(slug.rpartition("-lv")[2] or 0)


def default_opponent(game: str, person: Agent | None, user=None) -> str:
    """The lobby's preselected opponent for `game`: a model that plays it and whose server runs (one whose answers a
    grammar holds to legal moves first, so it makes its own moves), else the lowest bot level the person has not
    beaten yet."""
    models = [
        agent
        for agent in offered_agents(user).filter(kind=Agent.Kind.LLM, game__in=["", game]).order_by("pk")
        if model_served(agent)
    ]
    if models:
        models.sort(
            key=lambda agent: not get_scaffold(agent.current_version().config.get("scaffold") or "direct").constrained
        )
        return models[0].slug
    bots = sorted(
        offered_agents(user).filter(kind=Agent.Kind.BOT, game=game).values_list("slug", flat=True),
        key=bot_level,
    )
    beaten: set[str] = set()
    if person is not None:
        won = Seat.objects.filter(agent_version__agent=person, score=1.0, match__game=game).values("match_id")
        beaten = set(
            Seat.objects.filter(match_id__in=won, agent_version__agent__kind=Agent.Kind.BOT).values_list(
                "agent_version__agent__slug", flat=True
            )
        )
    return next((slug for slug in bots if slug not in beaten), bots[-1] if bots else OPEN_CHALLENGE)


def running_matches(person: Agent | None) -> list[Match]:
    """The person's games still being played (newest first), for the lobby's "Your games" list."""
    if person is None:
        return []
    matches_abandoned_end()
    running = Match.objects.filter(status__in=[Match.Status.PENDING, Match.Status.RUNNING])
    return list(running.filter(seats__agent_version__agent=person).distinct().order_by("-pk")[:10])


def lobby(request: HttpRequest) -> HttpResponse:
    person = current_person(request)
    games = all_games()
    game = request.POST.get("game") or request.GET.get("game") or games[0].slug
    if game not in {g.slug for g in games}:
        game = games[0].slug
    # "Play again" and "Play a model" links carry the game, opponent and variant to preselect.
    initial = {"game": game, "opponent": request.GET.get("opponent") or default_opponent(game, person, request.user)}
    initial["variant"] = request.GET.get("variant", "")
    form = LobbyForm(
        request.POST or None,
        initial=initial,
        games=games,
        opponents=opponent_choices(game, request.user),
        variants=get_game(game).variants,
        seat_names=get_game(game).seat_names,
        needs_nickname=person is None,
        needs_consent=person is None or person.baseline_consent is None,
    )
    wait = limited(request, "match_create") if request.method == "POST" else 0
    if wait:
        form.add_error(None, f"You are starting games too quickly; try again in {wait} s.")
    elif request.method == "POST" and form.is_valid():
        try:
            return _start(request, form, person)
        except ServiceError as error:
            form.add_error(None, str(error))
    challenges = Challenge.objects.filter(match__isnull=True).select_related("creator")[:20]
    running = running_matches(person)
    context = {
        "form": form,
        "person": person,
        "challenges": challenges,
        "games": games,
        "game": game,
        "running": running,
        "adjourned": adjourned_ids(running),
    }
    response = render(request, "arena/lobby.html", context, status=429 if wait else 200)
    if wait:
        response["Retry-After"] = str(wait)
    return response


def _start(request: HttpRequest, form: LobbyForm, person: Agent | None) -> HttpResponse:
    if person is None:
        person = guest_agent_create(nickname=form.cleaned_data["nickname"])
        request.session["guest_agent"] = person.slug
    if form.cleaned_data.get("consent"):
        person_consent_set(agent=person, consent=form.cleaned_data["consent"] == "yes")
    game = form.cleaned_data["game"]
    if form.cleaned_data["opponent"] == OPEN_CHALLENGE:
        challenge_create(
            creator=person,
            game=game,
            seat=form.seat_index(),
            move_time_limit_s=form.time_limit_s(),
            variant=form.cleaned_data["variant"],
        )
        messages.success(request, "Your challenge is open; the game starts when someone accepts it.")
        return redirect("play")
    opponent = get_object_or_404(Agent, slug=form.cleaned_data["opponent"])
    variant = form.cleaned_data["variant"]
    match = person_match_create(
        person=person,
        opponent=opponent,
        game=game,
        seat=form.seat_index(),
        move_time_limit_s=form.time_limit_s(),
        variant=variant,
    )
    return redirect("play-match", pk=match.pk)


def lobby_opponents(request: HttpRequest) -> HttpResponse:
    """The opponent and variant selects for one game (htmx swaps them in when the game changes)."""
    slug = request.GET.get("game", "")
    try:
        variants, seat_names = get_game(slug).variants, get_game(slug).seat_names
    except UnknownGame:
        variants, seat_names = {}, ()
    context = {
        "groups": opponent_choices(slug, request.user),
        "variants": variant_choices(variants),
        "seats": seat_choices(seat_names),
        "selected": default_opponent(slug, current_person(request), request.user),
    }
    return render(request, "arena/partials/opponent-select.html", context)
