"""Pages for people: the lobby, the live match page, challenges and sign-up."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.core.cache import cache
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from arena.agents import botzone
from arena.agents.llm.local import endpoint_is_local, server_listening
from arena.agents.llm.scaffolds import get_scaffold
from arena.agents.presence import bot_owners_online
from arena.models import Agent, Challenge, Match, Seat, Tournament
from arena.pages.forms import OPEN_CHALLENGE, LobbyForm, seat_choices, variant_choices
from arena.pages.ratelimit import limited
from arena.pages.refusal import refusal
from arena.pages.rendering import live_match_html
from arena.record.people import (
    account_create,
    adjourned_ids,
    challenge_accept,
    challenge_cancel,
    challenge_create,
    guest_agent_create,
    guest_merge,
    guest_pending_merge,
    matches_abandoned_end,
    person_agent_for_user,
    person_consent_set,
    person_match_create,
)
from arena.record.selectors import tournament_progress
from arena.record.services import ServiceError
from arena.record.visibility import Viewer, matches_visible_to
from arena.tournaments.climbs import person_ladder_start
from games import UnknownGame, all_games, get_game


def current_person(request: HttpRequest) -> Agent | None:
    """The person's seat: their account's agent, or the guest agent kept in the session."""
    if request.user.is_authenticated:
        return person_agent_for_user(user=request.user)
    slug = request.session.get("guest_agent")
    return Agent.objects.filter(slug=slug, kind=Agent.Kind.HUMAN).first() if slug else None


def page_viewer(request: HttpRequest) -> Viewer:
    """Who is looking at a page, as arena.record.visibility asks: the person's seat agent and the staff flag."""
    return Viewer.of_person(current_person(request), staff=request.user.is_staff)


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
        f"model-server-alive:{base_url}", lambda: server_listening(base_url, timeout_s=0.5), MODEL_SERVER_CHECK_TTL_S
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

    Programs play the games Arena has Botzone requests for (`botzone.has_requests`), UCI engines chess only, a
    websocket bot only while its account is connected, and a model on this machine only while its server runs.
    """
    programs_play = botzone.has_requests(get_game(game))
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
    match = person_match_create(
        person=person,
        opponent=opponent,
        game=game,
        seat=form.seat_index(),
        move_time_limit_s=form.time_limit_s(),
        variant=form.cleaned_data["variant"],
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


@require_POST
def challenge_accept_view(request: HttpRequest, pk: int) -> HttpResponse:
    person = current_person(request)
    if person is None:
        messages.error(request, "Choose a nickname (start any game) or log in before accepting a challenge.")
        return redirect("play")
    if wait := limited(request, "match_create"):
        return refusal(request, status=429, message="You are starting games too quickly.", retry_after=wait)
    try:
        match = challenge_accept(challenge=get_object_or_404(Challenge, pk=pk), accepter=person)
    except ServiceError as error:
        messages.error(request, str(error))
        return redirect("play")
    return redirect("play-match", pk=match.pk)


@require_POST
def challenge_cancel_view(request: HttpRequest, pk: int) -> HttpResponse:
    person = current_person(request)
    try:
        if person is None:
            raise ServiceError("Only the person who posted a challenge can cancel it.")
        challenge_cancel(challenge=get_object_or_404(Challenge, pk=pk), person=person)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, "Your challenge is withdrawn.")
    return redirect("play")


def play_match(request: HttpRequest, pk: int) -> HttpResponse:
    """The live page: players move here, everyone else spectates. The websocket keeps it current."""
    person = current_person(request)
    match = get_object_or_404(matches_visible_to(Viewer.of_person(person, staff=request.user.is_staff)), pk=pk)
    context = {"match": match, "live": live_match_html(match, person), "game": get_game(match.game)}
    context["focused"] = match.record.get("focused", False)  # a focused study's match: no site navigation
    return render(request, "arena/play.html", context)


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        name = request.user.get_username()
        return refusal(request, status=403, message=f"You are signed in as {name}; sign out to make another account.")
    if request.method == "POST" and (wait := limited(request, "signup")):
        return refusal(request, status=429, message="Too many sign-ups from here.", retry_after=wait)
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:  # the guest this browser played as, if any, becomes the account's seat
            user = account_create(form=form, guest=current_person(request))
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            request.session.pop("guest_agent", None)
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome, {user.get_username()}.")
            return redirect("play")
    return render(request, "registration/signup.html", {"form": form, "guest": current_person(request)})


def _session_guest(request: HttpRequest) -> Agent | None:
    """The guest agent this browser played as (kept in the session across signing in), if any."""
    slug = request.session.get("guest_agent")
    return Agent.objects.filter(slug=slug, kind=Agent.Kind.HUMAN).first() if slug else None


class PersonLoginView(auth_views.LoginView):
    """Django's sign-in; a browser that played as a guest is then asked whether to merge those games."""

    def get_success_url(self) -> str:
        url = super().get_success_url()
        if guest_pending_merge(guest=_session_guest(self.request), user=self.request.user):
            return f"{reverse('guest-merge')}?{urlencode({'next': url})}"
        return url


@login_required
def guest_merge_view(request: HttpRequest) -> HttpResponse:
    """Confirm step: move the games this browser played as a guest into the signed-in account, or keep them apart."""
    next_url = request.POST.get("next") or request.GET.get("next") or reverse("play")
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        next_url = reverse("play")
    guest = guest_pending_merge(guest=_session_guest(request), user=request.user)
    if guest is None:
        request.session.pop("guest_agent", None)
        return redirect(next_url)
    if request.method == "POST":
        if request.POST.get("action") == "keep":
            request.session.pop("guest_agent", None)
            messages.info(request, f"The guest {guest.name}'s games stay under the guest's name.")
            return redirect(next_url)
        try:
            account = guest_merge(guest=guest, user=request.user)
        except ServiceError as error:
            messages.error(request, str(error))
        else:
            request.session.pop("guest_agent", None)
            messages.success(request, f"The guest's games are now {account.name}'s; the leaderboards are refitting.")
            return redirect(next_url)
    games = Seat.objects.filter(agent_version__agent=guest).values("match").distinct().count()
    context = {"guest": guest, "games": games, "account": person_agent_for_user(user=request.user), "next": next_url}
    return render(request, "registration/guest_merge.html", context)


def rate_limited(name: str, message: str) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A form view whose submissions count against the rate limit `name` (per address and person): once it is
    used up a POST is refused with `message` before the view sees it (the login forms, the password reset)."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def guarded(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if request.method == "POST" and (wait := limited(request, name)):
                return refusal(request, status=429, message=message, retry_after=wait)
            return view(request, *args, **kwargs)

        return guarded

    return decorate


login_guarded = rate_limited("login", "Too many logins from here; try again in a while.")


def login_locked_out(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: the answer once an account name has failed too often from this address."""
    message = "Too many failed logins; for your account's safety, further tries wait a while."
    return refusal(request, status=429, message=message, retry_after=int(settings.AXES_COOLOFF_TIME.total_seconds()))


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
