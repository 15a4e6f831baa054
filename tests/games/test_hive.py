"""Hive: perft counts published by UHP engines, their move-list tests, the rules, UHP notation, the ladder."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games import IllegalAction
from games.bots import hive as hive_bots
from games.bots.calibration import play_series
from games.hive import MAX_PLIES, PASS, Hive, HiveState
from games.hive.board import PIECES, Board
from games.hive.notation import PIECE_NAMES

GAME = Hive()

# Perft of the base game with the tournament opening (no queen on a side's first turn), moves counted as
# distinct (piece, destination) — placements by the lowest-numbered piece of each kind — and a pass
# counting as one move when nothing else is legal.
# Depths 1–4: nokamute, edre/nokamute src/perft.rs at commit 005085c2e77265ec6ded03a3a74cb05ea98e0fc2
#   (test_perft: Base -> [1, 4, 96, 1440, 21600]).
# Depths 5–6: the Mzinga wiki's Perft table as quoted by autoreleasefool/hive-engine
#   Tests/HiveEngineTests/Validation/PerftTests.swift at commit ce372a946c1b6c9769d52f3bcce2b680adaa97d0
#   ("": [4, 96, 1440, 21600, 516240, 12219480], option .noFirstMoveQueen).
PERFT = {1: 4, 2: 96, 3: 1440, 4: 21600, 5: 516240, 6: 12219480}


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_perft_equals_the_uhp_engines_counts(depth):
    assert Board().perft(depth) == PERFT[depth]


@pytest.mark.slow
def test_perft_depth_six_equals_mzinga():
    assert Board().perft(6) == PERFT[6]


# Valid-move lists of nokamute's UHP conformance suite (base-game cases), edre/nokamute data/uhp_tests.txt
# at commit bdf53e92bdfa13c81cd1a26f6d9c282b8de96d79: a GameString, then every valid MoveString.
UHP_MOVE_CASES = {
    "queen": (
        r"Base;InProgress;White[12];wG1;bG1 wG1-;wQ \wG1;bQ bG1-;wG2 /wG1;bA1 bQ/;wG3 /wG2;bA1 bQ-;wB1 -wG3;"
        r"bA1 bQ/;wB2 \wB1;bA1 bQ-;wS1 \wB2;bA1 bQ/;wS2 wS1/;bA1 bQ-;wA1 \wS2;bA1 bQ/;wA2 wA1/;bA1 bQ-;"
        r"wA3 wA2/;bA1 wA3-",
        r"wQ \bG1;wQ -wG1",
    ),
    "grasshopper": (
        r"Base;InProgress;White[11];wG1;bG1 wG1-;wQ /wG1;bQ bG1-;wS1 wQ\;bA1 bQ-;wB1 /wS1;bA1 -wQ;wB1 wS1\;"
        r"bA2 bQ-;wB1 /wS1;bA2 wG1\;wB1 wS1\;bA3 bQ-;wB1 /wS1;bS1 bQ\;wB1 wS1;bS1 wB1\;wB1 /wB1;bA3 -wB1",
        r"wG1 bQ-;wG1 bA2\;wG1 bA1\;wG2 \wG1;wS2 \wG1;wA1 \wG1;wB2 \wG1",
    ),
    "ant": (
        r"Base;InProgress;White[13];wS1;bB1 wS1-;wQ -wS1;bQ bB1-;wB1 \wQ;bG1 bQ/;wB2 \wB1;bG2 bG1/;wS2 \wB2;"
        r"bS1 bG2/;wA1 \wS1;bB2 bS1/;wA2 \wS2;bG3 \bB2;wA1 -bG1;bA1 \bG3;wG1 wA2/;bS2 -bA1;wG2 wG1/;"
        r"bA2 -bS2;wA3 wG2-;bA3 bS2\;wG3 wA3\;bA3 wG3"
        "\\",
        r"wA1 -bG2;wA1 -bS1;wA1 /bG3;wA1 bS2\;wA1 bA2\;wA1 /bA2;wA1 bA3-;wA1 bA3\;wA1 /bA3;wA1 /wG3;"
        r"wA1 wG2\;wA1 wG1\;wA1 wB2/;wA1 wB1/;wA1 \wS1;wA1 \bB1",
    ),
    "spider": (
        r"Base;InProgress;White[12];wG1;bA1 wG1-;wS1 \wG1;bQ bA1-;wQ /wG1;bG1 bQ\;wG2 wQ\;bB1 /bG1;wB1 /wG2;"
        r"bG2 bG1\;wG3 /wB1;bG2 -bB1;wB2 wG3\;bA1 bG1\;wA1 wB2-;bA1 bB1\;wA2 wA1/;bA1 bG1-;wS2 wA2-;"
        r"bA1 bG1\;wA3 wS2\;bA1 wA3-",
        r"wS1 \bQ;wS1 /bQ;wS1 wG1\;wS1 /wQ",
    ),
    "spider 2": (
        r"Base;InProgress;White[12];wG1;bA1 wG1/;wB1 /wG1;bA2 bA1-;wQ wB1\;bQ bA2\;wB2 /wQ;bG1 bQ\;wS1 wG1\;"
        r"bB1 /bG1;wG2 /wB2;bG2 bG1\;wG3 wG2\;bG2 wS1\;wA1 wG3-;bA1 -wB1;wS2 wA1/;bA3 bG1\;wA2 wS2-;"
        r"bA2 \wG1;wA3 wA2\;bA3 wA3-",
        r"wS1 bA2/;wS1 bQ/;wS1 wG1/;wS1 \bQ",
    ),
    "beetle": (
        r"Base;InProgress;White[12];wB1;bB1 wB1-;wQ \wB1;bQ bB1/;wG1 /wB1;bB2 bB1\;wA1 /wG1;bA1 bQ\;"
        r"wG2 -wA1;bQ \bB1;wB2 /wG2;bA2 \bA1;wG3 wB2\;bA2 \wQ;wA2 wG3-;bB2 wB1\;wS1 wA2\;bA1 bB1\;"
        r"wS2 wS1-;bA1 bB1-;wA3 wS2/;bA1 \wA3",
        r"wB1 wQ;wB1 bQ;wB1 bB1;wB1 bB2;wB1 wG1",
    ),
    "tournament opening": ("Base;NotStarted;White[1]", "wG1;wS1;wA1;wB1"),
    "long line": (
        r"Base;InProgress;White[12];wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wS1 -wQ;bS1 bQ-;wS2 -wS1;bS2 bS1-;wB1 -wS2;"
        r"bB1 bS2-;wB2 -wB1;bB2 bB1-;wG2 -wB2;bG2 bB2-;wG3 -wG2;bG3 bG2-;wA1 -wG3;bA1 bG3-;wA2 -wA1;"
        r"bA2 bA1-;wA3 -wA2;bA3 bA2-",
        r"wA3 \wA2;wA3 \wA1;wA3 \wG3;wA3 \wG2;wA3 \wB2;wA3 \wB1;wA3 \wS2;wA3 \wS1;wA3 \wQ;wA3 \wG1;"
        r"wA3 \bG1;wA3 \bQ;wA3 \bS1;wA3 \bS2;wA3 \bB1;wA3 \bB2;wA3 \bG2;wA3 \bG3;wA3 \bA1;wA3 \bA2;"
        r"wA3 \bA3;wA3 bA3/;wA3 bA3-;wA3 bA3\;wA3 bA2\;wA3 bA1\;wA3 bG3\;wA3 bG2\;wA3 bB2\;wA3 bB1\;"
        r"wA3 bS2\;wA3 bS1\;wA3 bQ\;wA3 bG1\;wA3 wG1\;wA3 wQ\;wA3 wS1\;wA3 wS2\;wA3 wB1\;wA3 wB2\;"
        r"wA3 wG2\;wA3 wG3\;wA3 wA1\;wA3 wA2\;wA3 /wA2",
    ),
    "beetle gate": (
        r"Base;InProgress;White[12];wB1;bS1 wB1-;wQ \wB1;bQ bS1/;wB2 -wQ;bB1 bQ\;wS1 /wB2;bB1 bS1;wG1 /wS1;"
        r"bQ \bB1;wG2 wG1\;bB2 bQ/;wG3 wG2\;bB2 \bQ;wA1 wG3-;bB2 wQ;wA2 wA1-;bA1 bQ/;wS2 wA2-;bA1 bB1/;"
        r"wA3 wS2/;bA1 wA3/",
        r"wB1 bB2;wB1 bB1;wB1 /bB1;wB1 wB2" "\\",
    ),
}

# The same suite's finished games: the GameString's state field is what the engine must conclude.
UHP_RESULT_CASES = {
    "white wins": (
        r"Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \bQ;wG1 bQ\;bG2 bQ/;wA1 wQ\;"
        r"bA1 bG2/;wA1 bG2\;bA1 \bG2;wQ \wS1;bA1 bG2/;wQ /bG1"
    ),
    "black surrounds its own queen": (
        r"Base;WhiteWins;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \bQ;wG1 bQ\;bG2 bQ/;wA1 wQ\;"
        r"bA1 bG2/;wA1 bG2\;bA1 /bG1"
    ),
    "both queens at once": (
        r"Base;Draw;White[11];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \bQ;wG1 bQ\;bG2 bQ/;wA1 wQ\;bA1 bG2/;"
        r"wA1 bG2\;bA1 \bG2;wQ \wS1;bG1 wA1/;wQ -bQ;bA1 \wQ;wB1 -wS1;bG3 bG1-;wB1 /bA1;bG3 -bG2"
    ),
}


@pytest.mark.parametrize("case", sorted(UHP_MOVE_CASES))
def test_valid_moves_equal_nokamutes_uhp_suite(case):
    game_string, expected = UHP_MOVE_CASES[case]
    state = GAME.from_game_string(game_string)
    wanted = {GAME.parse_action(state, text) for text in expected.split(";")}
    assert len(wanted) == len(expected.split(";"))  # every expected MoveString names a different move
    assert set(GAME.legal_actions(state)) == wanted


@pytest.mark.parametrize("case", sorted(UHP_RESULT_CASES))
def test_results_equal_nokamutes_uhp_suite(case):
    game_string = UHP_RESULT_CASES[case]
    state = GAME.from_game_string(game_string)
    assert GAME.current_player(state) is None
    ours = GAME.game_string(state)
    assert ours.split(";")[:3] == game_string.split(";")[:3]  # Base, the result and the turn
    assert GAME.from_game_string(ours) == state  # our MoveStrings may name other neighbours, for the same moves


# -- rules, on hand-built positions ----------------------------------------------------------


def state_of(pieces: dict[str, tuple[int, int, int]], ply: int) -> HiveState:
    spots = [()] * PIECES
    for name, spot in pieces.items():
        spots[PIECE_NAMES.index(name)] = spot
    return HiveState(seed=0, ply=ply, pieces=tuple(spots))


def texts(state) -> set[str]:
    return {GAME.action_to_text(state, a) for a in GAME.legal_actions(state)}


def play(*moves: str) -> HiveState:
    state = GAME.initial_state(seed=0)
    for move in moves:
        state = GAME.apply(state, GAME.parse_action(state, move))
    return state


def test_the_neighbour_bits_the_board_keeps_equal_bits_worked_out_afresh():
    # make/unmake keep `around` up to date; a board built from the same stacks works it out from scratch.
    rng, board = random.Random(3), Board()
    while board.ply < 120 and not (board.surrounded(0) or board.surrounded(1)):
        moves = board.moves()
        for move in moves:
            source = board.make(move)
            assert board.around == Board(board.where, dict(board.stacks), board.ply).around
            board.unmake(move, source)
        assert board.around == Board(board.where, dict(board.stacks), board.ply).around
        board.make(rng.choice(moves) if moves else None)
    assert board.ply == 120  # the whole stretch was checked, not a game cut short by a surrounded queen


def test_a_state_made_by_replace_works_out_its_own_position():
    state = play("wA1", "bA1 wA1-")
    assert GAME.current_player(state) == 0  # its position is now kept with it
    assert GAME.outcome(replace(state, ply=MAX_PLIES)).reason == f"{MAX_PLIES}-turn limit"


def test_queen_must_be_placed_by_the_fourth_turn_and_nothing_moves_before():
    state = play("wA1", "bA1 wA1-", "wG1 -wA1", "bG1 bA1-", "wS1 /wG1", "bS1 bG1\\")
    assert {text.split()[0] for text in texts(state)} == {"wQ"}  # turn 4 without the queen: only queen placements
    early = play("wA1", "bA1 wA1-", "wG1 -wA1")
    assert all(PIECE_NAMES[a[0]] in {"bQ", "bS1", "bB1", "bG1", "bA2"} for a in GAME.legal_actions(early))
    assert not any(GAME.action_to_text(early, a).startswith("bA1") for a in GAME.legal_actions(early))


def test_placements_touch_only_your_own_colour():
    state = play("wA1", "bA1 wA1-", "wQ -wA1", "bQ bA1-")
    q_cells = {(a[1], a[2]) for a in GAME.legal_actions(state) if PIECE_NAMES[a[0]] == "wG1"}
    # wA1 (0,0), wQ (-1,0), bA1 (1,0), bQ (2,0): the free cells round the white pair, less those touching bA1.
    assert q_cells == {(-2, 0), (-2, 1), (-1, -1), (-1, 1), (0, -1)}


def test_a_pinned_queen_with_no_place_to_play_passes():
    state = state_of({"wQ": (0, 0, 0), "bQ": (1, 0, 0), "bA1": (-1, 0, 0)}, ply=6)
    assert GAME.legal_actions(state) == [PASS]
    assert GAME.action_to_text(state, PASS) == "pass"
    after = GAME.apply(state, GAME.parse_action(state, "pass"))
    assert after.ply == 7
    assert after.pieces == state.pieces
    assert GAME.action_cells(state, PASS) == ("pass",)
    assert GAME.player_view(state, 0)["must_pass"]
    with pytest.raises(IllegalAction):
        GAME.apply(GAME.initial_state(seed=0), PASS)  # passing is not allowed while a move exists


def test_beetle_climbs_and_the_piece_under_it_cannot_move():
    # wQ (0,0), wB1 (0,1) and bQ (1,0) touch each other; bA1 (2,0) hangs on bQ.
    before = state_of({"wQ": (0, 0, 0), "wB1": (0, 1, 0), "bQ": (1, 0, 0), "bA1": (2, 0, 0)}, ply=6)
    climb = GAME.parse_action(before, "wB1 bQ")
    assert climb == (PIECE_NAMES.index("wB1"), 1, 0)
    state = GAME.apply(before, climb)
    assert state.pieces[PIECE_NAMES.index("wB1")] == (1, 0, 1)
    assert not any(PIECE_NAMES[a[0]] == "bQ" for a in GAME.legal_actions(state))  # buried under the beetle
    # The stack is white now: black may not place next to it.
    placements = {(a[1], a[2]) for a in GAME.legal_actions(state) if not state.pieces[a[0]]}
    assert placements
    assert all(max(abs(q - 1), abs(r), abs(q - 1 + r)) > 1 for q, r in placements)
    view = GAME.player_view(state, None)
    stack = next(c for c in view["cells"] if c["name"] == "1,0")
    assert [p["name"] for p in stack["pieces"]] == ["bQ", "wB1"]
    assert stack["under"] == ["bQ"]
    assert stack["height"] == 2
    assert GAME.action_to_text(before, climb) == "wB1 bQ"


def test_one_hive_rule_pins_a_bridge_piece():
    state = play("wA1", "bA1 wA1-", "wQ -wA1", "bQ bA1-")
    assert not any(PIECE_NAMES[a[0]] == "wA1" for a in GAME.legal_actions(state))  # wA1 joins wQ to the black pair
    assert any(PIECE_NAMES[a[0]] == "wQ" for a in GAME.legal_actions(state))


def test_the_game_is_drawn_at_the_turn_limit():
    state = play("wA1", "bA1 wA1-")
    long = HiveState(seed=0, ply=MAX_PLIES, pieces=state.pieces, moves=state.moves)
    outcome = GAME.outcome(long)
    assert (outcome.scores, outcome.reason) == ((0.5, 0.5), f"{MAX_PLIES}-turn limit")
    assert GAME.legal_actions(long) == []


# -- UHP notation ----------------------------------------------------------------------------------


def test_any_neighbour_can_name_a_destination():
    state = play("wA1", "bA1 wA1-", "wQ -wA1")
    # Black's second piece east of bA1 can be named from bA1 only; north-east of bA1 also from nothing else.
    assert GAME.parse_action(state, "bQ bA1-") == GAME.parse_action(state, "  bQ   bA1- ")
    assert GAME.parse_action(state, "bQ bA1/") == (PIECE_NAMES.index("bQ"), 2, -1)
    assert GAME.parse_action(state, "`bQ \\bA1`") == (PIECE_NAMES.index("bQ"), 1, -1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("go north", "Could not read"),
        ("wX1 -wQ", "Could not read"),
        ("bQ", "Say where"),
        ("bQ -wS1", "not on the board"),
        ("bQ -wA1-", "two direction marks"),
    ],
)
def test_unreadable_moves_say_why(text, message):
    state = play("wA1", "bA1 wA1-", "wQ -wA1")
    with pytest.raises(IllegalAction, match=message):
        GAME.parse_action(state, text)


def test_game_strings_round_trip_random_games_and_reject_expansions():
    for seed in range(3):
        state, rng = GAME.initial_state(seed=seed), random.Random(seed)
        for _ in range(60):
            if GAME.current_player(state) is None:
                break
            action = GAME.random_action(state, rng)
            assert GAME.parse_action(state, GAME.action_to_text(state, action)) == action
            state = GAME.apply(state, action)
        assert GAME.from_game_string(GAME.game_string(state), seed=seed) == state
    assert GAME.game_string(GAME.initial_state(seed=0)) == "Base;NotStarted;White[1]"
    with pytest.raises(IllegalAction, match="base game"):
        GAME.from_game_string("Base+MLP;NotStarted;White[1]")
    with pytest.raises(IllegalAction, match=r"Move 3 \(.wQ bA1-.\): .* is not a legal move"):
        GAME.from_game_string("Base;InProgress;White[2];wA1;bA1 wA1-;wQ bA1-")


def test_texts_and_view():
    state = play("wA1", "bB1 wA1-", "wQ -wA1", "bQ bB1-")
    text = GAME.observation_text(state, 0)
    assert "You play White" in text
    assert "wA1 at (0,0), touching bB1 to the east, wQ to the west" in text
    assert "Your hand: wS1, wS2, wB1, wB2, wG1, wG2, wG3, wA2, wA3." in text
    assert "Opponent's queen is at (2,0) with 5 of 6 sides free." in text
    assert f"Legal moves ({len(GAME.legal_actions(state))}): " in text
    assert "Freedom to Move" in GAME.rules_text()
    view = GAME.player_view(state, 1)
    assert {c["name"] for c in view["cells"] if c["top"]} == {"-1,0", "0,0", "1,0", "2,0"}
    assert [p["cell"] for p in view["hands"][0]["pieces"]] == ["hand-wS", "hand-wB", "hand-wG", "hand-wA"]
    assert view["last_move"] == "bQ bB1-"
    move = next(a for a in GAME.legal_actions(state) if PIECE_NAMES[a[0]] == "wQ")
    assert GAME.action_cells(state, move) == ("-1,0", f"{move[1]},{move[2]}")
    place = next(a for a in GAME.legal_actions(state) if PIECE_NAMES[a[0]] == "wG1")
    assert GAME.action_cells(state, place)[0] == "hand-wG"


# -- bots ---------------------------------------------------------------------------------


def test_searching_levels_surround_the_queen_when_they_can():
    # bQ (0,0) has five covered sides; its north-east (1,-1) is free and reachable by wA2 (or wG1's jump).
    pieces = {"bQ": (0, 0, 0), "wA1": (1, 0, 0), "bG1": (0, 1, 0), "wG1": (-1, 1, 0), "wQ": (-1, 0, 0)}
    state = state_of({**pieces, "bG2": (0, -1, 0), "wA2": (2, -1, 0)}, ply=10)
    assert GAME.parse_action(state, "wA2 bQ/") in GAME.legal_actions(state)
    for bot in hive_bots.LADDER[6:]:
        after = GAME.apply(state, bot.choose(GAME, state, random.Random(1)))
        assert GAME.outcome(after).scores == (1.0, 0.0), bot.slug


def test_top_level_beats_random():
    result = play_series(GAME, hive_bots.LADDER[-1], hive_bots.LADDER[0], games_per_seat=2)
    assert result.wins == 4
