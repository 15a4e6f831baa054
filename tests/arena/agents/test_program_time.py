"""Botzone's time rules: per language, a first turn twice as long, the limits in the input, start-up off the clock."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync

from arena.agents.program import BOTZONE_MEMORY_MB, JVM_ADDRESS_SPACE_MB, ProgramAgent
from arena.agents.sandbox import SANDBOX_READY, isolation_mode
from arena.models import Agent, Attempt, Match
from arena.record.agents import agent_create, bots_ensure
from arena.record.services import match_create
from arena.runner.loop import run_match
from games import get_game
from tests.arena.agents import bots

TICTACTOE = get_game("tic-tac-toe")

#: Sleeps one second every turn, then plays the first empty cell and reports the limits it was given.
SLOW_TICTACTOE = r"""
import json, sys, time
turn = json.loads(sys.stdin.readline())
time.sleep(1.0)
taken = {(r["x"], r["y"]) for r in turn["requests"] + turn["responses"] if r["x"] >= 0}
cell = next((x, y) for y in range(3) for x in range(3) if (x, y) not in taken)
sys.stderr.write("thinking\n")
print(json.dumps({"response": {"x": cell[0], "y": cell[1]}, "debug": [turn["time_limit"], turn["memory_limit"]]}))
"""


@pytest.mark.parametrize(
    ("language", "first", "later"), [("c", 2, 1), ("cpp", 2, 1), ("java", 6, 3), ("python", 12, 6)]
)
def test_each_language_gets_botzones_time_and_twice_it_on_the_first_turn(language, first, later):
    agent = ProgramAgent({"command": "true", "language": language})
    assert (agent.turn_time_s(first=True), agent.turn_time_s(first=False)) == (first, later)
    assert agent.limits["memory_mb"] == (JVM_ADDRESS_SPACE_MB if language == "java" else BOTZONE_MEMORY_MB)
    assert agent.limits["cpu_s"] >= first  # the CPU limit never ends a turn its wall time allows


def test_a_program_without_a_language_keeps_one_wall_time_and_an_unknown_language_is_refused():
    agent = ProgramAgent({"command": "true"})
    assert agent.turn_time_s(first=True) == agent.turn_time_s(first=False) == 5
    with pytest.raises(Exception, match="Unknown language 'rust'"):
        ProgramAgent({"command": "true", "language": "rust"})


@pytest.mark.django_db
def test_the_first_turn_has_twice_the_time_and_the_input_says_how_much():
    """A bot taking 1 s a turn, given 1 s a turn as a C++ bot: its first turn (2 s) answers, its second times out."""
    bots_ensure(game="tic-tac-toe")
    command = bots.python_bot(bots.program_dir(), "slow", SLOW_TICTACTOE)
    config = {"command": command, "language": "cpp", "limits": {"time_s": 1.0}}
    slow = agent_create(slug="slow", name="slow", kind="program", config=config)
    match = match_create(game="tic-tac-toe", agents=[slow, Agent.objects.get(slug="tic-tac-toe-lv0")], seed=2)
    async_to_sync(run_match)(match.pk)
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    first, second = Attempt.objects.filter(match=match, seat=0).order_by("ply")[:2]
    assert first.verdict == "ok"
    assert json.loads(first.raw_text)["debug"] == [2.0, BOTZONE_MEMORY_MB]
    assert (json.loads(first.messages[0]["content"])["time_limit"], first.reasoning_text) == (2.0, "thinking\n")
    assert second.verdict == "timeout"
    assert second.message.startswith("No answer within 1 s of wall time")
    assert json.loads(second.messages[0]["content"])["time_limit"] == 1.0


@pytest.mark.skipif(not isolation_mode(), reason="needs unshare: the walls' start-up is what is kept off the clock")
def test_the_sandboxs_readiness_line_stays_out_of_the_programs_stderr():
    command = bots.python_bot(bots.program_dir(), "talk", "import sys; sys.stderr.write('mine\\n'); print('{}')")
    attempt = async_to_sync(ProgramAgent({"command": command}).decide)(TICTACTOE, TICTACTOE.initial_state(seed=1), 0, 1)
    assert attempt.attempts[0].reasoning_text == "mine\n"
    assert SANDBOX_READY not in attempt.attempts[0].reasoning_text
