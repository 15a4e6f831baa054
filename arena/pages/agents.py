"""The agents pages: the list, an agent's profile, and the forms that create and edit agents."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from arena.agents.outside import outside_config
from arena.models import Agent
from arena.pages.forms import LLMAgentForm, ProgramAgentForm, RemoteAgentForm, UCIAgentForm, WebsocketBotForm
from arena.pages.people import current_person, page_viewer
from arena.pages.ratelimit import limited
from arena.pages.refusal import refusal
from arena.record.agents import agent_create, agent_update, public_config
from arena.record.selectors import agent_game_records, match_list
from arena.record.services import ServiceError
from arena.record.tokens import bot_account_create
from arena.studies.selectors import is_study_seat
from games import all_games
from ratings.record.profile import agent_profile_charts


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
