"""Botzone programs in a seat: real Python and C bots play whole matches; hostile programs are contained."""

from __future__ import annotations

import asyncio
import json
import socket

import pytest
from asgiref.sync import sync_to_async

from arena.agents import botzone
from arena.agents.program import ProgramAgent
from arena.agents.sandbox import isolation_available
from arena.models import Attempt, Match
from arena.record.agents import agent_create, bots_ensure
from arena.record.services import match_create
from arena.runner.loop import run_match
from games import get_game
from tests.arena.agents import bots
from tests.sampled import sampled

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
TICTACTOE = get_game("tic-tac-toe")


async def play_against_random(config: dict, seat: int = 0) -> Match:
    """A finished tic-tac-toe match between a program agent (in `seat`) and the random bot."""

    def setup() -> Match:
        bots_ensure(game="tic-tac-toe")
        program = agent_create(slug="prog", name="prog", kind="program", config=config)
        from arena.models import Agent

        random_bot = Agent.objects.get(slug="tic-tac-toe-lv0")
        seats = [program, random_bot] if seat == 0 else [random_bot, program]
        return match_create(game="tic-tac-toe", agents=seats, seed=7)

    match = await sync_to_async(setup)()
    await run_match(match.pk)
    return await Match.objects.aget(pk=match.pk)


async def program_attempts(match: Match, seat: int) -> list[Attempt]:
    return [a async for a in Attempt.objects.filter(match=match, seat=seat).order_by("ply")]


@pytest.mark.parametrize("seat", [0, 1])
async def test_a_python_json_bot_plays_a_whole_match_with_every_turn_recorded(seat):
    command = bots.python_bot(bots.program_dir(), "ttt", bots.JSON_TICTACTOE)
    match = await play_against_random({"command": command, "protocol": "botzone"}, seat)
    assert match.status == Match.Status.FINISHED
    attempts = await program_attempts(match, seat)
    assert attempts
    assert all(a.verdict == "ok" for a in attempts)
    decisions = [d async for d in match.decisions.filter(seat=seat).order_by("ply")]
    assert [d.fallback for d in decisions] == [""] * len(decisions)
    assert [a.parsed_action for a in attempts] == [d.action_text for d in decisions]
    stdin = json.loads(attempts[-1].messages[0]["content"])
    # Botzone's history: one more request than responses; a first mover starts from the -1 sentinel.
    assert len(stdin["requests"]) == len(stdin["responses"]) + 1 == len(attempts)
    assert (stdin["requests"][0] == {"x": -1, "y": -1}) == (seat == 0)
    assert stdin["data"] == json.loads(attempts[-2].raw_text)["data"]  # data comes back the next turn


async def test_a_c_bot_in_the_simple_text_mode_plays_a_whole_match():
    command = bots.c_bot(bots.program_dir(), "ttt", bots.C_TICTACTOE)
    match = await play_against_random({"command": command, "protocol": "botzone-simple"}, seat=1)
    assert match.status == Match.Status.FINISHED
    attempts = await program_attempts(match, 1)
    assert attempts
    assert all(a.verdict == "ok" for a in attempts)
    first_input = attempts[0].messages[0]["content"].split("\n")
    assert first_input[0] == "1"
    assert len(first_input[1].split()) == 2


async def test_a_kept_running_bot_answers_every_turn_from_one_process():
    command = bots.python_bot(bots.program_dir(), "ttt_kept", bots.KEEP_RUNNING_TICTACTOE)
    match = await play_against_random({"command": command, "protocol": "botzone", "keep_running": True}, seat=0)
    assert match.status == Match.Status.FINISHED
    attempts = await program_attempts(match, 0)
    assert len(attempts) >= 3
    assert all(a.verdict == "ok" for a in attempts)
    pids = {json.loads(a.raw_text.split("\n")[0])["debug"] for a in attempts}
    assert len(pids) == 1
    later = attempts[1].messages[0]["content"]
    assert set(json.loads(later)) == {"x", "y"}  # after the first turn, only the new request is sent
    await asyncio.sleep(0.2)
    assert bots.nobody_processes() == 0  # the run stopped the program when the match ended


async def test_an_illegal_answer_ends_the_game_as_a_loss_as_botzones_judge_does():
    command = bots.python_bot(bots.program_dir(), "same", 'print(\'{"response": {"x": 0, "y": 0}}\')')
    match = await play_against_random({"command": command}, seat=0)
    assert match.status == Match.Status.FINISHED
    assert (match.scores, match.termination) == (
        [0.0, 1.0],
        "forfeit: an invalid answer ends the game, as on Botzone by seat 0",
    )
    verdicts = [a.verdict for a in await program_attempts(match, 0)]
    assert verdicts == ["ok", "illegal"]  # its first illegal answer was its last
    assert not await match.decisions.exclude(fallback="").aexists()  # no move was played for it


async def test_a_match_policy_of_random_moves_does_not_play_for_a_program():
    command = bots.python_bot(bots.program_dir(), "crash", "raise SystemExit(3)")

    def setup() -> Match:
        bots_ensure(game="tic-tac-toe")
        program = agent_create(slug="crash", name="crash", kind="program", config={"command": command})
        from arena.models import Agent

        seats = [Agent.objects.get(slug="tic-tac-toe-lv0"), program]
        return match_create(game="tic-tac-toe", agents=seats, seed=7, policies={"fallback": "random_legal"})

    match = await sync_to_async(setup)()
    await run_match(match.pk)
    match = await Match.objects.aget(pk=match.pk)
    assert match.scores == [1.0, 0.0]
    assert [a.verdict for a in await program_attempts(match, 1)] == ["crashed"]


def hostile(command: str, **limits) -> ProgramAgent:
    return ProgramAgent({"command": command, "limits": {"time_s": 2, **limits}})


async def decide(agent: ProgramAgent):
    return await agent.decide(TICTACTOE, TICTACTOE.initial_state(seed=1), 0, 1)


async def test_a_program_that_sleeps_forever_times_out_and_is_killed():
    result = await decide(hostile(bots.python_bot(bots.program_dir(), "sleep", bots.SLEEP_FOREVER), time_s=1))
    assert result.action is None
    assert result.attempts[0].verdict == "timeout"
    assert 900 <= result.attempts[0].latency_ms < 30_000  # killed at its 1 s, not waited for (a busy machine's margin)
    await asyncio.sleep(0.2)
    assert bots.nobody_processes() == 0


async def test_endless_output_is_cut_at_the_cap():
    flood = bots.python_bot(bots.program_dir(), "flood", bots.INFINITE_OUTPUT)
    result = await decide(hostile(flood, output_bytes=100_000))
    attempt = result.attempts[0]
    assert attempt.verdict == "over_budget"
    assert len(attempt.raw_text) <= 100_000 + 100


@pytest.mark.skipif(not isolation_available(), reason="needs root and unshare to run programs as nobody")
async def test_a_fork_bomb_is_contained_and_leaves_nothing_running():
    result = await decide(hostile(bots.python_bot(bots.program_dir(), "bomb", bots.FORK_BOMB), processes=16))
    assert result.action is None
    assert result.attempts[0].verdict in ("crashed", "timeout")
    await asyncio.sleep(0.3)
    assert bots.nobody_processes() == 0


@pytest.mark.skipif(not isolation_available(), reason="needs root and unshare to run programs as nobody")
async def test_a_program_cannot_read_arenas_files_or_reach_the_network():
    directory = bots.program_dir()
    secret = bots.secret_file(directory, "the-database-password")
    reader = await decide(hostile(bots.python_bot(directory, "reader", bots.READ_FILE.format(path=str(secret)))))
    assert reader.attempts[0].verdict == "crashed"
    assert "the-database-password" not in reader.attempts[0].raw_text + reader.attempts[0].reasoning_text
    assert "Permission denied" in reader.attempts[0].reasoning_text

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    try:
        port = server.getsockname()[1]
        prober = await decide(hostile(bots.python_bot(directory, "net", bots.NETWORK.format(port=port))))
    finally:
        server.close()
    assert prober.attempts[0].verdict == "unparseable"  # it answered, but not a move: what it could reach
    assert json.loads(prober.attempts[0].raw_text)["response"] != "reached"


async def test_botzone_coordinates_round_trip_for_every_shared_game():
    for slug in ("tic-tac-toe", "reversi", "gomoku", "ataxx"):
        game = get_game(slug)
        state = game.initial_state(seed=3)
        for action in game.legal_actions(state):
            assert botzone.decode(game, state, botzone.encode(game, state, action)) == action
    chess_game = get_game("chess")
    board = chess_game.initial_state(seed=0, fen="r3k3/1P6/8/8/8/8/8/R3K2R w KQq - 0 1")
    for action in chess_game.legal_actions(board):  # promotions and castling too
        assert botzone.decode(chess_game, board, botzone.encode(chess_game, board, action)) == action
    assert botzone.encode(chess_game, board, "b7a8n") == {"source": "b7", "target": "a8", "promotion": "n"}
    assert botzone.encode(chess_game, board, "e1g1") == {"source": "e1", "target": "g1", "promotion": "*"}
    line = botzone.text_line(botzone.encode(chess_game, board, "b7a8q"))  # the simple-interaction text mode
    assert line == "b7 a8 q"
    assert botzone.decode(chess_game, board, botzone.parse_text_line(chess_game, line)) == "b7a8q"


@pytest.mark.parametrize("seat", sampled([0, 1], {0}))
async def test_a_botzone_chess_bot_plays_unchanged_in_botzones_chess_format(seat):
    """A bot written for Botzone's chess judge (source/target/promotion strings) plays Arena's chess as it is."""

    def setup() -> Match:
        bots_ensure(game="chess")
        from arena.models import Agent

        command = bots.python_bot(bots.program_dir(), "chess", bots.JSON_CHESS)
        program = agent_create(slug="chess-prog", name="chess-prog", kind="program", config={"command": command})
        random_bot = Agent.objects.get(slug="chess-lv0")
        seats = [program, random_bot] if seat == 0 else [random_bot, program]
        return match_create(game="chess", agents=seats, seed=11, options={"max_plies": 60})

    match = await sync_to_async(setup)()
    await run_match(match.pk)
    match = await Match.objects.aget(pk=match.pk)
    assert match.status == Match.Status.FINISHED
    attempts = await program_attempts(match, seat)
    assert len(attempts) >= 5
    assert [a.verdict for a in attempts] == ["ok"] * len(attempts)  # every answer decoded to a legal move
    first = json.loads(attempts[0].messages[0]["content"])
    assert (first["requests"][0] == {"source": "-1", "target": "-1", "promotion": "*"}) == (seat == 0)
    last = json.loads(attempts[-1].messages[0]["content"])
    assert set(last["responses"][0]) == {"source", "target", "promotion"}
    answer = json.loads(attempts[-1].raw_text)["response"]
    decided = await match.decisions.aget(ply=attempts[-1].ply)
    assert decided.action_text == answer["source"] + answer["target"] + answer["promotion"].replace("*", "")


async def test_a_programs_debug_output_stays_private_to_its_seat_while_the_match_runs(client):
    command = bots.python_bot(bots.program_dir(), "ttt", bots.JSON_TICTACTOE)
    match = await play_against_random({"command": command, "protocol": "botzone"}, seat=0)
    first = await Attempt.objects.filter(match=match, seat=0).order_by("ply").afirst()
    assert '"debug"' in first.raw_text
    url = f"/api/v1/matches/{match.pk}/attempts/{first.ply}"

    replay = f"/matches/{match.pk}/replay/?ply={first.ply + 1}"
    pid = str(json.loads(first.raw_text)["debug"])

    await Match.objects.filter(pk=match.pk).aupdate(status=Match.Status.RUNNING)
    assert (await sync_to_async(client.get)(url)).status_code == 403
    assert f"&quot;debug&quot;: {pid}" not in (await sync_to_async(client.get)(replay)).content.decode()
    listed = (await sync_to_async(client.get)(f"/api/v1/matches/{match.pk}")).json()["decisions"]
    assert [d["trace_visible"] for d in listed[:2]] == [False, True]  # the random bot's trace is no secret

    await Match.objects.filter(pk=match.pk).aupdate(status=Match.Status.FINISHED)
    answer = (await sync_to_async(client.get)(url)).json()
    assert '"debug"' in answer["attempts"][0]["raw_text"]
    assert f"&quot;debug&quot;: {pid}" in (await sync_to_async(client.get)(replay)).content.decode()
