"""Hidden means hidden: what `MatchView` and `matches_visible_to` let a viewer see, on every surface.

A hidden decision shows nothing of who made it (its timing, tokens, cost, fallback, time of recording) on any page,
fragment, websocket frame, API answer, download or annotation list; a match sharing its deal with twins still to
play shows no result, and its tournament no standing from it; a study's match is not found by a stranger on any
route that takes a match id, nor can its decisions be annotated.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from django.urls import reverse

from arena.asgi import application
from arena.models import Annotation, Decision, Match
from arena.pages.move_list import MoveRow
from arena.pages.rendering import live_seats
from arena.pages.results import result_text
from arena.record.agents import bots_ensure
from arena.record.annotations import annotation_save
from arena.record.visibility import HIDDEN_FIELDS, MatchView
from arena.runner.loop import run_match
from arena.tournaments.services import tournament_create
from tests.arena.api.test_api import bearer, make_token
from tests.arena.api.test_api_visibility import running  # noqa: F401 (a fixture)
from tests.arena.sockets import Socket
from tests.arena.test_leak_audit import Viewer, first_frame, route_names, urls_to_fetch
from tests.arena.test_studies import join, play_next, study  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)

#: Values no page holds by chance, written into a hidden decision's fields (Werewolf's first night kill, a wolf's).
MARKS = {
    "elapsed_ms": 4_837_291,
    "prompt_tokens": 3_918_273,
    "completion_tokens": 2_736_451,
    "reasoning_tokens": 1_627_384,
    "cost": 7.654321,
    "fallback": "random_legal",
    "created_at": datetime(2093, 7, 13, 4, 5, 6, tzinfo=UTC),
}
#: How each mark would read on a page, in JSON or in a frame.
TRACES = [
    "4837291", "3918273", "2736451", "1627384", "7.65432", "fallback: random_legal", "random fallback", "2093-07-13",
]  # fmt: skip
#: Routes taking a `pk` that is not a match's, and where they are checked.
NOT_MATCH_IDS = {
    "challenge-accept": "a challenge's id",
    "challenge-cancel": "a challenge's id",
    "decision-annotate": "a decision's id: test_a_study_match_or_a_hidden_move_cannot_be_annotated",
    "annotation-delete": "an annotation's id: test_a_study_match_or_a_hidden_move_cannot_be_annotated",
    "program-build": "an uploaded program's build: tests/arena/test_program_upload.py (its author's only)",
}


def body(response) -> str:
    return (b"".join(response.streaming_content) if response.streaming else response.content).decode()


def test_every_field_of_a_decision_is_public_or_hidden_with_its_seat():
    """A new field of Decision must be placed: shown with a hidden decision, or hidden with its seat."""
    shown_always = {"id", "match", "ply", "action_text"}
    fields = {field.name for field in Decision._meta.concrete_fields}
    assert fields == shown_always | set(HIDDEN_FIELDS)
    assert set(MoveRow._fields) - {"pk"} <= fields


def test_a_hidden_decision_shows_nothing_of_who_made_it_on_any_surface(running):  # noqa: F811
    match, user = running
    hidden, visible = match.decisions.get(ply=0), match.decisions.get(ply=4)  # a wolf's kill; P1's greeting
    assert (hidden.seat, visible.seat) == (1, 0)
    Decision.objects.filter(pk=hidden.pk).update(**MARKS)
    Decision.objects.filter(pk=visible.pk).update(elapsed_ms=5_550_123)  # shown: the audit can see a field
    villager = Client()
    villager.force_login(user)
    urls = urls_to_fetch(match)
    for name, client in (("spectator", Client()), ("villager", villager)):
        for url in urls:
            text = body(client.get(url))
            assert not [trace for trace in TRACES if trace in text], (name, url)
        frame = first_frame(Viewer(name, client, []), match)
        assert not [trace for trace in TRACES if trace in frame], (name, "websocket")
        api = client.get(f"/api/v1/matches/{match.pk}").json()["decisions"]
        assert api[0] == {
            "ply": 0, "seat": None, "action": "(night action)", "elapsed_ms": None, "fallback": None,
            "trace_visible": False,
        }  # fmt: skip
        assert (api[4]["seat"], api[4]["elapsed_ms"]) == (0, 5_550_123)
        assert "5550123 ms" in body(client.get(f"/matches/{match.pk}/replay/?ply=5"))
    assert Match.objects.get(pk=match.pk).status == Match.Status.RUNNING


def test_an_annotation_of_a_hidden_move_does_not_name_its_author(running):  # noqa: F811
    """Only the seat that made a hidden move may annotate it, so its annotator's name would name the seat."""
    match, user = running
    vote = match.decisions.get(ply=11)  # the villager's own vote, hidden from others until the tally
    annotation_save(author=user, decision=vote, glyph="!", tags=[], comment="my vote")
    villager = Client()
    villager.force_login(user)
    assert f"<td>{user.username}</td>" in body(villager.get("/annotations/"))
    listed = body(Client().get("/annotations/"))
    assert "hidden until the match ends" in listed
    assert f"<td>{user.username}</td>" not in listed


def test_shown_blanks_every_hidden_field_of_a_decision_and_of_a_move_row(running):  # noqa: F811
    match, _ = running
    spectator = MatchView.for_seats(match, [])
    decision = match.decisions.get(ply=0)
    row = MoveRow(*(getattr(decision, column) for column in MoveRow._fields))
    for shown in (spectator.shown(decision), spectator.shown(row)):
        assert shown.action_text == "(night action)"
        assert all(getattr(shown, field) is None for field in HIDDEN_FIELDS if hasattr(shown, field))
    assert match.decisions.get(ply=0).seat == 1
    assert decision.seat == 1
    wolf = MatchView.for_seats(match, [1])
    assert wolf.shown(decision) is decision
    assert wolf.trace(decision)


def test_a_finished_twin_shows_no_result_while_its_deal_is_still_to_play(django_user_model):
    bots = {agent.slug: agent for agent in bots_ensure(game="werewolf")}
    tournament = tournament_create(
        slug="ww-rr", name="Werewolf round robin", format="round_robin", games=["werewolf"],
        agents=[bots["werewolf-lv0"], bots["werewolf-lv1"]], games_per_seat=1,
    )  # fmt: skip
    matches = list(tournament.matches.order_by("pk"))
    assert len(matches) == 16
    assert len({m.seed for m in matches}) == 1
    async_to_sync(run_match)(matches[0].pk)
    first = Match.objects.get(pk=matches[0].pk)
    assert first.status == Match.Status.FINISHED
    assert first.termination
    said = result_text(first.termination, live_seats(first), first.scores)
    client = Client()

    def shown() -> tuple[dict, str, list]:
        api = client.get(f"/api/v1/matches/{first.pk}").json()
        listed = next(m for m in client.get("/api/v1/matches?limit=100").json()["matches"] if m["match_id"] == first.pk)
        assert (listed["scores"], listed["termination"]) == (api["scores"], api["termination"])
        pages = "".join(
            body(client.get(url)) for url in (f"/matches/{first.pk}/", "/matches/", "/", "/tournaments/ww-rr/")
        )
        pages += first_frame(Viewer("spectator", client, []), first)
        return api, pages, client.get("/api/v1/tournaments/ww-rr").json()["standings"]

    api, pages, standings = shown()
    assert (api["scores"], api["termination"], api["seed"]) == (None, "", None)
    assert first.termination not in pages
    assert said not in pages
    assert "<strong>1.0</strong>" not in pages
    assert "<strong>0.0</strong>" not in pages
    assert "sealed until the matches on" in pages
    assert standings == []

    for match in matches[1:]:
        async_to_sync(run_match)(match.pk)
    api, pages, standings = shown()
    assert (api["scores"], api["termination"], api["seed"]) == (first.scores, first.termination, first.seed)
    assert said in pages
    assert {row["agent"] for row in standings} == {"werewolf-lv0", "werewolf-lv1"}


def match_routes(match: Match) -> list[str]:
    """Every route of the site and of the API that takes a match id, for `match` (its first decision for a ply)."""
    urls = []
    for name, pattern in route_names().items():
        arguments = set(pattern.pattern.converters)
        if not arguments & {"pk", "match_id"} or name in NOT_MATCH_IDS:
            continue
        assert arguments <= {"pk", "match_id", "ply"}, f"teach this test route {name!r}'s arguments"
        urls.append(reverse(name, kwargs={a: 0 if a == "ply" else match.pk for a in arguments}))
    return urls


def socket_opens(client: Client, match: Match) -> bool:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if (cookie := client.cookies.get("sessionid")) is not None:
        headers.append((b"cookie", f"sessionid={cookie.value}".encode()))

    async def connect() -> bool:
        socket = Socket(application, f"/ws/matches/{match.pk}/", headers=headers)
        connected, _ = await socket.connect()
        await socket.disconnect()
        return connected

    return async_to_sync(connect)()


def test_a_study_match_is_not_found_by_a_stranger_on_any_route(study, django_user_model):  # noqa: F811
    participant = Client()
    join(participant, "p-1")
    match = play_next(participant, person_wins=True)
    urls = match_routes(match)
    assert {f"/matches/{match.pk}/", f"/play/{match.pk}/", f"/api/v1/matches/{match.pk}"} <= set(urls)
    assert f"/api/v1/matches/{match.pk}/attempts/0" in urls
    mallory = django_user_model.objects.create_user("mallory", password="pw-123456")
    signed_in = Client()
    signed_in.force_login(mallory)
    token = bearer(make_token(mallory))
    researcher = bearer(make_token(django_user_model.objects.create_user("researcher", password="x", is_staff=True)))
    for url in urls:
        # There for its participant (a guest: the API, which knows only tokens, is the researchers' way).
        found = Client().get(url, **researcher) if url.startswith("/api/") else participant.get(url)
        assert found.status_code != 404, url
        for client, headers in ((Client(), {}), (signed_in, {}), (Client(), token)):
            assert client.get(url, **headers).status_code == 404, (url, headers)
    for client in (Client(), signed_in):
        assert not socket_opens(client, match)
        for listing in ("/matches/", "/", "/annotations/"):
            assert f"/matches/{match.pk}/" not in body(client.get(listing)), listing
    for headers in ({}, token):
        listed = Client().get("/api/v1/matches?limit=100", **headers).json()["matches"]
        assert match.pk not in {m["match_id"] for m in listed}
    assert socket_opens(participant, match)


def test_a_study_match_or_a_hidden_move_cannot_be_annotated(study, running, django_user_model):  # noqa: F811
    participant = Client()
    join(participant, "p-1")
    match = play_next(participant, person_wins=True)
    decision = match.decisions.get(ply=0)
    mallory = django_user_model.objects.create_user("mallory", password="pw-123456")
    signed_in = Client()
    signed_in.force_login(mallory)
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        response = signed_in.post(f"/decisions/{decision.pk}/annotate/", {"comment": "seen it"}, **headers)
        assert response.status_code == 404
    assert not Annotation.objects.exists()
    # A researcher's note on the study's move is theirs: strangers neither read it in the list nor delete it.
    researcher = django_user_model.objects.create_user("researcher", password="pw-123456", is_staff=True)
    staff = Client()
    staff.force_login(researcher)
    assert staff.post(f"/decisions/{decision.pk}/annotate/", {"comment": "a study note"}).status_code == 302
    note = Annotation.objects.get()
    assert "a study note" in body(staff.get("/annotations/"))
    assert "a study note" not in body(signed_in.get("/annotations/"))
    assert signed_in.post(f"/annotations/{note.pk}/delete/").status_code == 404
    assert Annotation.objects.filter(pk=note.pk).exists()

    werewolf, villager = running  # a wolf's night kill, hidden from the villager while the match runs
    own = Client()
    own.force_login(villager)
    night_kill = werewolf.decisions.get(ply=0)
    assert own.post(f"/decisions/{night_kill.pk}/annotate/", {"comment": "a wolf"}).status_code == 404
    assert not night_kill.annotations.exists()


def test_viewers_of_a_match_view_see_what_they_saw_before(running):  # noqa: F811
    """Behaviour kept: a seated person sees their own hidden moves in full, and their seat."""
    match, _ = running
    villager = MatchView.for_seats(match, [0])
    vote = match.decisions.get(ply=11)  # the villager's own vote, hidden from others until the tally
    assert villager.shown(vote) is vote
    assert not villager.hides(vote)
    seen = MatchView.for_seats(match, []).shown(vote)
    assert seen.seat is None
    assert seen.action_text != vote.action_text
