"""Reversi: perft counts, OpenSpiel agreement, notation, passes and the end of the game, bots."""

from __future__ import annotations

import random

import pytest

from games import IllegalAction, get_game
from games.bots import ladder
from games.bots.calibration import play_series
from games.reversi import PASS, Reversi, ReversiState, cell_name, counts, flips_of, moves_of

game: Reversi = get_game("reversi")  # type: ignore[assignment]


def position(rows: list[str], ply: int, last: int = -1) -> ReversiState:
    """A hand-built position: eight rows, row 1 first, 'X' Black, 'O' White; Black moves at even plies."""
    return game.from_json({"seed": 0, "ply": ply, "board": rows, "last": last})


def play(state: ReversiState, moves: str) -> ReversiState:
    for text in moves.split():
        state = game.apply(state, game.parse_action(state, text))
    return state


def perft(state: ReversiState, depth: int) -> int:
    """Leaf count of the move tree to `depth` plies; a pass is a ply, a finished game is one leaf."""
    if depth == 0 or game.current_player(state) is None:
        return 1
    if depth == 1:
        return len(game.legal_actions(state))
    return sum(perft(game.apply(state, action), depth - 1) for action in game.legal_actions(state))


# The standard Othello perft sequence (OEIS A124004). No pass can occur before ply 9; at ply 9 the
# first games end (a wipe-out, see below) and count as leaves, as in the published 3,005,288.
PERFT = [(1, 4), (2, 12), (3, 56), (4, 244), (5, 1396), (6, 8200), (7, 55092), (8, 390216)]


@pytest.mark.parametrize(("depth", "count"), PERFT)
def test_perft_from_the_start(depth, count):
    assert perft(game.initial_state(seed=0), depth) == count


@pytest.mark.slow
def test_perft_depth_9_includes_the_first_finished_games():
    assert perft(game.initial_state(seed=0), 9) == 3005288


def test_start_position_and_opening_moves():
    state = game.initial_state(seed=4)
    assert game.rows(state)[3:5] == ["...OX...", "...XO..."]  # d4 and e5 White, d5 and e4 Black
    assert game.current_player(state) == 0
    assert [game.action_to_text(state, a) for a in game.legal_actions(state)] == ["d3", "c4", "f5", "e6"]
    after = play(state, "d3")
    assert game.rows(after)[2:5] == ["...X....", "...XX...", "...XO..."]
    assert counts(after) == (4, 1)
    assert game.current_player(after) == 1
    assert [game.action_to_text(after, a) for a in game.legal_actions(after)] == ["c3", "e3", "c5"]


def test_a_move_flips_in_every_bracketing_direction_and_only_those():
    state = position(
        [
            "X..X..X.",
            ".O.O.O..",
            "..OOO...",
            "XOO.OOOX",
            "..OOO...",
            ".O.O.O..",
            "X..O..X.",
            "...X...O",
        ],
        ply=0,
    )
    after = game.apply(state, game.parse_action(state, "d4"))
    assert game.rows(after) == [
        "X..X..X.",
        ".X.X.X..",
        "..XXX...",
        "XXXXXXXX",
        "..XXX...",
        ".X.X.X..",
        "X..X..X.",
        "...X...O",  # h8 is on the d4 diagonal but beyond Black's g7: not bracketed
    ]
    # A line of opponent discs that runs into an empty cell or the edge is not bracketed.
    state = position(["XOO.OO..", *["." * 8] * 7], ply=0)
    after = game.apply(state, 3)
    assert game.rows(after)[0] == "XXXXOO.."


def test_shortest_game_ends_with_a_wipe_out():
    """A nine-move game (found by search, confirmed with OpenSpiel) after which White has no discs."""
    state = play(game.initial_state(seed=0), "d3 c3 b3 d2 e1 d6 d7 e3 f4")
    assert counts(state) == (13, 0)
    assert game.current_player(state) is None
    assert game.legal_actions(state) == []
    outcome = game.outcome(state)
    assert outcome.scores == (1.0, 0.0)
    assert outcome.reason == "neither player can move; 13–0"


def test_forced_pass_is_the_only_action_and_passes_the_turn():
    # White (to move at odd plies) cannot bracket anything; Black can still play d1.
    state = position(["XXO.....", *["." * 8] * 7], ply=5)
    assert game.current_player(state) == 1
    assert game.legal_actions(state) == [PASS]
    assert game.action_to_text(state, PASS) == "pass"
    assert game.action_cells(state, PASS) == ("pass",)
    assert "must pass" in game.observation_text(state, 1)
    with pytest.raises(IllegalAction, match="Legal moves: pass"):
        game.apply(state, game.parse_action(state, "d1"))
    passed = game.apply(state, PASS)
    assert game.rows(passed) == game.rows(state)
    assert passed.ply == 6
    assert passed.last == PASS
    assert game.current_player(passed) == 0
    assert game.legal_actions(passed) == [3]
    final = game.apply(passed, 3)
    assert game.rows(final)[0] == "XXXX...."
    assert game.outcome(final).scores == (1.0, 0.0)


def test_pass_is_illegal_while_a_move_exists():
    state = game.initial_state(seed=0)
    with pytest.raises(IllegalAction, match="'pass' is not a legal move"):
        game.apply(state, game.parse_action(state, "pass"))


def test_game_over_with_empty_cells_when_neither_side_can_move():
    state = position(["X.......", *["." * 8] * 6, ".......O"], ply=2)
    assert game.current_player(state) is None
    outcome = game.outcome(state)
    assert outcome.scores == (0.5, 0.5)
    assert outcome.reason == "neither player can move; 1–1"


@pytest.mark.parametrize(
    ("rows", "scores", "reason"),
    [
        (["XXXXXXXX"] * 4 + ["OOOOOOOO"] * 4, (0.5, 0.5), "board full; 32–32"),
        (["XXXXXXXX"] * 3 + ["OOOOOOOO"] * 5, (0.0, 1.0), "board full; 40–24"),
    ],
)
def test_full_board_is_scored_by_disc_count(rows, scores, reason):
    state = position(rows, ply=60)
    assert game.legal_actions(state) == []
    assert game.outcome(state).scores == scores
    assert game.outcome(state).reason == reason
    with pytest.raises(IllegalAction, match="over"):
        game.apply(state, PASS)


def test_never_two_passes_in_a_row():
    for seed in range(40):
        rng = random.Random(seed)
        state = game.initial_state(seed=seed)
        while game.current_player(state) is not None:
            action = rng.choice(game.legal_actions(state))
            state = game.apply(state, action)
            if action == PASS:
                assert game.legal_actions(state) not in ([], [PASS])


def test_agrees_with_openspiel_othello_move_by_move():
    pyspiel = pytest.importorskip("pyspiel")
    theirs_game = pyspiel.load_game("othello")
    passes = 0
    for seed in range(40):
        rng = random.Random(seed)
        ours, theirs = game.initial_state(seed=seed), theirs_game.new_initial_state()
        while not theirs.is_terminal():
            actions = game.legal_actions(ours)
            assert actions == theirs.legal_actions()  # same numbering: row * 8 + column, 64 = pass
            assert game.current_player(ours) == theirs.current_player()
            action = rng.choice(actions)
            passes += action == PASS
            ours = game.apply(ours, action)
            theirs.apply_action(action)
        assert game.current_player(ours) is None
        black, white = theirs.returns()
        assert (
            game.outcome(ours).scores == (0.5, 0.5) if black == white else (float(black > white), float(white > black))
        )
    assert passes > 0  # the sample exercised forced passes


def test_bitboard_helpers_agree_with_a_plain_scan():
    """moves_of/flips_of against a direct walk over the 8 directions, on random boards."""
    rng = random.Random(7)
    steps = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
    for _ in range(200):
        cells = [rng.choice("XO..") for _ in range(64)]
        me = sum(1 << i for i, c in enumerate(cells) if c == "X")
        opp = sum(1 << i for i, c in enumerate(cells) if c == "O")
        state = position(["".join(cells[r * 8 : r * 8 + 8]) for r in range(8)], ply=0)
        expected_moves = 0
        for index in range(64):
            if cells[index] != ".":
                continue
            flipped = 0
            for dr, dc in steps:
                r, c, run = index // 8 + dr, index % 8 + dc, 0
                while 0 <= r < 8 and 0 <= c < 8 and cells[r * 8 + c] == "O":
                    run |= 1 << (r * 8 + c)
                    r, c = r + dr, c + dc
                if run and 0 <= r < 8 and 0 <= c < 8 and cells[r * 8 + c] == "X":
                    flipped |= run
            if flipped:
                expected_moves |= 1 << index
                assert flips_of(index, state.black, state.white) & (1 << 64) - 1 == flipped
        assert moves_of(state.black, state.white) == expected_moves
        assert (state.black & (1 << 64) - 1, state.white & (1 << 64) - 1) == (me, opp)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("d3", 19),
        ("D3", 19),
        ("d 3", 19),
        ("3d", 19),
        (" 3 D ", 19),
        ("d-3", 19),
        ("'d3'.", 19),
        ("a1", 0),
        ("h8", 63),
        ("pass", PASS),
        ("PASS", PASS),
        (" Pass. ", PASS),
    ],
)
def test_parse_tolerant_forms(text, expected):
    assert game.parse_action(game.initial_state(seed=0), text) == expected


@pytest.mark.parametrize("text", ["", "i1", "a9", "a0", "d33", "play d3", "64", "resign"])
def test_parse_rejects_non_moves_with_a_hint(text):
    with pytest.raises(IllegalAction, match="column a–h and a row 1–8"):
        game.parse_action(game.initial_state(seed=0), text)


def test_notation_round_trip_and_cells():
    state = game.initial_state(seed=0)
    for index in range(64):
        assert game.parse_action(state, cell_name(index)) == index
        assert game.action_cells(state, index) == (cell_name(index),)
    assert cell_name(0) == "a1"
    assert cell_name(7) == "h1"
    assert cell_name(56) == "a8"


def test_apply_rejects_malformed_actions():
    state = game.initial_state(seed=0)
    for bad in (-1, 65, 19.0, "d3", None, True):
        with pytest.raises(IllegalAction):
            game.apply(state, bad)
        assert not game.is_legal(state, bad)


def test_player_view_has_what_the_board_needs():
    state = play(game.initial_state(seed=0), "d3")
    view = game.player_view(state, 1)
    assert len(view["cells"]) == 64
    by_name = {cell["name"]: cell for cell in view["cells"]}
    assert by_name["d3"]["piece"] == "black"
    assert by_name["d3"]["last"]
    assert by_name["e5"]["piece"] == "white"
    assert {name for name, cell in by_name.items() if cell["legal"]} == {"c3", "e3", "c5"}
    assert view["to_move"] == 1
    assert view["counts"] == [4, 1]
    assert view["last_cells"] == ["d3"]
    assert not view["must_pass"]


def test_observation_text_shows_board_counts_and_moves():
    state = play(game.initial_state(seed=0), "d3")
    text = game.observation_text(state, 1)
    assert "You play White (O)" in text
    assert "Discs: Black 4, White 1." in text
    assert "Black's last move: d3." in text
    assert "3 . . . X . . . ." in text
    assert "Legal moves: c3, e3, c5." in text
    assert "Legal moves" not in game.observation_text(state, 0)


def test_search_bot_beats_random():
    bots = ladder("reversi")
    result = play_series(game, bots[3], bots[0], games_per_seat=3)
    assert result.wins >= 5
    assert result.wins > 2 * result.losses


def test_greedy_bot_beats_random():
    bots = ladder("reversi")
    result = play_series(game, bots[1], bots[0], games_per_seat=6)
    assert result.wins > result.losses + 2
