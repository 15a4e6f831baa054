"""A study's match over the websocket: its participant and staff connect; anyone else finds no such match."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.contrib.sessions.backends.db import SessionStore

from arena.asgi import application
from arena.record.agents import bots_ensure
from arena.record.people import guest_agent_create
from arena.studies.services import assignment_start, participant_answer, participant_join, study_save
from tests.arena.sockets import Socket

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("bot_turns_finish"),
]


def study_match():
    bots_ensure(game="tic-tac-toe")
    study = study_save(
        consent_text="One game.",
        slug="socket-study",
        title="Socket study",
        design=[{"game": "tic-tac-toe", "opponents": ["tic-tac-toe-lv0"]}],
        games_per_opponent=1,
        order="fixed",
        move_time_limit_s=None,
        questionnaire=True,
        completion_code="S0CKET",
        max_participants=5,
        is_open=True,
    )
    participant = participant_join(study=study, consent_version=1)
    participant_answer(participant=participant, experience={"tic-tac-toe": "none"})
    return assignment_start(participant=participant), participant.agent


def session_cookie(**values) -> bytes:
    session = SessionStore()
    session.update(values)
    session.create()
    return f"sessionid={session.session_key}".encode()


async def opens(match_id: int, cookie: bytes | None) -> bool:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")] + ([(b"cookie", cookie)] if cookie else [])
    communicator = Socket(application, f"/ws/matches/{match_id}/", headers=headers)
    connected, _ = await communicator.connect()
    await communicator.disconnect()
    return connected


async def test_only_the_participant_and_staff_open_a_study_matchs_socket(client, django_user_model):
    match, agent = await sync_to_async(study_match)()
    other = await sync_to_async(guest_agent_create)(nickname="Other")
    staff = await sync_to_async(django_user_model.objects.create_user)("researcher", password="pw", is_staff=True)
    await sync_to_async(client.force_login)(staff)
    assert await opens(match.pk, await sync_to_async(session_cookie)(guest_agent=agent.slug))
    assert await opens(match.pk, f"sessionid={client.cookies['sessionid'].value}".encode())
    assert not await opens(match.pk, None)  # an anonymous spectator
    assert not await opens(match.pk, await sync_to_async(session_cookie)(guest_agent=other.slug))
