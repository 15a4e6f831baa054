"""The leak audit: while a match of any hidden-information game runs, nothing a spectator or a seated person
can fetch holds a secret of another seat.

For every registered game with `hidden_information` (found through the registry, so a new game is audited
without touching this file), two people and the game's bots play a real match through the services to a
running mid-game position; every person annotates their own moves. Then a spectator (anonymous), a signed-in
onlooker and each seated person fetch every page the URLconf offers (a new page is fetched automatically, or
the test fails until it is classified below), the replay fragment at every ply, the downloads, and the first
websocket frame through the real ASGI application.

A viewer's secrets, and why they are extracted this way:
- Leaf values of `full_view` that the viewer's own `player_view` never shows, at any ply so far (a replay
  legitimately shows earlier positions). Leaves are compared as text; booleans, None, short numbers (under
  four digits: counts, chips, coordinates) and short strings (under five characters: card ranks, colours)
  are skipped, because such values also occur in any page by accident and would make the audit cry wolf.
  So are values the viewer legitimately sees anywhere: in their own boards, or in pages that hold no match
  at all (the home page, the game's rules page), since a word such as "werewolf" is no secret, only whose
  role it is.
- The board as the game's own renderer draws it: every start tag with attributes of the fully revealed
  board that none of the viewer's boards at any ply contains (`<div class="card colour-red" data-cell="c7">`).
  This catches the secrets the short-value rule must skip: a card rank or a key-card colour is no secret, the
  tag that ties it to a seat or a cell is.
- The action text of another seat's decision the game declares hidden (`public_action_text` differs):
  sealed plans, Stratego setups, night actions.
- The seed, which determines every deal, key card and role.
`test_every_hidden_game_has_secrets_to_find` proves the extraction finds something for every game and every
viewer, so the audit cannot pass by having nothing to look for.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html import escape, unescape
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from django.urls import NoReverseMatch, URLPattern, URLResolver, get_resolver, reverse

from arena.asgi import application
from arena.models import Agent, Match
from arena.pages.rendering import board_html
from arena.record.agents import bots_ensure
from arena.record.annotations import annotation_save
from arena.record.people import person_agent_for_user, person_move
from arena.record.selectors import match_state_at
from arena.record.services import ServiceError, match_create
from arena.runner.loop import run_match
from games import all_games, get_game
from ratings.record.reports import PAPERS
from tests.arena.sockets import Socket
from tests.sampled import sampled

pytestmark = pytest.mark.django_db(transaction=True)

HIDDEN_GAMES = [game.slug for game in all_games() if game.hidden_information]
#: The games `make check` audits: a card game, a hidden setup and sealed plans. `make test` audits them all.
QUICK_AUDIT = {"kuhn-poker", "stratego", "battle-card"}
AUDITED = sampled(HIDDEN_GAMES, QUICK_AUDIT)
MIN_PLY = 4
MAX_PLY = 80

#: Named routes the audit cannot fetch as a visitor for this match, and why. Every other named route is fetched.
NOT_FETCHED = {
    "healthz": "no match data: database and channel-layer status",
    "agent-create": "staff only",
    "agent-edit": "staff only",
    "decision-annotate": "POST only (the audit annotates through the service and checks refusals below)",
    "annotation-delete": "POST only",
    "challenge-accept": "POST only",
    "challenge-cancel": "POST only",
    "ladder-start": "POST only",
    "play-opponents": "the lobby's opponent select: agents only, no match data",
    "tournament-detail": "the audited match belongs to no tournament",
    "tournament-progress": "the audited match belongs to no tournament",
    "ladder-climb": "the audited match belongs to no tournament",
    "api:tournament": "the audited match belongs to no tournament",
    "api:attempts": "fetched at every ply of the audited match (below)",
    "api:agent_new": "POST only, with a token",
    "api:agent_version_new": "POST only, with a token",
    "api:tournament_new": "POST only, with a token",
    "api:api-root": "the API's root: no content of its own",
    "study-next": "POST only; a study's pages show no match but the participant's own (tests/arena/test_studies.py)",
    "study-open": "staff only, POST only",
    "study-exclude": "staff only, POST only",
    "study-export": "staff only: 404 to anyone else (tests/arena/test_studies.py)",
    "study-table": "staff only: 404 to anyone else (tests/arena/test_study_exports.py)",
    "study-delete": "staff only, POST only",
}
#: Pages the audit adds: downloads and filters the URLconf cannot spell, and admin lists a non-staff visitor tries.
EXTRA_QUERIES = {
    "leaderboard": ["?format=json", "?format=csv"],
    "analysis": ["?format=json"] + [f"?format=csv&table={t}" for t in ("first-mover", "head-to-head", "ladder")],
    "match-list": ["?status=running", "?game={game}"],
    "annotation-list": ["?game={game}"],
    "dataset-download": ["?game={game}"],
    "report": ["?format=json", "?format=csv", "?format=md"],
    "report-cell": [f"?table={t}&row=0&col=0" for t in ("table-1", "table-2", "table-3", "metrics", "figure-1")],
}
ADMIN_LISTS = ["/admin/arena/match/", "/admin/arena/decision/", "/admin/arena/attempt/", "/admin/arena/annotation/"]


@dataclass
class Viewer:
    name: str
    client: Client
    seats: list[int]
    secrets: set[str] = field(default_factory=set)


def leaf_values(tree: Any) -> Iterator[Any]:
    """Every leaf of a JSON tree."""
    if isinstance(tree, dict | list | tuple):
        for value in tree.values() if isinstance(tree, dict) else tree:
            yield from leaf_values(value)
    else:
        yield tree


def notable(value: Any) -> str | None:
    """A leaf's text if it is specific enough to search pages for (see the module docstring), else None."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return str(value) if abs(value) >= 1000 else None
    text = str(value).strip()
    return text if len(text) >= 5 else None


def tags_with_attributes(html: str) -> set[str]:
    """Every start tag that carries attributes: the ones that tie a value to a seat or a cell."""
    return set(re.findall(r"<[a-zA-Z][^<>]*\s[^<>]*=[^<>]*>", html))


def viewer_secrets(game, match: Match, seat: int | None, harmless: str) -> set[str]:
    """What `seat` (None: a spectator) may not learn while the match runs (module docstring)."""
    states = [match_state_at(match, ply) for ply in range(match.ply + 1)]
    own = [game.player_view(state, seat) for state in states]
    seen = {notable(v) for view in own for v in leaf_values(view)} - {None}
    own_boards = unescape("".join(board_html(game, state, seat) for state in states))
    full = {notable(v) for state in states for v in leaf_values(game.full_view(state))} - {None}
    # A value inside one the viewer's own view holds is known to it ("F SEV - BLA" in its own option
    # "F ANK S F SEV - BLA", a support of that move), so finding it on the viewer's page is no leak.
    own_text = "\n".join(seen)
    found = {value for value in full - seen if value not in own_boards + own_text and value not in harmless}
    found |= {
        tag
        for state in states
        for tag in tags_with_attributes(board_html(game, state, None, reveal=True))
        if unescape(tag) not in own_boards and unescape(tag) not in harmless
    }
    # Another seat's hidden action is no secret to a viewer who made the same one (two wolves, one victim).
    known = own_boards + "\n" + "\n".join(match.decisions.filter(seat=seat).values_list("action_text", flat=True))
    for decision in match.decisions.exclude(seat__in=[] if seat is None else [seat]):
        text = decision.action_text
        # An action every visitor reads on the game's own page (Pit's example offer buttons) betrays nothing.
        if game.public_action_text(text) != text and notable(text) and text not in known and text not in harmless:
            found.add(text)
    return found | {str(match.seed)}


def play_to_mid_game(slug: str, people: list[Agent], harmless: str) -> Match:
    """A real match: the two people in the first and the last seat (moving at random through `person_move`), the
    game's weakest bot in every other seat (through the runner), stopped while running at ply MIN_PLY or later
    where a spectator has something to find besides the seed (`mid_game`: in plan games, while a plan is sealed)."""
    game = get_game(slug)
    bot = bots_ensure(game=slug)[0]
    for attempt in range(10):
        agents = [people[0], *[bot] * (game.num_players - 2), people[1]]
        # Fixed seeds keep the audit repeatable; long ones, so that finding the seed in a page means something.
        match = match_create(game=slug, agents=agents, seed=918_273_645 + attempt)
        rng = random.Random(attempt)
        while match.status in (Match.Status.PENDING, Match.Status.RUNNING) and match.ply < MAX_PLY:
            match = async_to_sync(run_match)(match.pk) or Match.objects.get(pk=match.pk)
            if match.status != Match.Status.RUNNING or mid_game(game, match, harmless):
                break
            state = game.from_json(match.state)
            seat = game.current_player(state)
            text = game.action_to_text(state, game.random_action(state, rng))
            match = person_move(match_id=match.pk, agent=agents[seat], text=text, ply=match.ply).match
        if match.status == Match.Status.RUNNING and mid_game(game, match, harmless):
            return match
    raise AssertionError(f"{slug}: no match stayed running to ply {MIN_PLY} in 10 tries")


def mid_game(game, match: Match, harmless: str) -> bool:
    """Far enough in, with secrets a spectator could find; if the last action is one the game hides (a plan),
    it is still hidden (sealed, not yet resolved), so the audit sees a sealed action in every list of moves."""
    if match.ply < MIN_PLY:
        return False
    secrets = viewer_secrets(game, match, None, harmless) - {str(match.seed)}
    last = match.decisions.get(ply=match.ply - 1).action_text
    return bool(secrets) and (game.public_action_text(last) == last or last in secrets)


def route_names() -> dict[str, URLPattern]:
    """Every named route of the site, by name (admin and auth excluded: they are Django's)."""
    found: dict[str, URLPattern] = {}

    def walk(patterns, namespace: str = ""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if getattr(pattern, "app_name", None) != "admin" and "accounts" not in str(pattern.pattern):
                    walk(pattern.url_patterns, f"{pattern.namespace}:" if pattern.namespace else namespace)
            elif pattern.name and "accounts" not in str(pattern.pattern):
                found[namespace + pattern.name] = pattern

    walk(get_resolver().url_patterns)
    return found


def urls_to_fetch(match: Match) -> list[str]:
    """Every page a visitor can reach for this match: each named route with the arguments this match gives it."""
    slug = match.game
    agents = sorted({seat.agent_version.agent.slug for seat in match.seats.select_related("agent_version__agent")})
    by_argument = {
        "pk": [match.pk],
        "match_id": [match.pk],
        "slug": [*agents, slug],
        "game": [slug],
        "paper_slug": list(PAPERS),
    }
    urls = []
    for name, pattern in route_names().items():
        if name in NOT_FETCHED:
            continue
        arguments = list(pattern.pattern.converters)
        assert len(arguments) <= 1, f"classify route {name!r} in NOT_FETCHED or teach the audit its arguments"
        if not arguments:
            bases = [reverse(name)]
        else:
            (argument,) = arguments
            assert argument in by_argument, f"route {name!r} takes {argument!r}: classify it in NOT_FETCHED"
            bases = []
            for value in by_argument[argument]:
                try:
                    bases.append(reverse(name, kwargs={argument: value}))
                except NoReverseMatch:
                    continue  # e.g. an agent slug a game route does not accept
        for base in bases:
            urls.append(base)
            urls += [base + query.format(game=slug) for query in EXTRA_QUERIES.get(name, [])]
    replay = reverse("match-replay", args=[match.pk])
    urls += [f"{replay}?ply={ply}" for ply in range(match.ply + 1)]
    urls += [f"{reverse('match-detail', args=[match.pk])}?ply={ply}" for ply in range(match.ply + 1)]
    urls += [reverse("api:attempts", kwargs={"match_id": match.pk, "ply": ply}) for ply in range(match.ply)]
    return urls + ADMIN_LISTS


def first_frame(viewer: Viewer, match: Match) -> str:
    cookie = viewer.client.cookies.get("sessionid")
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if cookie is not None:
        headers.append((b"cookie", f"sessionid={cookie.value}".encode()))

    async def receive() -> str:
        socket = Socket(application, f"/ws/matches/{match.pk}/", headers=headers)
        connected, _ = await socket.connect()
        assert connected
        frame = await socket.receive_from(timeout=10)
        await socket.disconnect()
        return frame

    frame = json.loads(async_to_sync(receive)())
    assert frame["type"] == "fragment"
    return frame["html"]


def leaked(secrets: set[str], body: str) -> set[str]:
    """The secrets found in a response body, raw, HTML-escaped or JSON-escaped."""
    readable = unescape(body)
    return {s for s in secrets if s in body or s in readable or json.dumps(s)[1:-1] in body}


def where(secrets: set[str], body: str) -> list[str]:
    """Where each leaked secret sits in the body, for the failure message."""
    readable = unescape(body)
    spots = []
    for secret in sorted(secrets)[:3]:
        at = readable.find(secret)
        spots.append(readable[max(at - 200, 0) : at + 60] if at >= 0 else secret[:60])
    return spots


def setup_viewers(slug: str, django_user_model) -> tuple[Match, list[Viewer]]:
    users = [django_user_model.objects.create_user(name, password="pw-123456") for name in ("ann", "bob", "eve")]
    people = [person_agent_for_user(user=user) for user in users[:2]]
    harmless = unescape(Client().get("/").content.decode() + Client().get(f"/games/{slug}/").content.decode())
    match = play_to_mid_game(slug, people, harmless)
    for person in people:
        for decision in match.decisions.filter(seat__in=[match.seats.get(agent_version__agent=person).index]):
            annotation_save(author=person.user, decision=decision, glyph="!", tags=[], comment="my own move")
    viewers = [Viewer("spectator", Client(), [])]
    for user, seats in zip(users, ([0], [get_game(slug).num_players - 1], []), strict=True):
        client = Client()
        client.force_login(user)
        viewers.append(Viewer(user.username, client, seats))
    game = get_game(slug)
    for viewer in viewers:
        viewer.secrets = viewer_secrets(game, match, viewer.seats[0] if viewer.seats else None, harmless)
    return match, viewers


@pytest.mark.parametrize("slug", AUDITED)
def test_every_hidden_game_has_secrets_to_find(slug, django_user_model):
    """The audit below can fail: a spectator has more to find than the seed, and finds it in a page that
    showed the whole record (every ply's revealed board and every action), as a finished match's replay does."""
    match, viewers = setup_viewers(slug, django_user_model)
    game, secrets = get_game(slug), viewers[0].secrets - {str(match.seed)}
    assert secrets, f"{slug}: nothing hidden from a spectator"
    boards = [board_html(game, match_state_at(match, ply), None, reveal=True) for ply in range(match.ply + 1)]
    whole_record = "".join(boards) + "".join(f"<li>{escape(d.action_text)}</li>" for d in match.decisions.all())
    assert leaked(secrets, whole_record)


@pytest.mark.parametrize("slug", AUDITED)
def test_no_page_fragment_download_or_frame_shows_another_seats_secret(slug, django_user_model):
    match, viewers = setup_viewers(slug, django_user_model)
    urls = urls_to_fetch(match)
    fetched = 0
    for viewer in viewers:
        for url in urls:
            response = viewer.client.get(url)
            assert response.status_code in (200, 302, 400, 403, 404), (viewer.name, url, response.status_code)
            body = (b"".join(response.streaming_content) if response.streaming else response.content).decode()
            found = leaked(viewer.secrets, body)
            assert not found, (slug, viewer.name, url, where(found, body))
            fetched += 1
        frame = first_frame(viewer, match)
        found = leaked(viewer.secrets, frame)
        assert not found, (slug, viewer.name, "websocket", where(found, frame))
    assert Match.objects.get(pk=match.pk).status == Match.Status.RUNNING  # audited while it ran
    assert fetched >= len(viewers) * (match.ply + 10)


@pytest.mark.parametrize("slug", ["tower-defense", "stratego", "sea-battle"])
def test_a_hidden_move_cannot_be_annotated_while_the_match_runs(slug, django_user_model):
    match, viewers = setup_viewers(slug, django_user_model)
    game = get_game(slug)
    mine = match.decisions.filter(seat=0).order_by("ply")
    hidden = next(d for d in mine if game.public_action_text(d.action_text) != d.action_text)
    bob = django_user_model.objects.get(username="bob")
    with pytest.raises(ServiceError, match="stays hidden"):
        annotation_save(author=bob, decision=hidden, glyph="?", tags=[], comment="guess")
    response = viewers[2].client.post(f"/decisions/{hidden.pk}/annotate/", {"comment": "x"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 404  # a move hidden from bob is not his to annotate, nor to probe
    assert "Save annotation" not in response.content.decode()
    assert hidden.annotations.filter(author=bob).count() == 0
    own_row = f"<code>{escape(hidden.action_text)}</code>"
    assert own_row in viewers[1].client.get("/annotations/").content.decode()  # ann sees her own move and note
    onlooker = viewers[3].client.get("/annotations/").content.decode()
    assert own_row not in onlooker
    assert "hidden until the match ends" in onlooker
