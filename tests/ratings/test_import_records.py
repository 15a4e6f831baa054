"""Published records as reference rows: every Botzone move replayed through our engines; never mixed with matches."""

from __future__ import annotations

import io
import json
import shutil

import pytest
from django.core.management import call_command

from arena.models import Match
from games import get_game
from games.ataxx import BIT, make_state
from games.mahjong.tiles import tile_of
from ratings.record.models import ReferenceRecord
from ratings.record.reports.imports import RecordRejected, botzone_record, botzone_walls
from tests.shared_files import RECORDS, needs

pytestmark = needs(RECORDS)


@pytest.mark.django_db
def test_botzone_logs_replay_exactly_and_import_once(client):
    out = io.StringIO()
    call_command("import_records", str(RECORDS / "botzone"), "--format", "botzone", stdout=out, stderr=io.StringIO())
    # All 16 logs of the eight games, each replayed move by move under our rules (botzone variants where Botzone's
    # differ).
    assert out.getvalue().strip() == "botzone: 16 records read, 16 new, 0 rejected."
    assert sorted(set(ReferenceRecord.objects.values_list("game", flat=True))) == [
        "ataxx", "chess", "fight-the-landlord", "gomoku", "holdem", "mahjong", "reversi", "tic-tac-toe",
    ]  # fmt: skip
    again = io.StringIO()
    call_command("import_records", str(RECORDS / "botzone"), "--format", "botzone", stdout=again)
    assert "16 records read, 0 new" in again.getvalue()
    assert Match.objects.count() == 0  # reference rows are never matches
    chess = ReferenceRecord.objects.get(path="Chess__lv0__Qwen3-14B__0-llm.json")
    # Botzone's judge drew this game on the 51st ply without capture or pawn move (our standard rules would
    # have ended it earlier, on insufficient material): the botzone variant replays all 315 moves.
    assert (chess.variant, len(chess.moves), chess.scores) == ("botzone", 315, [0.5, 0.5])
    assert chess.commit == "ca70a864e5ff5732ce8674fdfb3a9d5803cd8c27"
    ttt = ReferenceRecord.objects.get(path="TicTacToe__lv0__Qwen3-14B__1-bl.json")
    assert (ttt.agents, ttt.scores, ttt.level) == (["botzone-lv0", "Qwen3-14B"], [1.0, 0.0], 0)
    # Hold'em replays under the botzone variant with the log's own cards, every hand checked against the judge's.
    holdem = ReferenceRecord.objects.get(path="TexasHoldem2p__lv0__Qwen3-14B__0-llm.json")
    assert (holdem.variant, len(holdem.moves), holdem.scores) == ("botzone", 92, [0.0, 1.0])
    assert holdem.termination == "Player 2 won 16,605 chips over 20 hands"
    assert holdem.moves[8] == "raise-to 501"  # hand 2: the small blind's 451 more chips
    # Fight the Landlord: the landlord (the model in a -llm log) went out first; Botzone's judge scored
    # 2 + 22/100 for it and (16 + 17)/100/2 for each peasant, as our replay does.
    ftl = ReferenceRecord.objects.get(path="FightTheLandlord__lv0__Qwen3-14B__0-llm.json")
    assert (ftl.variant, ftl.agents, ftl.scores) == ("botzone", ["Qwen3-14B", "botzone-lv0", "botzone-lv0"], [1, 0, 0])
    assert (len(ftl.moves), ftl.moves[:4]) == (61, ["4 4 4", "6 6 6", "10 10 10", "2 2 2"])
    assert "Botzone points 2.22 / 0.165 / 0.165" in ftl.termination
    bl = ReferenceRecord.objects.get(path="FightTheLandlord__lv0__Qwen3-32B__5-bl.json")
    assert bl.agents == ["botzone-lv0", "Qwen3-32B", "Qwen3-32B"]  # the model plays both peasants
    mahjong = ReferenceRecord.objects.get(path="ChineseStandardMahjong__lv0__Qwen3-14B__0-llm.json")
    assert (mahjong.variant, mahjong.scores) == ("botzone", [0.5, 0.5, 0.5, 0.5])
    assert mahjong.agents == ["Qwen3-14B", "botzone-lv0", "Qwen3-14B", "botzone-lv0"]
    assert (len(mahjong.moves), mahjong.moves[:4]) == (356, ["Play W4", "Pass", "Pass", "Pass"])
    page = client.get("/reports/botzonebench/?format=md").content.decode()
    assert "Reference: Table 2 from BotzoneBench's published logs (imported)" in page


def test_a_log_our_rules_reject_is_refused(tmp_path):
    original = RECORDS / "botzone" / "TicTacToe__lv0__Qwen3-14B__0-llm.json"
    log = json.loads(original.read_text())
    log[2] = {"x": 1, "y": 1, "player": 1}  # the centre again: already taken at entry 1
    bad = tmp_path / original.name
    bad.write_text(json.dumps(log))
    with pytest.raises(RecordRejected, match=r"entry 2: .* is not legal in our tic-tac-toe at ply 1"):
        botzone_record(bad)
    shutil.copy(RECORDS / "botzone" / "Chess__lv0__Qwen3-14B__0-llm.json", tmp_path / "Chess__lv0__M__0-llm.json")
    assert botzone_record(tmp_path / "Chess__lv0__M__0-llm.json").scores == [0.5, 0.5]


def test_a_forfeit_is_a_result_and_rematch_logs_are_read(tmp_path):
    # Botzone's gomoku judge ends a game on an invalid response with {"winner": <the other seat>} and no move.
    # The model (seat 1 in a -bl log) answered the bot's first stone with an invalid move: seat 0 wins at ply 1.
    log = json.loads((RECORDS / "botzone" / "Gomoku__lv0__Qwen3-8B__1-bl.json").read_text())
    forfeit = tmp_path / "Gomoku__lv0__Qwen3-8B__27-bl-re.json"  # a rematch log's name
    forfeit.write_text(json.dumps([*log[:2], {"winner": 0}]))
    record = botzone_record(forfeit)
    assert (record.agents, record.scores, record.moves) == (["botzone-lv0", "Qwen3-8B"], [1.0, 0.0], ["o1"])
    assert record.termination == "forfeit: White made an invalid move at ply 1 (Botzone judge)"
    forfeit.write_text(json.dumps([*log[:2], {"winner": 1}]))  # the judge cannot give the game to the offender
    with pytest.raises(RecordRejected, match="seat 1 was to move"):
        botzone_record(forfeit)
    # Fight the Landlord's judge: an invalid response ends the deal with errorInfo, (−1, 2.5, 2.5) when the
    # landlord made it.
    ftl = json.loads((RECORDS / "botzone" / "FightTheLandlord__lv0__Qwen3-14B__0-llm.json").read_text())
    bad = {"0": -1, "1": 2.5, "2": 2.5, "event": {"player": 0, "action": []}, "errorInfo": "INVALID_CARDTYPE"}
    path = tmp_path / "FightTheLandlord__lv0__M__2-llm.json"
    path.write_text(json.dumps([*ftl[:4], bad]))  # P1, P2, P3 played; P1's answer is invalid
    record = botzone_record(path)
    assert (record.scores, record.moves) == ([0.0, 1.0, 1.0], ["4 4 4", "6 6 6", "10 10 10"])
    assert record.termination == "forfeit: P1 made an invalid response (Botzone judge: INVALID_CARDTYPE)"
    # MCR Mahjong's judge: WA, the offender −30 and the others +10.
    mahjong = json.loads((RECORDS / "botzone" / "ChineseStandardMahjong__lv0__Qwen3-14B__0-llm.json").read_text())
    path = tmp_path / "ChineseStandardMahjong__lv0__M__2-llm.json"
    path.write_text(json.dumps([*mahjong[:5], {"action": "WA", "player": 1, "score": [10, -30, 10, 10]}]))
    record = botzone_record(path)
    assert (record.scores, record.moves) == ([1.0, 0.0, 1.0, 1.0], ["Play W4", "Pass", "Pass", "Pass"])


def test_botzone_mahjong_walls_are_private_and_the_hand_ends_on_the_next_seats_empty_wall():
    name = "ChineseStandardMahjong__lv0__Qwen3-14B__0-llm.json"
    log = json.loads((RECORDS / "botzone" / name).read_text())
    mahjong = get_game("mahjong")
    walls = botzone_walls(name, log)
    # Each seat's 13 dealt tiles (in the log's order) head its own wall; the first draw is East's 14th tile.
    assert [w[:13] for w in walls] == log[1]["hand"]
    assert walls[0][13] == log[2]["tile"] == "T5"
    state = mahjong.initial_state(seed=0, walls=walls, wind=log[0]["quan"])
    assert (state.wind, [len(w) for w in state.walls]) == (1, [20, 21, 21, 21])  # the judge's tileCnt after it
    moves = botzone_record(RECORDS / "botzone" / name).moves
    for move in moves[:-3]:
        state = mahjong.apply(state, mahjong.parse_action(state, move))
    # The last discard: P3's T4, when P4's own wall is empty though P1 and P2 keep 2 and 1 tiles (Botzone's
    # final tileCnt [2, 1, 0, 0]). It is the last tile: no claim but Hu, and after the passes the hand is drawn.
    assert (state.phase, state.turn, mahjong.discard(state)) == ("claims", 2, tile_of("T4"))
    assert [len(w) for w in state.walls] == [2, 1, 0, 0]
    assert mahjong.wall_last(state)
    for _ in range(3):
        assert mahjong.legal_actions(state) in ([("pass",)], [("pass",), ("hu",)])
        state = mahjong.apply(state, ("pass",))
    assert (state.phase, state.result) == ("over", (-1, -1, ()))


def test_botzone_ataxx_ends_when_the_mover_has_no_move():
    ataxx = get_game("ataxx")
    # X (to move, ply 0) is walled in: X on a1, O on the 8 other cells within two of it.
    near = [i for i in range(49) if i != 0 and max(abs(i // 7), abs(i % 7)) <= 2]
    o = sum(BIT[i] for i in near)
    standard, botzone = make_state(0, 0, BIT[0], o), make_state(0, 0, BIT[0], o, botzone=True)
    assert ataxx.legal_actions(standard) == [()]  # standard rules: X must pass, O plays on
    outcome = ataxx.outcome(botzone)
    # Botzone: over at once; the 49 − 1 − 8 = 40 empty cells go to O: 48 against 1.
    assert outcome is not None
    assert outcome.scores == (0.0, 1.0)
    assert outcome.reason.endswith("48–1")
    assert ataxx.outcome(standard) is None


@pytest.mark.django_db
def test_gamebench_results_import_as_a_reference_figure(client):
    out = io.StringIO()
    call_command("import_records", str(RECORDS / "gamebench" / "matches.json"), "--format", "gamebench", stdout=out)
    assert out.getvalue().strip() == "gamebench: 277 records read, 277 new, 0 rejected."
    assert any("human" in r.agents for r in ReferenceRecord.objects.filter(source="gamebench"))
    md = client.get("/reports/gamebench/?format=md").content.decode()
    assert "Reference: Figure 1 from GameBench's published matches (imported)" in md
    assert "| human |" in md
    assert Match.objects.count() == 0


def test_botzone_mahjong_kongs_replay_with_the_judges_wall_counts(tmp_path):
    # East declares a concealed kong of W1 and discards its replacement W2; South kongs that discard with three
    # W2 in hand. Botzone's GANG entries show the wall counts before the replacement, which the next DRAW shows.
    hands = [
        ["W1", "W1", "W1", "W1", "B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9"],
        ["W2", "W2", "W2", "T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "F1"],
        ["T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "F2", "F2", "F3", "F3"],
        ["J1", "J1", "J1", "J2", "J2", "J2", "J3", "J3", "J3", "F4", "F4", "F4", "F1"],
    ]
    log = [
        {"action": "INIT", "quan": 0},
        {"action": "DEAL", "hand": hands, "tileCnt": [21, 21, 21, 21]},
        {"action": "DRAW", "player": 0, "tile": "W5", "tileCnt": [20, 21, 21, 21]},
        {"action": "GANG", "player": 0, "tile": "W1", "tileCnt": [20, 21, 21, 21]},
        {"action": "DRAW", "player": 0, "tile": "W2", "tileCnt": [19, 21, 21, 21]},
        {"action": "PLAY", "player": 0, "tile": "W2", "tileCnt": [19, 21, 21, 21]},
        {"action": "GANG", "player": 1, "tile": "W2", "tileCnt": [19, 21, 21, 21]},
        {"action": "DRAW", "player": 1, "tile": "W3", "tileCnt": [19, 20, 21, 21]},
        {"action": "PLAY", "player": 1, "tile": "W3", "tileCnt": [19, 20, 21, 21]},
        {"action": "WA", "player": 2, "score": [10, 10, -30, 10]},
    ]
    path = tmp_path / "ChineseStandardMahjong__lv1__M__7-llm.json"
    path.write_text(json.dumps(log))
    record = botzone_record(path, strict=True)
    assert record.moves == ["Gang W1", "Play W2", "Gang", "Pass", "Pass", "Play W3"]
    assert record.scores == [1.0, 1.0, 0.0, 1.0]
    log[6]["tileCnt"] = [19, 20, 21, 21]  # a claimed kong shown after its replacement: not Botzone's display
    path.write_text(json.dumps(log))
    with pytest.raises(RecordRejected, match=r"entry 6: walls \[19, 21, 21, 21\], Botzone's \[19, 20, 21, 21\]"):
        botzone_record(path)


@pytest.mark.django_db
def test_strict_import_passes_the_published_logs_and_rejects_any_difference(tmp_path):
    out = io.StringIO()
    call_command("import_records", str(RECORDS / "botzone"), "--format", "botzone", "--strict", stdout=out)
    assert out.getvalue().strip() == "botzone: 16 records read, 16 new, 0 rejected."
    # A hold'em log whose judge names a hand category ours does not: results agree, so only a strict read refuses it.
    name = "TexasHoldem2p__lv0__Qwen3-14B__0-llm.json"
    log = json.loads((RECORDS / "botzone" / name).read_text())
    shown = next(entry for entry in log if "temp_result" in entry)
    assert shown["temp_result"][0]["max_hand_type"] == 2  # one pair
    shown["temp_result"][0]["max_hand_type"] = 5
    path = tmp_path / name
    path.write_text(json.dumps(log))
    assert botzone_record(path).scores == [0.0, 1.0]
    with pytest.raises(RecordRejected, match=r"hand 1's categories are \[5, 2\] by Botzone's judge, \[2, 2\] by ours"):
        botzone_record(path, strict=True)
