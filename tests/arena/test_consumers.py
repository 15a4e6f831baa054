"""The match websocket through the real ASGI stack (origin check, sessions, auth, consumer, runner)."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from django.test import override_settings

from arena.asgi import application
from arena.models import Agent, Attempt, Match
from arena.record.agents import bots_ensure
from arena.record.people import person_agent_for_user, person_match_create
from tests.arena.sockets import Socket

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


def make_match(user, seat: int = 0, game: str = "tic-tac-toe") -> Match:
    bots_ensure(game=game)
    return person_match_create(
        person=person_agent_for_user(user=user), opponent=Agent.objects.get(slug=f"{game}-lv0"), game=game, seat=seat
    )


async def connect(match_id: int, cookie: bytes | None = None, origin: bytes = b"http://localhost"):
    headers = [(b"origin", origin), (b"host", b"localhost")] + ([(b"cookie", cookie)] if cookie else [])
    communicator = Socket(application, f"/ws/matches/{match_id}/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def next_fragment(communicator, min_ply: int = 0) -> dict:
    """The next fragment of a started match at or past `min_ply` (earlier ones are skipped)."""
    while True:
        message = json.loads(await communicator.receive_from(timeout=10))
        started = 'data-status="pending"' not in message.get("html", "")
        if message["type"] == "fragment" and message["ply"] >= min_ply and started:
            return message


async def next_error(communicator) -> str:
    """The next error frame's message (fragments pushed meanwhile are skipped)."""
    while True:
        message = json.loads(await communicator.receive_from(timeout=10))
        if message["type"] == "error":
            return message["message"]


async def test_a_whole_game_against_lv0(person_cookie):
    user, cookie = person_cookie
    match = await sync_to_async(make_match)(user)
    ws = await connect(match.pk, cookie)
    fragment = await next_fragment(ws)
    assert "Your move." in fragment["html"]
    while "Game over" not in fragment["html"]:
        assert "Your move." in fragment["html"]
        legal = json.loads(fragment["html"].split('type="application/json">')[1].split("</script>")[0])
        ply = fragment["ply"]
        await ws.send_to(text_data=json.dumps({"type": "move", "move": legal[0]["text"], "ply": ply}))
        # Our move, then (unless it ended the game) the bot's reply.
        fragment = await next_fragment(ws, min_ply=ply + 1)
        while "Your move." not in fragment["html"] and "Game over" not in fragment["html"]:
            fragment = await next_fragment(ws, min_ply=fragment["ply"] + 1)
    match = await Match.objects.aget(pk=match.pk)
    assert match.status == "finished"
    assert "Game over" in fragment["html"]
    assert await match.decisions.acount() == match.ply
    human_attempts = await Attempt.objects.filter(match=match, seat=0).acount()
    assert human_attempts == (match.ply + 1) // 2  # every person's move is recorded as an ok try
    await ws.disconnect()


async def test_illegal_move_gets_a_message_and_changes_nothing(person_cookie):
    user, cookie = person_cookie
    match = await sync_to_async(make_match)(user)
    ws = await connect(match.pk, cookie)
    await next_fragment(ws)
    await ws.send_to(text_data=json.dumps({"type": "move", "move": "b2", "ply": 0}))
    await next_fragment(ws, min_ply=2)  # our move and the bot's reply
    await ws.send_to(text_data=json.dumps({"type": "move", "move": "b2", "ply": 2}))
    assert "not a legal move" in await next_error(ws)
    match = await Match.objects.aget(pk=match.pk)
    assert match.ply == 2
    rejected = await Attempt.objects.filter(match=match, ply=2, verdict="illegal").afirst()
    assert rejected.raw_text == "b2"
    await ws.send_to(text_data=json.dumps({"type": "move", "move": "a1", "ply": 0}))
    assert "position changed" in await next_error(ws)
    await ws.disconnect()


@pytest.mark.parametrize(
    ("frame", "expected"),
    [
        ("not json", "JSON"),
        (json.dumps({"type": "dance"}), "Unknown frame"),
        (json.dumps({"type": "move", "ply": 0}), "needs 'move'"),
        (json.dumps({"type": "move", "move": "a1", "ply": "0"}), "needs 'ply'"),
        (json.dumps({"type": "move", "move": "a1" * 9000, "ply": 0}), "at most 16384 bytes"),
        (json.dumps([1, 2]), "Unknown frame"),
    ],
)
async def test_malformed_frames_get_error_frames_not_crashes(person_cookie, frame, expected):
    user, cookie = person_cookie
    match = await sync_to_async(make_match)(user)
    ws = await connect(match.pk, cookie)
    await next_fragment(ws)
    await ws.send_to(text_data=frame)
    assert expected in await next_error(ws)
    # Still connected and still usable.
    await ws.send_to(text_data=json.dumps({"type": "move", "move": "a1", "ply": 0}))
    assert (await next_fragment(ws, min_ply=1))["ply"] >= 1
    await ws.disconnect()


@override_settings(ARENA_RATE_LIMITS={"frames": (3, 60)})
async def test_a_flood_of_frames_is_turned_away_per_connection(person_cookie):
    user, cookie = person_cookie
    match = await sync_to_async(make_match)(user)
    flooding, other_tab = await connect(match.pk, cookie), await connect(match.pk, cookie)
    await next_fragment(flooding)
    for _ in range(3):  # within the allowance: each gets its own answer
        await flooding.send_to(text_data=json.dumps({"type": "dance"}))
        assert "Unknown frame" in await next_error(flooding)
    await flooding.send_to(text_data=json.dumps({"type": "move", "move": "a1", "ply": 0}))
    assert await next_error(flooding) == "Too many messages; slow down."
    assert await Match.objects.filter(pk=match.pk, ply=0).aexists()  # the refused move changed nothing
    # The budget is the connection's own: another tab of the same person may still move.
    await next_fragment(other_tab)
    await other_tab.send_to(text_data=json.dumps({"type": "move", "move": "a1", "ply": 0}))
    assert (await next_fragment(other_tab, min_ply=1))["ply"] >= 1
    await flooding.disconnect()
    await other_tab.disconnect()


async def first_frame(communicator) -> dict:
    return json.loads(await communicator.receive_from(timeout=10))


async def test_spectators_and_other_people_cannot_move(person_cookie, client, django_user_model):
    user, cookie = person_cookie
    match = await sync_to_async(make_match)(user)
    spectator = await connect(match.pk)
    assert 'data-status="pending"' in (await first_frame(spectator))["html"]
    player = await connect(match.pk, cookie)  # the seated person's page starts the match
    assert "Your move." in (await next_fragment(player))["html"]
    assert "Your move." not in (await next_fragment(spectator))["html"]
    await spectator.send_to(text_data=json.dumps({"type": "move", "move": "a1", "ply": 0}))
    assert "Spectators cannot move" in await next_error(spectator)

    bob = await sync_to_async(django_user_model.objects.create_user)("bob", password="pw-123456")
    await sync_to_async(person_agent_for_user)(user=bob)  # bob plays elsewhere, not here
    await sync_to_async(client.force_login)(bob)
    intruder = await connect(match.pk, f"sessionid={client.cookies['sessionid'].value}".encode())
    await next_fragment(intruder)
    await intruder.send_to(text_data=json.dumps({"type": "move", "move": "a1", "ply": 0}))
    assert "not playing this match" in await next_error(intruder)
    assert (await Match.objects.aget(pk=match.pk)).ply == 0
    for ws in (spectator, intruder, player):
        await ws.disconnect()


async def test_reconnect_restores_the_position_and_two_tabs_stay_in_sync(person_cookie):
    user, cookie = person_cookie
    match = await sync_to_async(make_match)(user)
    tab1 = await connect(match.pk, cookie)
    tab2 = await connect(match.pk, cookie)
    await next_fragment(tab1)
    await next_fragment(tab2)
    await tab1.send_to(text_data=json.dumps({"type": "move", "move": "b2", "ply": 0}))
    seen_in_tab2 = await next_fragment(tab2, min_ply=2)
    assert "b2" in seen_in_tab2["html"]
    await tab1.disconnect()
    reopened = await connect(match.pk, cookie)
    restored = await next_fragment(reopened)
    assert restored["ply"] == 2
    assert "Your move." in restored["html"]
    await reopened.disconnect()
    await tab2.disconnect()


async def test_foreign_origin_is_refused(person_cookie):
    user, cookie = person_cookie
    match = await sync_to_async(make_match)(user)
    communicator = Socket(
        application, f"/ws/matches/{match.pk}/", headers=[(b"origin", b"http://evil.example"), (b"cookie", cookie)]
    )
    connected, _ = await communicator.connect()
    assert not connected


async def test_bot_moves_first_when_the_person_takes_the_second_seat(person_cookie):
    user, cookie = person_cookie
    match = await sync_to_async(make_match)(user, seat=1)
    ws = await connect(match.pk, cookie)
    fragment = await next_fragment(ws, min_ply=1)
    assert "Your move." in fragment["html"]
    await ws.disconnect()


async def test_the_persons_page_starts_the_match_it_moves_first_in_and_shows_it_started(person_cookie):
    """Nothing for a runner to play before the person's first move: their page's open starts the match in
    its own trip, so its first frame is already the started match (no pending panel, then another), held by
    nobody, and a page watching beforehand hears it start."""
    user, cookie = person_cookie
    match = await sync_to_async(make_match)(user)
    spectator = await connect(match.pk)
    assert 'data-status="pending"' in (await first_frame(spectator))["html"]
    player = await connect(match.pk, cookie)
    first = await first_frame(player)
    assert first["type"] == "fragment"
    assert first["ply"] == 0
    assert 'data-status="running"' in first["html"]
    assert "Your move." in first["html"]
    started = await Match.objects.aget(pk=match.pk)
    assert (started.status, started.claimed_by, started.ply) == ("running", "", 0)
    assert started.started_at is not None
    seen = await first_frame(spectator)
    assert 'data-status="running"' in seen["html"]
    assert "Your move." not in seen["html"]
    for ws in (spectator, player):
        await ws.disconnect()


async def test_a_guest_who_signs_up_mid_game_is_named_by_the_account_from_the_next_frame(client):
    """The live page names seats from what a process read once; a guest's new name still reaches it."""
    await sync_to_async(bots_ensure)(game="tic-tac-toe")
    await sync_to_async(client.post)(
        "/play/",
        {"nickname": "Robin", "consent": "yes", "seat": "0", "time_limit": "", "game": "tic-tac-toe",
         "opponent": "tic-tac-toe-lv0"},
    )  # fmt: skip
    match = await Match.objects.aget()
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    guest_name, account_name = (f'<span class="kind-dot" aria-hidden="true"></span>{n}</a>' for n in ("Robin", "r42"))
    page = (await sync_to_async(client.get)(f"/play/{match.pk}/")).content.decode()
    assert guest_name in page
    player, spectator = await connect(match.pk, cookie), await connect(match.pk)
    assert guest_name in (await next_fragment(player))["html"]
    assert guest_name in (await next_fragment(spectator))["html"]

    password = "Sx9!long-pass"
    await sync_to_async(client.post)(
        "/accounts/signup/", {"username": "r42", "password1": password, "password2": password}
    )
    assert await Agent.objects.filter(name="r42", kind=Agent.Kind.HUMAN).aexists()  # the guest's seat, renamed
    await player.send_to(text_data=json.dumps({"type": "move", "move": "b2", "ply": 0}))
    for ws in (player, spectator):
        html = (await next_fragment(ws, min_ply=1))["html"]
        assert account_name in html
        assert guest_name not in html
        await ws.disconnect()
    page = (await sync_to_async(client.get)(f"/play/{match.pk}/")).content.decode()
    assert account_name in page
    assert guest_name not in page
