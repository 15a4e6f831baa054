"""One participant in a one-game study against a model on loopback, their match started and their first move made."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from django.test import Client

from arena.models import Match
from arena.record.agents import agent_create
from arena.record.people import person_move
from arena.runner.loop import run_match
from arena.studies.models import Participant
from arena.studies.services import study_save


def first_move_against(
    model: dict, *, study: str, opponent: str, name: str, **options
) -> tuple[Client, Participant, Match]:
    """Register the model `opponent` called `name` (its config `model`), open the tic-tac-toe study `study`
    against it (study `options` on top), and have a participant join, start the match (as its live page does) and
    play b2: their client, the participant and the match, the model's turn next."""
    agent_create(slug=opponent, name=name, kind="llm", config=model)
    study_save(
        consent_text="Play one game.", slug=study, title=study.capitalize(),
        design=[{"game": "tic-tac-toe", "opponents": [opponent]}], games_per_opponent=1, order="fixed",
        move_time_limit_s=None, questionnaire=False, completion_code="DONE", max_participants=10, is_open=True,
        **options,
    )  # fmt: skip
    player = Client()
    player.post(f"/studies/{study}/", {"answer": "accept", "consent_version": "1"})
    participant = Participant.objects.get()
    player.post(f"/studies/{study}/next/")
    match = participant.assignments.get().match
    async_to_sync(run_match)(match.pk)  # started, as the live page starts it: the participant moves first
    person_move(match_id=match.pk, agent=participant.agent, text="b2", ply=0)
    return player, participant, match
