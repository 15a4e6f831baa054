"""What one visitor can make live play cost, through the real ASGI stack: who starts a match, how
many sockets a person, an address and a match may hold, how many rejected moves are stored, how
often a position is rendered, and who may flag a clock."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from django.test import override_settings
from django.utils import timezone

from arena.asgi import application
from arena.models import Agent, Attempt, Match
from arena.pages import rendering
from arena.pages.live_panel import live_panel_html
from arena.play import consumers
from arena.play.live_limits import TOO_MANY_SOCKETS
from arena.record.agents import bots_ensure
from arena.record.people import person_agent_for_user
from arena.record.services import match_create
from arena.record.turns import match_claim, match_release
from tests.arena.sockets import Socket
from tests.arena.test_consumers import connect, make_match, next_error, next_fragment

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("bot_turns_finish"),
]


@pytest.fixture
def person_cookie(client, django_user_model):
    user = django_user_model.objects.create_user("alice", password="pw-123456")
    client.force_login(user)
    return user, f"sessionid={client.cookies['sessionid'].value}".encode()


def move(text: str, ply: int) -> str:
    return json.dumps({"type": "move", "move": text, "ply": ply})


async def first_frame(communicator) -> dict:
    return json.loads(await communicator.receive_from(timeout=10))


async def open_socket(match_id: int, cookie: bytes | None = None) -> tuple[Socket, dict]:
    """A socket and its first message (a fragment, or the error of a refused socket)."""
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")] + ([(b"cookie", cookie)] if cookie else [])
    communicator = Socket(application, f"/ws/matches/{match_id}/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator, await first_frame(communicator)


async def assert_refused(communicator, first: dict, reason: str) -> None:
    assert first["type"] == "error"
    assert reason in first["message"]
    closed = await communicator.receive_output(timeout=10)
    assert closed["type"] == "websocket.close"
    assert closed["code"] == TOO_MANY_SOCKETS
    assert reason in closed["reason"]


def bot_match(game: str = "tic-tac-toe") -> Match:
    """A bots-only match, as a tournament queues them for workers."""
    bots_ensure(game=game)
    lv0 = Agent.objects.get(slug=f"{game}-lv0")
    return match_create(game=game, agents=[lv0, lv0])


# -- who starts a match -------------------------------------------------------------------


async def test_watching_a_pending_workers_match_does_not_start_it(person_cookie):
    user, cookie = person_cookie
    await sync_to_async(person_agent_for_user)(user=user)  # a person, but not seated here
    match = await sync_to_async(bot_match)()
    spectator, first = await open_socket(match.pk)
    other_person, _ = await open_socket(match.pk, cookie)
    assert 'data-status="pending"' in first["html"]
    assert not consumers._running  # no runner was started in this process
    await asyncio.sleep(0.5)  # a runner would have claimed it by now
    match = await Match.objects.aget(pk=match.pk)
    assert (match.status, match.claimed_by, match.ply) == ("pending", "", 0)
    await spectator.disconnect()
    await other_person.disconnect()


async def test_a_bot_turn_nobody_runs_is_resumed_only_by_a_seated_persons_page(person_cookie):
    user, cookie = person_cookie
    workers_match = await sync_to_async(bot_match)()
    persons_match = await sync_to_async(make_match)(user, seat=1)  # the bot is to move first
    for match in (workers_match, persons_match):  # running, a bot to move, and nobody holds it
        await sync_to_async(match_claim)(match_id=match.pk, worker="gone")
        await sync_to_async(match_release)(match_id=match.pk, worker="gone")
    watchers = [(await open_socket(match.pk))[0] for match in (workers_match, persons_match)]
    await asyncio.sleep(0.5)
    assert not consumers._running
    assert await Match.objects.filter(pk__in=[workers_match.pk, persons_match.pk], ply=0).acount() == 2
    player = await connect(persons_match.pk, cookie)
    assert "Your move." in (await next_fragment(player, min_ply=1))["html"]  # the person's page ran the bot
    assert (await Match.objects.aget(pk=workers_match.pk)).ply == 0  # the workers' match is still theirs
    for ws in (*watchers, player):
        await ws.disconnect()


# -- socket limits ------------------------------------------------------------------------


@override_settings(ARENA_PLAY_LIMITS={"sockets_per_person": 3})
async def test_one_person_opening_many_sockets_is_refused_beyond_the_limit_and_still_plays(person_cookie):
    user, cookie = person_cookie
    match = await sync_to_async(make_match)(user)
    tabs = [await connect(match.pk, cookie) for _ in range(3)]
    extra, first = await open_socket(match.pk, cookie)
    await assert_refused(extra, first, "at most 3")
    # The tabs within the limit still work: the player moves and every tab sees it.
    await next_fragment(tabs[1])
    await tabs[1].send_to(text_data=move("b2", 0))
    for tab in tabs:
        assert "b2" in (await next_fragment(tab, min_ply=1))["html"]
    # A closed tab frees its place.
    await tabs[0].disconnect()
    reopened, first = await open_socket(match.pk, cookie)
    assert first["type"] == "fragment"
    for ws in (*tabs[1:], reopened):
        await ws.disconnect()


@override_settings(ARENA_PLAY_LIMITS={"sockets_per_address": 2})
async def test_cookie_less_sockets_are_limited_by_address(person_cookie):
    user, _ = person_cookie
    match = await sync_to_async(make_match)(user)
    watchers = [(await open_socket(match.pk))[0] for _ in range(2)]
    refused, first = await open_socket(match.pk)
    await assert_refused(refused, first, "from your address")
    for ws in watchers:
        await ws.disconnect()


@override_settings(ARENA_PLAY_LIMITS={"sockets_per_match": 2})
async def test_a_match_holds_a_bounded_number_of_watchers_and_its_player_still_gets_in(person_cookie):
    user, cookie = person_cookie
    match, other = await sync_to_async(make_match)(user), await sync_to_async(make_match)(user)
    watchers = [(await open_socket(match.pk))[0] for _ in range(2)]
    refused, first = await open_socket(match.pk)
    await assert_refused(refused, first, "to this match")
    elsewhere, first = await open_socket(other.pk)  # another match is unaffected
    assert first["type"] == "fragment"
    player = await connect(match.pk, cookie)  # the watchers do not lock the player out
    await next_fragment(player)
    await player.send_to(text_data=move("b2", 0))
    assert "b2" in (await next_fragment(player, min_ply=1))["html"]
    for ws in (*watchers, elsewhere, player):
        await ws.disconnect()


# -- rejected moves -----------------------------------------------------------------------


@override_settings(ARENA_RATE_LIMITS={"frames": (1000, 60)}, ARENA_PLAY_LIMITS={"rejected_tries_kept": 10})
async def test_a_flood_of_rejected_moves_stores_a_bounded_number_and_counts_the_rest(person_cookie, client):
    user, cookie = person_cookie
    match = await sync_to_async(make_match)(user)
    ws = await connect(match.pk, cookie)
    await next_fragment(ws)
    for n in range(300):
        await ws.send_to(text_data=move(f"z{n}", 0))
        assert "Could not read" in await next_error(ws)
    stored = [a async for a in Attempt.objects.filter(match=match, ply=0).order_by("number")]
    assert len(stored) == 10
    assert [a.unstored_rejections for a in stored] == [0] * 9 + [290]
    await ws.send_to(text_data=move("b2", 0))  # the person still moves
    await next_fragment(ws, min_ply=1)
    trace = await sync_to_async(client.get)(f"/matches/{match.pk}/replay/?ply=1")
    assert "290 more rejected moves after this one, counted but not stored" in trace.content.decode()
    await ws.disconnect()


# -- one render per viewer kind -----------------------------------------------------------


async def test_a_position_is_rendered_once_per_viewer_kind_while_watchers_flood(person_cookie, monkeypatch):
    user, cookie = person_cookie
    match = await sync_to_async(make_match)(user)
    player = await connect(match.pk, cookie)
    await next_fragment(player)  # the match has started
    spectators = [(await open_socket(match.pk))[0] for _ in range(30)]  # a flood of watchers
    renders = []

    def counted(context):  # the real panel, each render noted
        renders.append((context["match"].ply, context["match"].status, tuple(context["my_seats"])))
        return live_panel_html(context)

    monkeypatch.setattr(rendering, "live_panel_html", counted)
    await player.send_to(text_data=move("b2", 0))
    mine = await next_fragment(player, min_ply=2)  # our move and the bot's reply
    theirs = [await next_fragment(spectator, min_ply=2) for spectator in spectators]
    assert "Your move." in mine["html"]
    assert "(you)" in mine["html"]
    assert all(fragment == theirs[0] for fragment in theirs)  # the spectators all got one render…
    assert "Your move." not in theirs[0]["html"]
    assert "(you)" not in theirs[0]["html"]
    spectator_renders = [render for render in renders if render[2] == ()]
    assert spectator_renders
    assert len(renders) == len(set(renders))
    assert len(spectator_renders) <= 2  # a position per update at most, however many watch
    for ws in (player, *spectators):
        await ws.disconnect()


# -- flags --------------------------------------------------------------------------------


async def test_only_a_player_may_flag_the_clock(person_cookie, client, django_user_model):
    user, cookie = person_cookie
    match = await sync_to_async(make_match)(user)
    await Match.objects.filter(pk=match.pk).aupdate(record={**match.record, "policies": {"move_time_limit_s": 5}})
    player = await connect(match.pk, cookie)
    await next_fragment(player)
    await Match.objects.filter(pk=match.pk).aupdate(started_at=timezone.now() - timezone.timedelta(seconds=60))
    spectator = await connect(match.pk)
    await spectator.send_to(text_data=json.dumps({"type": "flag"}))
    assert "Spectators cannot" in await next_error(spectator)
    bob = await sync_to_async(django_user_model.objects.create_user)("bob", password="pw-123456")
    await sync_to_async(person_agent_for_user)(user=bob)
    await sync_to_async(client.force_login)(bob)
    intruder = await connect(match.pk, f"sessionid={client.cookies['sessionid'].value}".encode())
    await intruder.send_to(text_data=json.dumps({"type": "flag"}))
    assert "Only the players of this match" in await next_error(intruder)
    assert (await Match.objects.aget(pk=match.pk)).status == "running"
    await player.send_to(text_data=json.dumps({"type": "flag"}))  # the player may: their own clock ran out
    assert "Game over" in (await next_fragment(player))["html"]
    match = await Match.objects.aget(pk=match.pk)
    assert (match.status, match.termination, match.scores) == ("finished", "ran out of time by seat 0", [0.0, 1.0])
    for ws in (player, spectator, intruder):
        await ws.disconnect()


# -- frames that once crashed the consumer --------------------------------------------------


@pytest.mark.parametrize(
    ("frame", "expected"),
    [
        ('{"type": ["move"]}', "Unknown frame"),
        ('{"type": {"a": 1}}', "Unknown frame"),
        ('{"type": "move", "move": "a1", "ply": ' + "9" * 5000 + "}", "too long"),
        ('{"type": "move", "move": "a1", "ply": ' + "9" * 20 + "}", "needs 'ply'"),
        ('{"type": "move", "move": "a\\ud800", "ply": 0}', "valid Unicode"),
    ],
)
async def test_frames_that_crashed_the_consumer_get_an_error(person_cookie, frame, expected):
    user, cookie = person_cookie
    match = await sync_to_async(make_match)(user)
    ws = await connect(match.pk, cookie)
    await next_fragment(ws)
    await ws.send_to(text_data=frame)
    assert expected in await next_error(ws)
    await ws.send_to(text_data=move("a1", 0))  # the connection still works
    # Our move and the bot's reply: the runner has recorded it before the test's database goes away.
    assert (await next_fragment(ws, min_ply=2))["ply"] >= 2
    await ws.disconnect()


async def test_a_five_thousand_digit_holdem_raise_gets_an_error(person_cookie):
    user, cookie = person_cookie
    match = await sync_to_async(make_match)(user, game="holdem")
    ws = await connect(match.pk, cookie)
    fragment = await next_fragment(ws)
    while "Your move." not in fragment["html"]:  # the bot may act first in this hand
        fragment = await next_fragment(ws, min_ply=fragment["ply"] + 1)
    await ws.send_to(text_data=move("raise to " + "9" * 5000, fragment["ply"]))
    assert "more chips than any stack holds" in await next_error(ws)
    assert await Attempt.objects.filter(match=match, verdict="illegal").acount() == 1
    await ws.disconnect()
