"""HTTP views. Reads go through selectors, writes through services."""

from __future__ import annotations

import asyncio
import contextlib

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import connection
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from arena.agents.llm.local import server_status
from arena.agents.outside import outside_config
from arena.models import Agent, Annotation, AnnotationTag, Decision, Match, Tournament
from arena.pages.forms import (
    LLMAgentForm,
    ProgramAgentForm,
    RemoteAgentForm,
    TournamentForm,
    UCIAgentForm,
    WebsocketBotForm,
)
from arena.pages.people import current_person, page_viewer
from arena.pages.ratelimit import limited
from arena.pages.refusal import refusal
from arena.pages.rendering import (
    annotations_html,
    blinded,
    board_html,
    live_seats,
    replay_html,
    tournament_progress_html,
)
from arena.pages.results import result_text
from arena.record.agents import agent_create, agent_update, public_config
from arena.record.annotations import annotation_agreement, annotation_delete, annotation_list, annotation_save
from arena.record.dataset import cached_export
from arena.record.people import adjourned_ids, matches_abandoned_end
from arena.record.selectors import agent_game_records, first_run_progress, match_list
from arena.record.services import ServiceError
from arena.record.tokens import bot_account_create
from arena.record.visibility import MatchView, Viewer, matches_visible_to
from arena.studies.selectors import is_study_seat
from arena.tournaments.services import tournament_create, tournament_queue
from games import UnknownGame, all_games, get_game
from games.bots import UnknownBot, ladder
from ratings.models import RatingSnapshot
from ratings.profile import agent_profile_charts
from ratings.selectors import is_ranked


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


def _database_status() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


async def _channel_layer_status() -> str:
    layer = get_channel_layer()
    channel = await layer.new_channel("healthz")
    try:
        await layer.send(channel, {"type": "healthz.ping"})
        message = await asyncio.wait_for(layer.receive(channel), timeout=2)
    finally:
        # Redis pub/sub keeps a subscription per channel until a receive on it is cancelled (as
        # Channels does when a consumer leaves): do that, or every health check would leave one.
        leftover = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(0)
        leftover.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await leftover
    return "ok" if message.get("type") == "healthz.ping" else "unexpected reply"


async def healthz(request: HttpRequest) -> JsonResponse:
    """Database and channel-layer status: 200 when both answer, 503 otherwise. The local model server's status
    ("ok", "not running", "restarting: …", "down: …") is reported beside them: the site serves without it."""
    checks = {}
    for name, check in (("database", sync_to_async(_database_status)), ("channel_layer", _channel_layer_status)):
        try:
            checks[name] = await check()
        except Exception as error:  # any failure is a health result, not a crash
            checks[name] = f"error: {type(error).__name__}: {error}"
    healthy = all(value == "ok" for value in checks.values())
    local_models = await sync_to_async(server_status, thread_sensitive=False)()
    body = {"status": "ok" if healthy else "degraded", **checks, "local_models": local_models}
    return JsonResponse(body, status=200 if healthy else 503)


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
        {
            "game": game,
            "board": board_html(game, state, None),  # an example start (seed 0), as a spectator sees it
            "bots": bots,
            # People's rules, one template per game next to its board (tests check every game has one).
            "how_to_play": f"games/{game.slug}/how_to_play.html",
        },
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
    if is_study_seat(agent) and not request.user.is_staff and current_person(request) != agent:
        raise Http404("No such agent.")  # a study participant's seat: theirs and the researchers' only
    records = agent_game_records(agent)
    context = {
        "agent": agent,
        "versions": [(version, public_config(version.config)) for version in agent.versions.order_by("-number")],
        "records": records,
        "matches": match_list(page_viewer(request), agent=slug)[:20],
        **agent_profile_charts(agent, records, study=request.GET.get("study", ""), staff=request.user.is_staff),
    }
    return render(request, "arena/agent_detail.html", context)


#: The agent forms by what the create page's `?kind=` names; the first three are for staff only.
AGENT_FORMS = {
    "llm": LLMAgentForm,
    "program": ProgramAgentForm,
    "uci": UCIAgentForm,
    "remote": RemoteAgentForm,
    "websocket": WebsocketBotForm,
}
STAFF_AGENT_FORMS = ("llm", "program", "uci")


def _form_kind(agent: Agent) -> str:
    if agent.kind == Agent.Kind.REMOTE and agent.current_version().config.get("transport") == "websocket":
        return "websocket"
    return agent.kind


@login_required
def agent_edit(request: HttpRequest, slug: str | None = None) -> HttpResponse:
    """Create or edit an agent (a config that has played gets a new version): staff any kind, people remote agents."""
    agent = get_object_or_404(Agent, slug=slug) if slug else None
    form_kind = _form_kind(agent) if agent else request.GET.get("kind", "llm")
    staff = request.user.is_staff
    if form_kind not in AGENT_FORMS:
        return refusal(request, status=403, message="People and bots are not set up on this page.")
    if agent and not staff and agent.owner_id != request.user.pk:
        return refusal(request, status=403, message="You may edit only the agents you registered.")
    if form_kind in STAFF_AGENT_FORMS and not staff:
        return refusal(request, status=403, message="Models, programs and engines are set up by staff.")
    if request.method == "POST" and (wait := limited(request, "agent_edit")):
        return refusal(request, status=429, message="You are saving agents too quickly.", retry_after=wait)
    config = agent.current_version().config if agent else {}
    if form_kind == "llm":
        form = LLMAgentForm(
            request.POST or None, initial={"slug": slug, "name": agent.name, **config} if agent else None
        )
    else:
        form_class = AGENT_FORMS[form_kind]
        initial = (
            {"slug": slug, "name": agent.name, "game": agent.game, **form_class.initial_from(config)} if agent else None
        )
        form = form_class(request.POST or None, initial=initial, games=all_games(), operator=staff)
    if agent:
        form.fields["slug"].disabled = True
    if request.method == "POST" and form.is_valid():
        try:
            return _agent_save(request, form, form_kind, agent)
        except ServiceError as error:
            form.add_error(None, str(error))
    context = {"form": form, "agent": agent, "form_kind": form_kind, "kind_label": AGENT_FORM_LABELS[form_kind]}
    return render(request, "arena/agent_form.html", context)


#: What each form makes, for titles.
AGENT_FORM_LABELS = {
    "llm": "LLM agent",
    "program": "program (Botzone protocol)",
    "uci": "UCI engine",
    "remote": "remote agent (HTTP)",
    "websocket": "bot account (websocket)",
}


def _agent_save(request: HttpRequest, form, form_kind: str, agent: Agent | None) -> HttpResponse:
    """Save the form's agent; a new agent's secret (signing secret or bot token) is shown on this answer only."""
    data = form.cleaned_data
    staff = request.user.is_staff
    if form_kind == "llm":
        config, secret = form.config(), ""
    elif agent is None and form_kind == "websocket":
        agent, token = bot_account_create(user=request.user, slug=data["slug"], name=data["name"], game=data["game"])
        return _agent_created(request, agent, token=token)
    else:
        previous = agent.current_version().config if agent else None
        config, secret = outside_config(form.kind, form.config_fields(), operator=staff, previous=previous)
    if agent:
        version = agent_update(agent=agent, config=config, name=data["name"])
        messages.success(request, f"Saved {agent.slug} as version {version.number}.")
        return redirect("agent-detail", slug=agent.slug)
    kind = Agent.Kind.LLM if form_kind == "llm" else form.kind
    owner = None if form_kind in STAFF_AGENT_FORMS else request.user
    game = data.get("game") or ("chess" if kind == Agent.Kind.UCI else "")
    agent = agent_create(slug=data["slug"], name=data["name"], kind=kind, game=game, config=config, owner=owner)
    if secret:
        return _agent_created(request, agent, signing_secret=secret)
    messages.success(request, f"Created {agent.slug}.")
    return redirect("agent-detail", slug=agent.slug)


def _agent_created(request: HttpRequest, agent: Agent, *, signing_secret: str = "", token: str = "") -> HttpResponse:
    """The one page that shows a new agent's secret; it is never shown again (no-store: not even from a cache)."""
    site = request.build_absolute_uri("/").rstrip("/")
    context = {"agent": agent, "signing_secret": signing_secret, "token": token, "site": site,
               "ws_url": site.replace("http", "ws", 1) + "/ws/bot/"}  # fmt: skip
    response = render(request, "arena/agent_created.html", context)
    response["Cache-Control"] = "no-store"
    return response


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


@require_POST
def decision_annotate(request: HttpRequest, pk: int) -> HttpResponse:
    """Save the signed-in person's annotation of a decision; answers with the updated block."""
    if wait := limited(request, "annotate"):
        return refusal(request, status=429, message="You are annotating too quickly.", retry_after=wait)
    viewer = page_viewer(request)
    decision, shown = _decision_shown(viewer, pk)
    if not shown.annotatable(decision):
        raise Http404("No such move.")  # a move hidden from the viewer is not theirs to annotate, nor to probe
    error = ""
    try:
        annotation_save(
            author=request.user,
            decision=decision,
            glyph=request.POST.get("glyph", ""),
            tags=request.POST.getlist("tags"),
            comment=request.POST.get("comment", ""),
        )
    except ServiceError as problem:
        error = str(problem)
    return _annotations_response(request, shown, decision, error)


def _decision_shown(viewer: Viewer, pk: int) -> tuple[Decision, MatchView]:
    """A decision of a match `viewer` may know of, and their view of that match; 404 for any other."""
    decision = get_object_or_404(
        Decision.objects.filter(match__in=matches_visible_to(viewer).values("pk")).select_related("match"), pk=pk
    )
    return decision, MatchView.for_viewer(decision.match, viewer)


@require_POST
def annotation_delete_view(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = page_viewer(request)
    annotation = get_object_or_404(
        Annotation.objects.filter(decision__match__in=matches_visible_to(viewer).values("pk")), pk=pk
    )
    decision, shown = _decision_shown(viewer, annotation.decision_id)
    error = ""
    try:
        annotation_delete(annotation=annotation, by=request.user)
    except ServiceError as problem:
        error = str(problem)
    return _annotations_response(request, shown, decision, error)


def _annotations_response(request: HttpRequest, shown: MatchView, decision: Decision, error: str) -> HttpResponse:
    if request.htmx:
        return HttpResponse(annotations_html(shown, decision, request.user, error), status=400 if error else 200)
    if error:
        messages.error(request, error)
    return redirect(f"{reverse('match-detail', args=[decision.match_id])}?ply={decision.ply + 1}")


def annotation_list_view(request: HttpRequest) -> HttpResponse:
    filters = {key: request.GET.get(key, "") for key in ("game", "agent", "tag", "annotator")}
    viewer = page_viewer(request)
    annotations = annotation_list(viewer, **filters)
    page = Paginator(annotations, 50).get_page(request.GET.get("page"))
    views: dict[int, MatchView] = {}
    for annotation in page.object_list:
        decision = annotation.decision
        shown = views.setdefault(decision.match_id, MatchView.for_viewer(decision.match, viewer))
        annotation.hidden = shown.hides(decision)
        # The move as the move list names it (chess's SAN "Qb6", not the record's UCI "d8b6"); a plan stays its
        # text; a hidden one its public text, with nothing of who made it (its annotator included: their own move).
        annotation.move_label = shown.shown(decision).action_text
        if not annotation.hidden and not shown.game.document_actions:
            state = shown.game.from_json(decision.state_before)
            annotation.move_label = shown.game.action_label(state, shown.game.action_from_json(decision.action))
    context = {
        "page": page,
        "filters": filters,
        "agreement": annotation_agreement(annotations),
        "games": all_games(),
        "tags": AnnotationTag.objects.filter(is_active=True),
    }
    return render(request, "arena/annotation_list.html", context)


def dataset_download(request: HttpRequest) -> HttpResponse:
    """The research dataset (JSONL, manifest first) for the filters given, streamed from the export cache."""
    filters = {key: request.GET.get(key, "") for key in ("game", "agent", "tournament") if request.GET.get(key)}
    known = {
        "game": lambda slug: slug in {g.slug for g in all_games()},
        "agent": lambda slug: Agent.objects.filter(slug=slug).exists(),
        "tournament": lambda slug: Tournament.objects.filter(slug=slug).exists(),
    }
    for key, value in filters.items():
        if not known[key](value):
            return refusal(request, status=400, message=f"{key}={value[:40]!r} is not known here; no such {key}.")
    if wait := limited(request, "dataset"):
        return refusal(request, status=429, message="Too many dataset downloads from here.", retry_after=wait)
    return FileResponse(
        cached_export(filters=filters),
        as_attachment=True,
        filename="arena-dataset.jsonl",
        content_type="application/x-ndjson; charset=utf-8",
    )
