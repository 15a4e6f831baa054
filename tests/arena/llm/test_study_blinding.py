"""A blinded study hides its opponents on every page and frame its participant can reach, typed URLs included: the
match's live page and websocket frames, its replay and replay steps, the participant's own seat page and its
lists of matches. Against a real model on loopback whose reasoning names itself."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth.models import User
from django.test import Client

from arena.record.people import person_resign
from arena.runner.loop import run_match
from arena.studies.models import Participant
from tests.arena.llm.model_study import first_move_against
from tests.arena.llm.scripted_server import MODEL, ScriptedServer, first_legal_move
from tests.arena.test_consumers import connect, next_fragment

pytestmark = pytest.mark.django_db(transaction=True)

#: Whatever would say who or what the opponent is: its name, slug, kind, its model and its reasoning.
GIVEAWAYS = re.compile(r"secret|scripted-model|\bllm\b|is a model|reasoning", re.IGNORECASE)


def telling(page: str) -> list[str]:
    """What in `page` names the opponent, or links to an agent's page."""
    return GIVEAWAYS.findall(page) + re.findall(r'href="/agents/[^"]+', page)


def reasoned(body: dict):
    return replace(first_legal_move(body), reasoning_content="I am Secret Model; thinking it over.")


@pytest.fixture
def played():
    """A blinded study's participant two moves into a match against a model: (their client, the match)."""
    with ScriptedServer(reasoned) as server:
        config = {"base_url": server.base_url, "model": MODEL, "timeout_s": 5.0}
        player, _participant, match = first_move_against(
            config, study="blind", opponent="secret-model", name="Secret Model", blind_opponents=True
        )
        async_to_sync(run_match)(match.pk)  # the model's reply, with its reasoning
        match.refresh_from_db()
        assert match.ply == 2
        assert "Secret Model" in match.attempts.get(seat=1).reasoning_text
    return player, match


def test_no_page_a_blinded_participant_can_reach_names_the_opponent(played):
    player, match = played
    participant = Participant.objects.get()
    seat = participant.agent.slug
    paths = [
        "/studies/blind/",
        f"/play/{match.pk}/",
        f"/matches/{match.pk}/",
        f"/matches/{match.pk}/?ply=1",
        f"/matches/{match.pk}/replay/?ply=2",
        f"/matches/{match.pk}/replay/?ply=1",
        f"/agents/{seat}/",  # their own seat, by its URL: it lists their matches
        f"/matches/?agent={seat}",
        "/matches/",
        "/play/",
    ]
    for finished in (False, True):
        if finished:  # a finished match adds its result, the seat's records and rating history
            person_resign(match_id=match.pk, agent=participant.agent)
        for path in paths:
            response = player.get(path)
            assert response.status_code == 200, path
            assert telling(response.content.decode()) == [], (path, finished)
        assert "Opponent A" in player.get(f"/matches/?agent={seat}").content.decode()
    assert "Opponent A wins." in player.get(f"/play/{match.pk}/").content.decode()
    staff = Client()
    staff.force_login(User.objects.create_user("researcher", password="x", is_staff=True))
    assert "Secret Model" in staff.get(f"/matches/?agent={seat}").content.decode()  # the researcher sees who


def test_no_websocket_frame_names_the_opponent(played):
    player, match = played
    cookie = f"sessionid={player.cookies['sessionid'].value}".encode()

    async def frames() -> list[str]:
        communicator = await connect(match.pk, cookie)
        try:
            return [json.dumps(await next_fragment(communicator, min_ply=2))]
        finally:
            await communicator.disconnect()

    for frame in async_to_sync(frames)():
        assert "Opponent A" in frame
        assert telling(frame) == []
