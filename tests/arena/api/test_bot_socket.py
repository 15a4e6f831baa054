"""A bot account over a real websocket against the real ASGI app: it plays its seats, and only its own."""

from __future__ import annotations

import asyncio
import io
import json
from unittest.mock import ANY

import pytest
from asgiref.sync import sync_to_async
from django.core.management import call_command
from django.test import override_settings
from django_tasks_db.models import DBTaskResult

from arena.asgi import application
from arena.limits import RATE_LIMITS
from arena.models import Agent, Match
from arena.pages.lobby import opponent_choices
from arena.record.agents import agent_create, bots_ensure
from arena.record.services import match_create
from arena.record.tokens import api_token_create, api_token_revoke
from arena.runner.loop import run_match
from arena.runner.tasks import PERSON_WAITING_PRIORITY, run_match_task
from tests.arena.agents.test_remote_agent import SECRET, AgentServer
from tests.arena.sockets import Socket

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("bot_turns_finish"),
]
HOST = [(b"host", b"testserver"), (b"origin", b"http://testserver")]


def bot_socket(token: str) -> Socket:
    return Socket(application, "/ws/bot/", headers=[*HOST, (b"authorization", f"Bearer {token}".encode())])


async def test_a_websocket_bot_plays_its_seats_until_the_match_ends(django_user_model):
    def setup():
        bots_ensure(game="tic-tac-toe")
        owner = django_user_model.objects.create_user("botmaker", password="pw-123456")
        intruder = django_user_model.objects.create_user("intruder", password="pw-123456")
        bot = agent_create(slug="ws-bot", name="ws-bot", kind="remote", config={"transport": "websocket"}, owner=owner)
        match = match_create(game="tic-tac-toe", agents=[bot, Agent.objects.get(slug="tic-tac-toe-lv0")], seed=4)
        _, token = api_token_create(user=owner, name="bot", scopes=["agents"])
        _, other = api_token_create(user=intruder, name="x", scopes=["agents"])
        return match, token, other

    match, token, other = await sync_to_async(setup)()
    await run_match(match.pk)  # starts it; the bot account is to move first, so the runner lets go

    intruder = bot_socket(other)
    assert (await intruder.connect())[0]
    await intruder.send_to(text_data=json.dumps({"type": "move", "match": match.pk, "ply": 0, "action": "b2"}))
    refused = json.loads(await intruder.receive_from(timeout=10))
    assert refused["type"] == "error"
    assert "None of your agents" in refused["message"]
    for huge in ({"match": 10**20, "ply": 0}, {"match": match.pk, "ply": -1}):  # past the database's integers
        await intruder.send_to(text_data=json.dumps({"type": "move", "action": "b2", **huge}))
        refused = json.loads(await intruder.receive_from(timeout=10))
        assert refused == {"type": "error", "match": None, "message": refused["message"]}
        assert "must be a whole number" in refused["message"]
    await intruder.disconnect()
    assert await match.decisions.acount() == 0

    ws = bot_socket(token)
    assert (await ws.connect())[0]
    moves = 0
    # Until no turn comes for a while: the match is over (asserted below), or the bot was never asked.
    while not await ws.receive_nothing(timeout=5):
        frame = json.loads(await ws.receive_from())
        assert frame["type"] == "turn", frame
        assert frame["agent"] == "ws-bot"
        assert frame["seat"] == 0
        assert len(frame["history"]) == frame["ply"]
        await ws.send_to(text_data=json.dumps({"type": "move", "match": frame["match"], "ply": frame["ply"],
                                               "action": frame["legal_actions"][0]}))  # fmt: skip
        moves += 1
    assert (await Match.objects.aget(pk=match.pk)).status == Match.Status.FINISHED
    await ws.disconnect()
    assert moves >= 3
    assert await match.decisions.filter(seat=0).acount() == moves


async def test_without_a_live_token_the_socket_is_refused():
    ws = bot_socket("arena_not-a-token")
    connected, _code = await ws.connect()
    assert not connected


async def test_the_lobby_offers_every_kind_that_can_play_and_a_websocket_bot_only_while_connected(django_user_model):
    def setup() -> str:
        owner = django_user_model.objects.create_user("botmaker", password="pw-123456")
        agent_create(slug="ws-bot", name="WS bot", kind="remote", config={"transport": "websocket"}, owner=owner)
        Agent.objects.filter(slug="ws-bot").update(approved=True)  # staff approved it: offered to everyone
        agent_create(slug="http-bot", name="HTTP bot", kind="remote", config={"url": "https://a.test/"})
        agent_create(slug="prog", name="Prog", kind="program", config={"command": "/bin/true"})
        agent_create(slug="sf", name="SF", kind="uci", game="chess", config={"command": "stockfish"})
        return api_token_create(user=owner, name="bot", scopes=["agents"])[1]

    def offered(game: str) -> dict[str, list[str]]:
        return {group: [slug for slug, _ in choices] for group, choices in opponent_choices(game)}

    token = await sync_to_async(setup)()
    chess = await sync_to_async(offered)("chess")
    assert chess["Programs"] == ["prog"]
    assert chess["UCI engines"] == ["sf"]
    assert chess["Remote agents"] == ["http-bot"]  # the websocket bot is not connected
    poker = await sync_to_async(offered)("kuhn-poker")
    assert "Programs" not in poker  # a Botzone program plays perfect-information games only
    assert "UCI engines" not in poker
    ws = bot_socket(token)
    assert (await ws.connect())[0]
    await ws.receive_nothing(timeout=1)  # the connection has looked up its turns (and marked itself present)
    assert (await sync_to_async(offered)("chess"))["Remote agents"] == ["http-bot", "ws-bot"]
    await ws.disconnect()
    assert (await sync_to_async(offered)("chess"))["Remote agents"] == ["http-bot"]


def _bot_owner(django_user_model, name: str = "botmaker") -> tuple:
    owner = django_user_model.objects.create_user(name, password="pw-123456")
    agent_create(slug=f"{name}-bot", name=name, kind="remote", config={"transport": "websocket"}, owner=owner)
    record, token = api_token_create(user=owner, name="bot", scopes=["agents"])
    return record, token


async def _pollers_left() -> list[asyncio.Task]:
    await asyncio.sleep(0.05)  # a cancelled task finishes on the loop's next turns
    return [task for task in asyncio.all_tasks() if task.get_coro().__qualname__ == "BotConsumer._poll"]


MALFORMED = {
    "a list": "[]",
    "a string": '"x"',
    "a number": "1",
    "an infinite match": '{"type": "move", "match": 1e400, "ply": 0, "action": "b2"}',
    "an infinite ply": '{"type": "move", "match": 1, "ply": 1e400, "action": "b2"}',
    "deeply nested arrays": "[" * 5000 + "]" * 5000,
    "a boolean ply": '{"type": "move", "match": 1, "ply": true, "action": "b2"}',
    "a huge match id": '{"type": "move", "match": 1' + "0" * 30 + ', "ply": 0, "action": "b2"}',
    "a match id past 64 bits": '{"type": "move", "match": 9223372036854775808, "ply": 0, "action": "b2"}',
    "a negative ply": '{"type": "move", "match": 1, "ply": -1, "action": "b2"}',
    "an action that is not text": '{"type": "move", "match": 1, "ply": 0, "action": ["b2"]}',
    "a lone surrogate": '{"type": "move", "match": 1, "ply": 0, "action": "\\ud800"}',
    "not JSON": "{",
    "over the size limit": '"' + "x" * 20_000 + '"',
}


async def test_each_malformed_frame_gets_an_error_and_the_socket_plays_on(django_user_model):
    _, token = await sync_to_async(_bot_owner)(django_user_model)
    ws = bot_socket(token)
    assert (await ws.connect())[0]
    for name, text in MALFORMED.items():
        await ws.send_to(text_data=text)
        answer = json.loads(await ws.receive_from(timeout=5))
        assert answer["type"] == "error", name
        assert answer["message"], name
        assert "could not handle" not in answer["message"], (name, answer)
    # Still usable: a well-formed move on a match that does not exist is refused by the service, not the parser.
    await ws.send_to(text_data=json.dumps({"type": "move", "match": 999_999, "ply": 0, "action": "b2"}))
    assert json.loads(await ws.receive_from(timeout=5))["match"] == 999_999
    assert len(await _pollers_left()) == 1
    await ws.disconnect()
    assert await _pollers_left() == []


async def test_a_flood_of_frames_is_answered_with_slow_down(django_user_model):
    _, token = await sync_to_async(_bot_owner)(django_user_model)
    ws = bot_socket(token)
    assert (await ws.connect())[0]
    allowed = RATE_LIMITS["frames"][0]  # a connection's frames per window, as match sockets
    answers = []
    for _ in range(allowed + 5):
        await ws.send_to(text_data="[]")
        answers.append(json.loads(await ws.receive_from(timeout=5))["message"])
    assert answers.count("Too many messages; slow down.") == 5
    await ws.disconnect()
    assert await _pollers_left() == []


@override_settings(ARENA_PLAY_LIMITS={"bot_sockets_per_token": 2})
async def test_sockets_per_token_are_capped_and_a_closed_one_frees_its_place(django_user_model):
    _, token = await sync_to_async(_bot_owner)(django_user_model)
    first, second, third = bot_socket(token), bot_socket(token), bot_socket(token)
    assert (await first.connect())[0]
    assert (await second.connect())[0]
    await third.connect()
    refusal = json.loads(await third.receive_from(timeout=5))
    assert "with this token (at most 2)" in refusal["message"]
    assert (await third.receive_output(timeout=5)) == {"type": "websocket.close", "code": 4429, "reason": ANY}
    await first.disconnect()
    fourth = bot_socket(token)
    assert (await fourth.connect())[0]
    assert await fourth.receive_nothing(timeout=0.7)  # no refusal: the closed socket's place was given back
    await second.disconnect()
    await fourth.disconnect()
    assert await _pollers_left() == []


@override_settings(ARENA_PLAY_LIMITS={"sockets_per_address": 2})
async def test_sockets_per_address_are_capped_across_tokens(django_user_model):
    tokens = [(await sync_to_async(_bot_owner)(django_user_model, f"maker{n}"))[1] for n in range(3)]
    sockets = [bot_socket(token) for token in tokens]
    assert (await sockets[0].connect())[0]
    assert (await sockets[1].connect())[0]
    await sockets[2].connect()
    assert "from your address (at most 2)" in json.loads(await sockets[2].receive_from(timeout=5))["message"]
    assert (await sockets[2].receive_output(timeout=5))["code"] == 4429
    for ws in sockets[:2]:
        await ws.disconnect()
    assert await _pollers_left() == []


async def test_revoking_a_token_closes_its_open_socket(django_user_model):
    record, token = await sync_to_async(_bot_owner)(django_user_model)
    ws = bot_socket(token)
    assert (await ws.connect())[0]
    assert await ws.receive_nothing(timeout=0.7)
    await sync_to_async(api_token_revoke)(token=record)
    notice = json.loads(await ws.receive_from(timeout=5))
    assert notice["type"] == "error"
    assert "revoked" in notice["message"]
    assert (await ws.receive_output(timeout=5))["code"] == 4401
    assert await _pollers_left() == []


async def test_a_match_that_does_not_exist_and_another_persons_match_get_the_same_refusal(django_user_model):
    """The socket does not tell which match ids exist."""

    def setup():
        bots_ensure(game="tic-tac-toe")
        owner = django_user_model.objects.create_user("owner", password="pw-123456")
        bot = agent_create(slug="ws-bot", name="ws-bot", kind="remote", config={"transport": "websocket"}, owner=owner)
        match = match_create(game="tic-tac-toe", agents=[bot, Agent.objects.get(slug="tic-tac-toe-lv0")], seed=4)
        return match, _bot_owner(django_user_model, "stranger")[1]

    match, token = await sync_to_async(setup)()
    ws = bot_socket(token)
    assert (await ws.connect())[0]
    refusals = []
    for match_id in (match.pk, match.pk + 1000):
        await ws.send_to(text_data=json.dumps({"type": "move", "match": match_id, "ply": 0, "action": "b2"}))
        answer = json.loads(await ws.receive_from(timeout=5))
        assert answer["type"] == "error"
        assert answer["match"] == match_id
        refusals.append(answer["message"])
    assert refusals[0] == refusals[1]
    await ws.disconnect()


async def test_a_bot_accounts_move_queues_an_outside_agents_reply_for_a_worker(django_user_model, monkeypatch):
    monkeypatch.setenv("ARENA_TEST_AGENT_SECRET", SECRET)
    server = AgentServer()

    def setup():
        owner = django_user_model.objects.create_user("botmaker", password="pw-123456")
        bot = agent_create(slug="ws-bot", name="ws-bot", kind="remote", config={"transport": "websocket"}, owner=owner)
        call_command("agents", "add", "--slug", "remote", "--kind", "remote", "--url", server.url,
                     "--secret-env", "ARENA_TEST_AGENT_SECRET", stdout=io.StringIO())  # fmt: skip
        match = match_create(game="tic-tac-toe", agents=[bot, Agent.objects.get(slug="remote")], seed=4)
        return match, api_token_create(user=owner, name="bot", scopes=["agents"])[1]

    try:
        match, token = await sync_to_async(setup)()
        await run_match(match.pk)  # starts it; the bot account is to move first, so the runner lets go
        ws = bot_socket(token)
        assert (await ws.connect())[0]
        turn = json.loads(await ws.receive_from(timeout=10))
        await ws.send_to(text_data=json.dumps({"type": "move", "match": match.pk, "ply": 0, "action": "a1"}))
        assert await ws.receive_nothing(timeout=2)
        await ws.disconnect()
        assert turn["type"] == "turn"
        assert server.bodies == []  # the web process never called the outside agent
        queued = DBTaskResult.objects.filter(status="READY", args_kwargs__args=[match.pk])
        assert [task.priority async for task in queued] == [PERSON_WAITING_PRIORITY]  # for a worker, ahead of others
        assert await run_match_task.acall(match.pk) == Match.Status.RUNNING  # as the worker runs it
        assert [body["ply"] for body in server.bodies] == [1]
    finally:
        server.close()
