"""PGN export: a real Stockfish-vs-bot match comes out as a game python-chess reads back, with comments."""

from __future__ import annotations

import io
import shutil

import chess.pgn
import pytest
from asgiref.sync import async_to_sync
from django.core.management import call_command

from arena.models import Agent, Match
from arena.record.agents import agent_create, bots_ensure
from arena.record.pgn import emt
from arena.record.services import match_create
from arena.runner.loop import run_match

STOCKFISH = shutil.which("stockfish") or "/usr/games/stockfish"
pytestmark = pytest.mark.django_db(transaction=True)


def test_emt_is_hours_minutes_seconds_tenths():
    assert emt(0) == "[%emt 0:00:00.0]"
    assert emt(3_723_500) == "[%emt 1:02:03.5]"


@pytest.mark.skipif(not shutil.which(STOCKFISH), reason="Stockfish is not installed")
def test_a_chess_match_exports_as_pgn_with_reasoning_and_thinking_time(tmp_path):
    bots_ensure(game="chess")
    engine = agent_create(slug="sf", name="sf", kind="uci", game="chess", config={"command": STOCKFISH, "nodes": 500})
    match = match_create(game="chess", agents=[Agent.objects.get(slug="chess-lv0"), engine], seed=2,
                         options={"max_plies": 30})  # fmt: skip
    async_to_sync(run_match)(match.pk)
    match = Match.objects.get(pk=match.pk)
    out = tmp_path / "games.pgn"
    call_command("export_dataset", "--format", "pgn", "--output", str(out))
    game = chess.pgn.read_game(io.StringIO(out.read_text()))
    assert game.headers["White"] == "chess-lv0"
    assert game.headers["Black"] == "sf"
    assert game.headers["ArenaMatch"] == str(match.uid)
    moves = list(game.mainline())
    assert [node.move.uci() for node in moves] == list(
        match.decisions.order_by("ply").values_list("action_text", flat=True)
    )
    engine_nodes = moves[1::2]
    assert all("[%emt " in node.comment for node in moves)
    assert all("depth" in node.comment for node in engine_nodes)  # the engine's search info is its reasoning
    assert game.headers["Result"] in ("1-0", "0-1", "1/2-1/2")
    assert node_emt_matches(moves[1], match.decisions.get(ply=1).elapsed_ms)


def node_emt_matches(node, elapsed_ms: int) -> bool:
    return emt(elapsed_ms) in node.comment
