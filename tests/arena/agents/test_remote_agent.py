"""A remote agent over real HTTP on loopback: signed requests, the seat's view only, retries recorded."""

from __future__ import annotations

import hashlib
import hmac
import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import StringIO

import pytest
from asgiref.sync import sync_to_async
from django.core.management import call_command
from django.utils import timezone

from arena.models import Agent, AgentVersion, Attempt, Decision, Match
from arena.record.agents import bots_ensure
from arena.record.services import match_create
from arena.runner.loop import run_match
from games import get_game
from games.base import to_jsonable
from tests.loopback import serving_thread, stop_serving

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
SECRET = "s3cret-for-signing"


class AgentServer:
    """A real HTTP agent: checks Arena's signature, answers the first legal move; can fail on cue."""

    def __init__(self, failures: int = 0) -> None:
        self.bodies: list[dict] = []
        self.bad_signatures = 0
        self.failures = failures
        self.secret = SECRET
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers["Content-Length"]))
                expected = "sha256=" + hmac.new(server.secret.encode(), raw, hashlib.sha256).hexdigest()
                if not hmac.compare_digest(expected, self.headers.get("X-Arena-Signature", "")):
                    server.bad_signatures += 1
                if server.failures:
                    server.failures -= 1
                    self.send_response(503)
                    self.end_headers()
                    return
                body = json.loads(raw)
                server.bodies.append(body)
                answer = json.dumps({"action": body["legal_actions"][0], "reasoning": f"first of {body['ply']}"})
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(answer.encode())

            def log_message(self, *args) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/move"
        serving_thread(self.httpd).start()

    def close(self) -> None:
        stop_serving(self.httpd)


@pytest.fixture
def agent_server(monkeypatch):
    monkeypatch.setenv("ARENA_TEST_AGENT_SECRET", SECRET)
    servers: list[AgentServer] = []

    def start(failures: int = 0) -> AgentServer:
        servers.append(AgentServer(failures))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


async def play(game: str, url: str, *, seed: int = 3) -> Match:
    def setup() -> Match:
        bots_ensure(game=game)
        call_command("agents", "add", "--slug", "remote", "--kind", "remote", "--url", url,
                     "--secret-env", "ARENA_TEST_AGENT_SECRET", "--provider-retries", "2")  # fmt: skip
        return match_create(
            game=game, agents=[Agent.objects.get(slug="remote"), Agent.objects.get(slug=f"{game}-lv0")], seed=seed
        )

    match = await sync_to_async(setup)()
    await run_match(match.pk)
    return await Match.objects.aget(pk=match.pk)


async def test_a_remote_agent_plays_a_whole_match_with_signed_requests(agent_server):
    server = agent_server()
    match = await play("tic-tac-toe", server.url)
    assert match.status == Match.Status.FINISHED
    assert server.bad_signatures == 0
    attempts = [a async for a in Attempt.objects.filter(match=match, seat=0).order_by("ply")]
    assert len(attempts) == len(server.bodies) > 0
    assert all(a.verdict == "ok" for a in attempts)
    assert attempts[1].reasoning_text == f"first of {server.bodies[1]['ply']}"
    assert [m["seat"] for m in server.bodies[1]["history"]] == [0, 1]  # the moves so far, in order
    config = (await AgentVersion.objects.aget(agent__slug="remote")).config
    assert SECRET not in json.dumps(config)
    assert config["secret_env"] == "ARENA_TEST_AGENT_SECRET"


async def test_without_a_secret_variable_the_cli_makes_a_signing_secret_shown_once(agent_server):
    server = agent_server()

    def setup() -> tuple[Match, str]:
        bots_ensure(game="tic-tac-toe")
        out = StringIO()
        call_command("agents", "add", "--slug", "signed", "--kind", "remote", "--url", server.url, stdout=out)
        agents = [Agent.objects.get(slug="signed"), Agent.objects.get(slug="tic-tac-toe-lv0")]
        return match_create(game="tic-tac-toe", agents=agents, seed=3), out.getvalue()

    match, printed = await sync_to_async(setup)()
    server.secret = printed.split("signing secret")[1].split(": ")[1].strip()
    await run_match(match.pk)
    assert server.bodies
    assert server.bad_signatures == 0
    config = (await AgentVersion.objects.aget(agent__slug="signed")).config
    assert server.secret not in json.dumps(config)
    assert set(config) == {"url", "secret_id"}


async def test_server_errors_are_retried_and_each_is_recorded(agent_server):
    server = agent_server(failures=2)
    match = await play("tic-tac-toe", server.url)
    assert match.status == Match.Status.FINISHED
    first = [a async for a in Attempt.objects.filter(match=match, seat=0, ply=0).order_by("number")]
    assert [a.verdict for a in first] == ["api_error", "api_error", "ok"]
    assert all(a.transient for a in first[:2])


async def test_an_agent_server_that_stays_down_pauses_the_match_which_resumes_when_it_answers(agent_server):
    server = agent_server(failures=3)  # every send of the first decision: the first and two re-sends
    match = await play("tic-tac-toe", server.url)
    assert (match.status, match.claimed_by) == (Match.Status.RUNNING, "")
    assert match.pause["reason"] == "the agent's server is not answering; the match resumes when it does"
    assert not await Decision.objects.filter(match=match).aexists()
    await Match.objects.filter(pk=match.pk).aupdate(paused_until=timezone.now())  # the pause is over
    await run_match(match.pk)
    match = await Match.objects.aget(pk=match.pk)
    assert match.status == Match.Status.FINISHED
    assert not await Decision.objects.filter(match=match).exclude(fallback="").aexists()
    first = [a.verdict async for a in Attempt.objects.filter(match=match, seat=0, ply=0).order_by("number")]
    assert first == ["api_error"] * 3 + ["ok"]


async def test_in_a_hidden_information_game_a_remote_agent_gets_its_seat_view_only(agent_server):
    server = agent_server()
    match = await play("kuhn-poker", server.url, seed=11)
    assert match.status == Match.Status.FINISHED
    game = get_game("kuhn-poker")
    decisions = {d.ply: d async for d in match.decisions.all()}
    assert server.bodies
    for body in server.bodies:
        state = game.from_json(decisions[body["ply"]].state_before)
        assert body["observation"] == to_jsonable(game.player_view(state, 0))
        assert body["observation"] != to_jsonable(game.player_view(state, None)) or game.outcome(state)


async def test_an_agent_limited_to_public_addresses_never_calls_the_loopback(agent_server):
    from arena.agents.remote import RemoteAgent

    server = agent_server()
    game = get_game("tic-tac-toe")
    agent = RemoteAgent({"url": server.url, "public_only": True})
    result = await agent.decide(game, game.initial_state(seed=1), 0, 1)
    assert result.action is None
    assert result.attempts[0].verdict == "api_error"
    assert "127.0.0.1" in result.attempts[0].message
    assert server.bodies == []


async def test_a_resolver_that_rebinds_to_the_loopback_never_gets_a_request_through(agent_server, monkeypatch):
    from arena.agents import remote

    server = agent_server()
    answers = iter([["2606:4700:4700::1111"], ["127.0.0.1"], ["127.0.0.1"], ["127.0.0.1"]])
    asked: list[str] = []

    async def rebinding(host: str, port: int) -> list[str]:
        asked.append(host)
        return next(answers)

    monkeypatch.setattr(remote, "resolve", rebinding)
    # "localhost" is what the system's resolver would turn into 127.0.0.1 if anything asked it again.
    url = server.url.replace("127.0.0.1", "localhost")
    agent = remote.RemoteAgent({"url": url, "public_only": True, "timeout_s": 0.5, "retries": 1, "provider_retries": 1})
    game = get_game("tic-tac-toe")
    result = await agent.decide(game, game.initial_state(seed=1), 0, 1)
    assert result.action is None
    assert server.bodies == []  # the loopback server never saw a request
    assert asked == ["localhost", "localhost"]  # resolved once per request: public, then the rebind
    first, last = result.attempts
    assert first.verdict in ("api_error", "timeout")
    assert first.transient
    assert last.verdict == "api_error"
    assert not last.transient
    assert last.message == "localhost resolves to 127.0.0.1, which agents registered through the API may not reach."


async def test_a_public_only_agent_is_connected_to_the_address_it_was_checked_at(agent_server, monkeypatch):
    from arena.agents import remote

    server = agent_server()
    monkeypatch.setattr(remote.ipaddress.IPv4Address, "is_global", property(lambda self: True))

    async def system_would_say_otherwise(host: str, port: int) -> list[str]:
        return ["127.0.0.1"]  # checked (every address counts as public here), then connected to as is

    monkeypatch.setattr(remote, "resolve", system_would_say_otherwise)
    agent = remote.RemoteAgent({"url": server.url.replace("127.0.0.1", "agent.invalid"), "public_only": True})
    game = get_game("tic-tac-toe")
    result = await agent.decide(game, game.initial_state(seed=1), 0, 1)
    assert result.attempts[-1].verdict == "ok"
    assert len(server.bodies) == 1  # "agent.invalid" never resolves: the pinned address was used
