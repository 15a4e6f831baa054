"""A program's Botzone memory lives in the record: `data` across a person's moves, `globaldata` across matches."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync

from arena.agents.program import ProgramAgent
from arena.models import Agent, Attempt, Match
from arena.record.agents import agent_create, bots_ensure
from arena.record.people import person_agent_for_user, person_match_create, person_move
from arena.record.program_memory import MAX_MEMORY_BYTES
from arena.record.services import match_create
from arena.record.turns import match_claim
from arena.runner.loop import run_match
from games import get_game
from tests.arena.agents import bots

TICTACTOE = get_game("tic-tac-toe")
HERE = "here:1"


def program(source: str, name: str, **config) -> Agent:
    command = bots.python_bot(bots.program_dir(), name, source)
    return agent_create(slug=name, name=name, kind="program", config={"command": command, **config})


def inputs(match: Match, seat: int) -> list[str]:
    """What the program at `seat` read on each of its turns."""
    attempts = Attempt.objects.filter(match=match, seat=seat).order_by("ply")
    assert [a.verdict for a in attempts] == ["ok"] * len(attempts)
    return [a.messages[0]["content"] for a in attempts]


def play_as_person(user, opponent: Agent) -> Match:
    """A person (seat 0) plays `opponent` to the end, one move at a time, each reply run as a page's runner runs it:
    by a fresh run of the match, which lets go of it whenever the person is to move."""
    person = person_agent_for_user(user=user)
    match = person_match_create(person=person, opponent=opponent, game="tic-tac-toe", seat=0)
    match = match_claim(match_id=match.pk, worker="page").match
    while match.status == Match.Status.RUNNING:
        state = TICTACTOE.from_json(match.state)
        text = TICTACTOE.action_to_text(state, TICTACTOE.legal_actions(state)[len(TICTACTOE.legal_actions(state)) // 2])
        moved = person_move(match_id=match.pk, agent=person, text=text, ply=match.ply, runner=HERE).match
        match = async_to_sync(run_match)(match.pk, worker=HERE, handed=moved) or moved
        match.refresh_from_db()
    return match


@pytest.mark.django_db
def test_data_survives_a_persons_moves_and_globaldata_the_next_match(django_user_model):
    bots_ensure(game="tic-tac-toe")
    probe = program(bots.PROBE_TICTACTOE, "probe")
    first = play_as_person(django_user_model.objects.create_user("ann"), probe)
    assert first.status == Match.Status.FINISHED
    turns = [json.loads(line) for line in inputs(first, 1)]
    assert len(turns) >= 3
    # Every turn of the program was a fresh run after a person's move, yet data and globaldata came back.
    assert [t["data"] for t in turns] == [None, *range(1, len(turns))]
    assert [t["globaldata"] for t in turns] == [None, *range(1, len(turns))]

    second = match_create(game="tic-tac-toe", agents=[probe, Agent.objects.get(slug="tic-tac-toe-lv0")], seed=3)
    async_to_sync(run_match)(second.pk)
    later = [json.loads(line) for line in inputs(second, 0)]
    assert [t["data"] for t in later] == [None, *range(1, len(later))]  # data is per match
    assert [t["globaldata"] for t in later] == list(range(len(turns), len(turns) + len(later)))  # globaldata lasts


def against_random(agent: Agent, seat: int = 0) -> Match:
    bots_ensure(game="tic-tac-toe")
    random_bot = Agent.objects.get(slug="tic-tac-toe-lv0")
    match = match_create(game="tic-tac-toe", agents=[agent, random_bot] if seat == 0 else [random_bot, agent], seed=5)
    async_to_sync(run_match)(match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


@pytest.mark.django_db
def test_an_answer_without_data_clears_it():
    match = against_random(program(bots.BLINKING_DATA_TICTACTOE, "blink"))
    turns = [json.loads(line)["data"] for line in inputs(match, 0)]
    assert len(turns) >= 3
    assert turns == [None, "set", None, "set", None][: len(turns)]


@pytest.mark.django_db
def test_text_mode_globaldata_keeps_every_line():
    match = against_random(program(bots.TEXT_GLOBALDATA_TICTACTOE, "text", protocol="botzone-simple"))
    turns = inputs(match, 0)
    assert len(turns) >= 2
    for number, text in enumerate(turns[1:], start=1):
        assert text.endswith(f"data {number}\nfirst globaldata line\nsecond globaldata line of turn {number}\n")


@pytest.mark.django_db
def test_later_responses_carry_the_programs_own_answers_not_the_fold_the_judge_played():
    # 7 more chips is never a legal raise: Botzone's hold'em judge folds the hand for it, and the game goes on.
    stubborn = program("print('{\"response\": 7}')", "stubborn")
    bots_ensure(game="holdem")
    holdem = get_game("holdem")
    opponent = Agent.objects.get(slug="holdem-lv0")
    options = {**holdem.variants["botzone"], "hands": 4}
    match = match_create(game="holdem", agents=[stubborn, opponent], seed=5, options=options)
    async_to_sync(run_match)(match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    attempts = list(Attempt.objects.filter(match=match, seat=0).order_by("ply"))
    assert len(attempts) >= 2
    assert {a.verdict for a in attempts} == {"unparseable"}  # the judge's rules refuse a raise of 7
    folds = match.decisions.filter(seat=0)
    assert set(folds.values_list("fallback", "action_text")) == {("botzone_fold", "fold")}
    last = json.loads(attempts[-1].messages[0]["content"])
    assert last["responses"] == [7] * len(last["responses"])


def test_data_over_the_limit_is_not_kept_and_the_attempt_says_so():
    big = f'print(\'{{"response": {{"x": 1, "y": 1}}, "data": "{"x" * (MAX_MEMORY_BYTES + 1)}", "globaldata": 1}}\')'
    agent = ProgramAgent({"command": bots.python_bot(bots.program_dir(), "big", big)})
    state = TICTACTOE.initial_state(seed=1)
    first = async_to_sync(agent.decide)(TICTACTOE, state, 0, 1).attempts[0]
    assert first.verdict == "ok"
    assert f"data over {MAX_MEMORY_BYTES:,} bytes not kept" in first.message
    second = async_to_sync(agent.decide)(TICTACTOE, state, 0, 1).attempts[0]
    sent = json.loads(second.messages[0]["content"])
    assert (sent["data"], sent["globaldata"]) == (None, 1)
