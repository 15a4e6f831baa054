"""The HTTP API for programs (django-ninja; OpenAPI at /api/v1/openapi.json, docs at /api/v1/docs).

Reads are open to all and show what the caller may see (arena/record/visibility.py): with a token, a
running match also shows its owner's own seats. Writes need a token with the right scope.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from ninja import Field, NinjaAPI, Path, Query, Schema
from ninja.errors import HttpError
from ninja.security import HttpBearer
from pydantic import ConfigDict

from arena.agents.outside import outside_config
from arena.api.services import MAX_ID, api_tournament_start
from arena.api.throttles import anonymous_throttle, token_throttle
from arena.models import Agent, ApiToken, Attempt, Tournament
from arena.pages.forms import MAX_TOURNAMENT_GAMES_PER_SEAT, TournamentForm
from arena.record.agents import agent_create, agent_update
from arena.record.selectors import match_list, match_summary, tournament_progress
from arena.record.services import ServiceError
from arena.record.tokens import api_token_touch, live_token
from arena.record.visibility import MatchView, Viewer, matches_visible_to
from games import all_games
from ratings.record.selectors import leaderboard_rows, snapshot_for

#: Longest page of a listing, and the furthest offset (a larger one is refused with 422, not sent to the database).
MAX_PAGE = 100
MAX_OFFSET = 1_000_000_000
#: Tournaments a person (not staff) may have started and not yet finished.
MAX_OPEN_TOURNAMENTS = 3


class TokenAuth(HttpBearer):
    """`Authorization: Bearer <token>`: a live token, whose record becomes `request.auth`."""

    def authenticate(self, request: HttpRequest, token: str) -> ApiToken | None:
        record = live_token(token)
        if record is not None:
            api_token_touch(token=record)
        return record


api = NinjaAPI(title="Arena API", version="1", urls_namespace="api", throttle=[anonymous_throttle, token_throttle])
bearer = TokenAuth()


def _viewer(request: HttpRequest) -> ApiToken | None:
    """The caller's token on an open read, when one was given (a bad one is refused, not ignored)."""
    header = request.headers.get("Authorization", "")
    if not header:
        return None
    record = bearer(request)
    if record is None:
        raise HttpError(401, "Unknown or revoked token.")
    return record


def _match_viewer(request: HttpRequest) -> Viewer:
    """Who reads a match: with a token, its person (playing as their own agents and those they own)."""
    token = _viewer(request)
    return Viewer() if token is None else Viewer.of_user(token.user)


def _summary(shown: MatchView) -> dict[str, Any]:
    """A match's summary as the caller may see it: no seed nor result while its set keeps its secrets."""
    summary = match_summary(shown.match)
    return {**summary, "seed": shown.seed, "scores": shown.scores, "termination": shown.termination}


def _require(token: ApiToken, scope: str) -> None:
    if scope not in token.scopes:
        raise HttpError(403, f"This token lacks the {scope!r} scope.")


class AgentIn(Schema):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"slug": "my-bot", "kind": "remote", "config": {"url": "https://bot.example/move"}}]
        }
    )

    slug: str
    name: str = ""
    kind: str = "remote"
    game: str = ""
    config: dict[str, Any] = Field(min_length=1, description="the kind's fields (docs/agents.md); never empty")


class VersionIn(Schema):
    config: dict[str, Any] = Field(min_length=1, description="the agent's whole new config; never empty")


class TournamentIn(Schema):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"slug": "my-climb", "format": "ladder", "games": ["tic-tac-toe"], "agents": ["tic-tac-toe-lv1"]}
            ]
        }
    )

    slug: str
    name: str = ""
    format: str = "ladder"
    games: list[str]
    agents: list[str]
    games_per_seat: int | None = Field(None, ge=1, le=MAX_TOURNAMENT_GAMES_PER_SEAT)


class Refusal(Schema):
    """Why a request was refused: one sentence naming what to fix (422: pydantic's list of invalid fields)."""

    detail: str | list[dict[str, Any]]


#: The refusals every route may answer with, documented so clients (and schemathesis) know them: 422 for a body
#: the schema refuses, 400 for one it allows that the site's rules do not (an unknown game, a config its kind cannot
#: use: `detail` says which).
REFUSALS = dict.fromkeys((400, 401, 403, 404, 422, 429), Refusal)
#: A route's answers when its success is a JSON object described in docs/agents.md.
ANSWERS = {200: dict[str, Any], **REFUSALS}
#: A route that names a new thing also answers 409 when the name is taken.
CREATED = {**ANSWERS, 409: Refusal}


class MatchOut(Schema):
    match_id: int
    game: str
    seed: int | None = Field(description="null while anything it determines is still in play")
    status: str
    agents: list[str]
    scores: list[float] | None = Field(description="null until the match and those on its deal are over")
    termination: str = Field(description="empty until the match and those on its deal are over")
    decisions: int


class DecisionOut(Schema):
    ply: int
    seat: int | None = Field(description="null when the decision is hidden from the caller, as on the pages")
    action: str = Field(description="a hidden decision's public text")
    elapsed_ms: int | None = Field(description="null when the decision is hidden: its timing would name its seat")
    fallback: str | None = Field(description="null when the decision is hidden")
    trace_visible: bool


class MatchDetailOut(MatchOut):
    your_seats: list[int]
    decisions: list[DecisionOut]  # type: ignore[assignment]


class MatchPageOut(Schema):
    matches: list[MatchOut]
    limit: int


@api.get("/leaderboard/{game}", response=ANSWERS, summary="A game's leaderboard (the latest rating snapshot)")
def leaderboard(request: HttpRequest, game: str) -> dict[str, Any]:
    _viewer(request)
    snapshot = snapshot_for(game=game, filters={})
    if snapshot is None:
        raise HttpError(404, f"No leaderboard for {game!r} yet.")
    rows = leaderboard_rows(snapshot, kinds={kind for kind, _ in Agent.Kind.choices})
    return {"game": game, "computed_at": snapshot.computed_at.isoformat(), "rows": rows}


@api.get("/matches", response={200: MatchPageOut, **REFUSALS}, summary="Matches, newest first")
def matches(
    request: HttpRequest,
    game: str = "",
    agent: str = "",
    status: str = "",
    offset: int = Query(0, ge=0, le=MAX_OFFSET),
    limit: int = Query(50, ge=1, le=MAX_PAGE),
) -> dict[str, Any]:
    viewer = _match_viewer(request)
    page = match_list(viewer, game=game, agent=agent, status=status)[offset : offset + limit]
    return {"matches": [_summary(MatchView.for_viewer(m, viewer)) for m in page], "limit": limit}


@api.get(
    "/matches/{match_id}",
    response={200: MatchDetailOut, **REFUSALS},
    summary="A match and its decisions, as the caller may see them",
)
def match_detail(request: HttpRequest, match_id: int = Path(..., ge=0, le=MAX_ID)) -> dict[str, Any]:
    viewer = _match_viewer(request)
    shown = MatchView.for_viewer(get_object_or_404(matches_visible_to(viewer), pk=match_id), viewer)
    decisions = [
        {
            "ply": d.ply,
            "seat": seen.seat,  # None where hidden, as on the pages; and so is everything that would tell it
            "action": seen.action_text,
            "elapsed_ms": seen.elapsed_ms,
            "fallback": seen.fallback,
            "trace_visible": shown.trace(d),
        }
        for d in shown.match.decisions.order_by("ply")
        for seen in [shown.shown(d)]
    ]
    return {**_summary(shown), "your_seats": list(shown.seats), "decisions": decisions}


@api.get(
    "/matches/{match_id}/attempts/{ply}", response=ANSWERS, summary="The attempts behind one decision (when visible)"
)
def attempts(
    request: HttpRequest, match_id: int = Path(..., ge=0, le=MAX_ID), ply: int = Path(..., ge=0, le=MAX_ID)
) -> dict[str, Any]:
    viewer = _match_viewer(request)
    match = get_object_or_404(matches_visible_to(viewer), pk=match_id)
    decision = get_object_or_404(match.decisions, ply=ply)
    if not MatchView.for_viewer(match, viewer).trace(decision):
        raise HttpError(403, "This seat's trace stays hidden until the match and its twins are over.")
    fields = ("number", "verdict", "raw_text", "reasoning_text", "parsed_action", "message", "latency_ms")
    rows = Attempt.objects.filter(match=match, ply=ply).order_by("number").values(*fields, "messages")
    return {"ply": ply, "seat": decision.seat, "attempts": list(rows)}


@api.get("/tournaments/{slug}", response=ANSWERS, summary="A tournament's progress: matches by status and standings")
def tournament(request: HttpRequest, slug: str) -> dict[str, Any]:
    _viewer(request)
    found = get_object_or_404(Tournament, slug=slug)
    return {"slug": found.slug, "format": found.format, "status": found.status, **tournament_progress(found)}


@api.post("/agents", auth=bearer, response=CREATED, summary="Register an agent (remote agents only through the API)")
def agent_new(request: HttpRequest, payload: AgentIn) -> dict[str, Any]:
    """A new remote agent owned by the token's person; an HTTP agent's signing secret is in the answer, once."""
    token: ApiToken = request.auth
    _require(token, ApiToken.Scope.AGENTS)
    if Agent.objects.filter(slug=payload.slug).exists():
        raise HttpError(409, f"An agent called {payload.slug[:80]!r} already exists; choose another slug.")
    try:
        config, secret = outside_config(payload.kind, payload.config, operator=False)
        agent = agent_create(
            slug=payload.slug, name=payload.name or payload.slug, kind=payload.kind, game=payload.game,
            config=config, owner=token.user,
        )  # fmt: skip
    except ServiceError as error:
        raise HttpError(400, str(error)) from None
    return {"slug": agent.slug, "version": 1, **({"signing_secret": secret} if secret else {})}


@api.post("/agents/{slug}/versions", auth=bearer, response=ANSWERS, summary="A new config for one of your agents")
def agent_version_new(request: HttpRequest, slug: str, payload: VersionIn) -> dict[str, Any]:
    token: ApiToken = request.auth
    _require(token, ApiToken.Scope.AGENTS)
    agent = get_object_or_404(Agent, slug=slug, owner=token.user)
    try:
        config, _ = outside_config(agent.kind, payload.config, operator=False, previous=agent.current_version().config)
        version = agent_update(agent=agent, config=config)
    except ServiceError as error:
        raise HttpError(400, str(error)) from None
    return {"slug": agent.slug, "version": version.number}


@api.post(
    "/tournaments",
    auth=bearer,
    response=CREATED,
    summary="Start a tournament or a ladder climb, queued for the workers",
)
def tournament_new(request: HttpRequest, payload: TournamentIn) -> dict[str, Any]:
    """Checked by the staff page's form (its formats, sizes and games per seat), then by who may start what."""
    token: ApiToken = request.auth
    _require(token, ApiToken.Scope.TOURNAMENTS)
    user = token.user
    agents = list(Agent.objects.filter(slug__in=payload.agents))
    if len(agents) != len(set(payload.agents)):
        raise HttpError(400, "Unknown agent(s): " + ", ".join(sorted(set(payload.agents) - {a.slug for a in agents})))
    data = _tournament_form(payload, agents)
    if not user.is_staff:
        if data["format"] != Tournament.Format.LADDER or any(a.owner_id != user.pk for a in agents):
            raise HttpError(403, "People start ladder climbs of their own agents; other formats are for staff.")
        open_ones = Tournament.objects.filter(config__started_by=user.pk).exclude(
            status__in=[Tournament.Status.FINISHED, Tournament.Status.CANCELLED]
        )
        if open_ones.count() >= MAX_OPEN_TOURNAMENTS:
            raise HttpError(429, f"At most {MAX_OPEN_TOURNAMENTS} of your tournaments may run at once.")
    if Tournament.objects.filter(slug=data["slug"]).exists():
        raise HttpError(409, f"A tournament called {data['slug']!r} already exists; choose another slug.")
    chosen = {a.slug: a for a in agents}
    try:
        created = api_tournament_start(
            user=user, slug=data["slug"], name=data["name"], format=data["format"], games=data["games"],
            agents=[chosen[s] for s in data["agents"]], games_per_seat=data["games_per_seat"],
            budget=data["budget"], first_seed=None,
        )  # fmt: skip
    except ServiceError as error:
        raise HttpError(400, str(error)) from None
    return {"slug": created.slug, "matches": created.matches.count()}


def _tournament_form(payload: TournamentIn, agents: list[Agent]) -> dict[str, Any]:
    """The payload as the staff page's TournamentForm cleans it (games per seat may be left to the format's
    default here); 400 naming each field it refuses."""
    fields = TournamentForm.base_fields
    form = TournamentForm(
        data={
            **payload.dict(),
            "name": payload.name or payload.slug,
            "games_per_seat": payload.games_per_seat,
            "budget": fields["budget"].initial,
        },
        games=[(game.slug, game.name) for game in all_games()],
        agents=[(agent.slug, agent.slug) for agent in agents],
    )
    form.fields["games_per_seat"].required = False
    if not form.is_valid():
        problems = [f"{field}: {' '.join(errors)}" if field != "__all__" else " ".join(errors)
                    for field, errors in form.errors.items()]  # fmt: skip
        raise HttpError(400, " ".join(problems))
    return form.cleaned_data
