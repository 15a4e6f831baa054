"""What a crowd of spectators shares: one render per update and viewer kind, no user lookup without a session."""

from __future__ import annotations

import asyncio
import json

import pytest
from django.contrib.auth.models import AnonymousUser

from arena.asgi import application
from arena.models import Agent, Decision, Match
from arena.play.broadcast import broadcast_match_updated
from arena.play.consumers import FragmentCache
from arena.play.ws_auth import viewer_middleware_stack
from arena.record.agents import bots_ensure
from arena.record.people import person_agent_for_user, person_match_create
from tests.arena.sockets import Socket


class ScopeRecorder:
    """An ASGI app that keeps the scope it was called with."""

    scope: dict | None = None

    async def __call__(self, scope, receive, send):
        self.scope = scope


async def seen_by(recorder: ScopeRecorder, cookie: bytes | None):
    headers = [(b"cookie", cookie)] if cookie else []
    await viewer_middleware_stack(recorder)({"type": "websocket", "headers": headers}, None, None)
    return recorder.scope["user"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_without_a_session_is_anonymous_and_a_signed_in_one_is_its_user(client, django_user_model):
    user = await django_user_model.objects.acreate(username="ada")
    await asyncio.to_thread(client.force_login, user)
    recorder = ScopeRecorder()
    assert isinstance(await seen_by(recorder, None), AnonymousUser)
    assert isinstance(await seen_by(recorder, b"csrftoken=abc"), AnonymousUser)
    assert isinstance(await seen_by(recorder, b"sessionid=not-a-session-of-ours"), AnonymousUser)
    signed_in = await seen_by(recorder, f"sessionid={client.cookies['sessionid'].value}".encode())
    assert signed_in.pk == user.pk
    assert signed_in.is_authenticated


@pytest.mark.asyncio
async def test_pages_asking_for_the_same_update_share_one_render():
    cache = FragmentCache()
    renders = []

    async def render(match=None):
        renders.append(1)
        await asyncio.sleep(0.01)  # other pages ask meanwhile
        return (5, 1), "frame at ply 5"

    key = (7, 5, "running", ())
    shown = await asyncio.gather(*(cache.after(key, render) for _ in range(20)))
    assert shown == [((5, 1), "frame at ply 5")] * 20
    assert len(renders) == 1
    assert cache.rendering == {}  # nothing left waiting
    await cache.after((7, 6, "running", ()), render)  # a later update renders again
    assert len(renders) == 2


@pytest.mark.asyncio
async def test_an_update_this_process_broadcast_is_rendered_from_the_match_and_decisions_it_broadcast():
    cache = FragmentCache()
    given = []

    async def render(recorded=None):
        given.append(recorded)
        return (4, 1), "frame"

    match = Match(pk=991, ply=4, status=Match.Status.RUNNING)
    decision = Decision(match=match, ply=3, seat=1)
    await broadcast_match_updated(match, [decision])
    await cache.after((991, 4, "running", ()), render)
    await cache.after((991, 5, "running", ()), render)  # an update made elsewhere: read afresh
    assert given[0].match is match
    assert given[0].decisions == (decision,)
    assert given[1] is None


@pytest.mark.asyncio
async def test_a_page_that_closes_while_waiting_does_not_cancel_the_others_render():
    cache = FragmentCache()
    started = asyncio.Event()

    async def render(match=None):
        started.set()
        await asyncio.sleep(0.01)
        return (3, 1), "frame"

    key = (1, 3, "running", ())
    closing = asyncio.create_task(cache.after(key, render))
    await started.wait()
    staying = asyncio.create_task(cache.after(key, render))
    closing.cancel()
    assert await staying == ((3, 1), "frame")


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_spectators_of_a_position_all_get_one_and_the_same_frame(django_user_model):
    user = await django_user_model.objects.acreate(username="bo")

    def make_match():
        bots_ensure(game="connect-four")
        person = person_agent_for_user(user=user)
        return person_match_create(
            person=person, opponent=Agent.objects.get(slug="connect-four-lv0"), game="connect-four", seat=1
        )

    match = await asyncio.to_thread(make_match)
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    spectators = [Socket(application, f"/ws/matches/{match.pk}/", headers=headers) for _ in range(5)]
    for spectator in spectators:
        assert (await spectator.connect())[0]
    frames = [json.loads(await spectator.receive_from(timeout=10)) for spectator in spectators]
    assert len({frame["html"] for frame in frames}) == 1
    assert frames[0]["ply"] == 0
    assert "(you)" not in frames[0]["html"]
    for spectator in spectators:
        await spectator.disconnect()
