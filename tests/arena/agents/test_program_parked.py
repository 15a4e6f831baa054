"""A kept-running program across a person's turns: the process that ran it keeps it for the match's next run (just
the new request), another restarts it with the full input; parked programs are bounded and stopped."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import async_to_sync, sync_to_async

from arena.agents import parked
from arena.models import Agent, Attempt, Match
from arena.record.agents import agent_create
from arena.record.people import person_agent_for_user, person_match_create, person_move
from arena.record.turns import match_claim
from arena.runner.loop import run_match
from games import get_game
from tests.arena.agents import bots

pytestmark = pytest.mark.django_db(transaction=True)

TICTACTOE = get_game("tic-tac-toe")
HERE = "here:1"


def keep_running_program() -> Agent:
    command = bots.python_bot(bots.program_dir(), "kept", bots.KEEP_RUNNING_TICTACTOE)
    return agent_create(slug="kept", name="kept", kind="program", config={"command": command, "keep_running": True})


def start(user) -> tuple[Agent, Match]:
    """A person (seat 0) against a keep-running program, the match claimed by the page as a person's game is."""
    person = person_agent_for_user(user=user)
    match = person_match_create(person=person, opponent=keep_running_program(), game="tic-tac-toe", seat=0)
    return person, match_claim(match_id=match.pk, worker="page").match


def move(person: Agent, match: Match) -> Match:
    """The person's move (the first empty cell), handed to this worker in the same write."""
    match.refresh_from_db()
    state = TICTACTOE.from_json(match.state)
    text = TICTACTOE.action_to_text(state, TICTACTOE.legal_actions(state)[0])
    return person_move(match_id=match.pk, agent=person, text=text, ply=match.ply, runner=HERE).match


def program_command() -> str:
    return Agent.objects.get(slug="kept").current_version().config["command"]


def program_inputs(match: Match) -> list[str]:
    """What the program read on each turn."""
    attempts = Attempt.objects.filter(match=match, seat=1).order_by("ply")
    assert [a.verdict for a in attempts] == ["ok"] * len(attempts)
    return [a.messages[0]["content"] for a in attempts]


@pytest.mark.asyncio
async def test_the_worker_that_ran_it_keeps_it_across_the_persons_turns(django_user_model):
    user = await django_user_model.objects.acreate(username="ann")
    person, match = await sync_to_async(start)(user)
    while match.status == Match.Status.RUNNING:
        moved = await sync_to_async(move)(person, match)
        match = await run_match(match.pk, worker=HERE, handed=moved) or moved
        await match.arefresh_from_db()
    turns = await sync_to_async(program_inputs)(match)
    assert len(turns) >= 3
    assert "requests" in json.loads(turns[0])  # started with the full input
    # Then only the person's move: the same process, kept alive while the person thought, holds the board.
    assert all(set(json.loads(sent)) == {"x", "y"} for sent in turns[1:])
    # A match the person's move ended leaves its program parked until the idle limit; here it is taken back.
    command = await sync_to_async(program_command)()
    if (left := parked.unpark((match.pk, 1, command))) is not None:
        await left.program.kill()
    assert parked.parked_count() == 0
    await asyncio.sleep(0.2)
    assert bots.nobody_processes() == 0


def test_a_run_elsewhere_restarts_it_with_the_full_input_and_stops_the_parked_one(django_user_model):
    person, match = start(django_user_model.objects.create_user("bea"))
    while match.status == Match.Status.RUNNING:
        # Each run has an event loop of its own, as another worker process would: what one parked, the next cannot
        # use, so it starts the program afresh.
        moved = move(person, match)
        match = async_to_sync(run_match)(match.pk, worker=HERE, handed=moved) or moved
        match.refresh_from_db()
        assert parked.parked_count() <= 1
    turns = program_inputs(match)
    assert len(turns) >= 3
    assert all("requests" in json.loads(sent) for sent in turns)
    assert parked.parked_count() <= 1

    key = (match.pk, 1, program_command())

    async def take_back() -> None:  # from yet another event loop: the parked program is killed, not given back
        assert parked.unpark(key) is None

    async_to_sync(take_back)()
    assert bots.nobody_processes() == 0


@pytest.mark.asyncio
async def test_a_parked_program_is_killed_when_idle_beyond_the_count_and_with_the_worker(monkeypatch):
    from arena.agents.sandbox import DEFAULT_LIMITS, Program

    monkeypatch.setattr(parked, "PARKED_IDLE_S", 0.3)
    monkeypatch.setattr(parked, "MAX_PARKED", 2)
    command = bots.python_bot(bots.program_dir(), "idle", "import time\ntime.sleep(60)\n")
    programs = [Program(command, DEFAULT_LIMITS) for _ in range(3)]
    for number, program in enumerate(programs):
        await program.start()
        parked.park((number, 1, command), program, turns_seen=1)
    assert parked.parked_count() == 2  # the first parked was killed to keep two
    assert parked.unpark((0, 1, command)) is None
    await asyncio.sleep(1.0)
    assert parked.parked_count() == 0  # idle past their time
    last = Program(command, DEFAULT_LIMITS)
    await last.start()
    parked.park((9, 1, command), last, turns_seen=1)
    parked.stop_all()  # as a worker does when it stops
    assert parked.parked_count() == 0
    await asyncio.sleep(0.2)
    assert bots.nobody_processes() == 0
