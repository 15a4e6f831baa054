"""A UCI engine in a seat: real Stockfish plays chess, recorded like every seat."""

from __future__ import annotations

import shutil

import pytest
from asgiref.sync import sync_to_async
from django.core.management import call_command

from arena.agents.uci import UCIAgent
from arena.models import Agent, Attempt, Match
from arena.record.agents import bots_ensure
from arena.record.services import match_create
from arena.runner.loop import run_match
from games import get_game

STOCKFISH = shutil.which("stockfish") or "/usr/games/stockfish"
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.skipif(not shutil.which(STOCKFISH), reason="Stockfish is not installed"),
]
CHESS = get_game("chess")


async def test_stockfish_registered_from_the_command_line_beats_the_random_bot_on_record():
    def setup() -> Match:
        bots_ensure(game="chess")
        call_command("agents", "add", "--slug", "stockfish", "--kind", "uci", "--command", STOCKFISH, "--nodes", "2000")
        seats = [Agent.objects.get(slug="stockfish"), Agent.objects.get(slug="chess-lv0")]
        return match_create(game="chess", agents=seats, seed=5, options={"max_plies": 120})

    match = await sync_to_async(setup)()
    await run_match(match.pk)
    match = await Match.objects.aget(pk=match.pk)
    assert match.status == Match.Status.FINISHED
    assert match.scores[0] == 1, match.termination  # a random mover does not survive 60 moves of Stockfish
    attempts = [a async for a in Attempt.objects.filter(match=match, seat=0).order_by("ply")]
    decisions = [d async for d in match.decisions.filter(seat=0).order_by("ply")]
    assert len(attempts) == len(decisions) > 0
    assert all(a.verdict == "ok" for a in attempts)
    assert [a.parsed_action for a in attempts] == [d.action_text for d in decisions]
    assert attempts[0].raw_text == f"bestmove {decisions[0].action_text}"
    assert "go nodes 2000" in attempts[0].messages[0]["content"]
    assert "depth" in attempts[0].reasoning_text
    assert "pv" in attempts[0].reasoning_text


async def test_a_weakened_engine_and_a_movetime_limit_are_sent_as_configured():
    state = CHESS.initial_state(seed=1)
    weak = UCIAgent({"command": STOCKFISH, "uci_elo": 1400})
    try:
        result = await weak.decide(CHESS, state, 0, 1)
        assert result.attempts[0].verdict == "ok"
        assert CHESS.is_legal(state, result.action)
        assert weak.engine.config["UCI_LimitStrength"] is True
        assert weak.engine.config["UCI_Elo"] == 1400
    finally:
        await weak.close()
    timed = UCIAgent({"command": STOCKFISH, "movetime_ms": 50})
    try:
        result = await timed.decide(CHESS, state, 0, 1)
        assert "go movetime 50" in result.attempts[0].messages[0]["content"]
    finally:
        await timed.close()


async def test_an_engine_that_dies_is_a_crashed_verdict():
    result = await UCIAgent({"command": "/bin/false"}).decide(CHESS, CHESS.initial_state(seed=1), 0, 1)
    assert result.action is None
    assert result.attempts[0].verdict == "crashed"
