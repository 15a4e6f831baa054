"""Gomoku: fives in every direction, overlines, full-board draws, notation, the five check and the bot ladder."""

from __future__ import annotations

import random

import pytest

from games import IllegalAction
from games.bots.calibration import play_series
from games.bots.gomoku import LADDER, point_value, search_move
from games.gomoku import CENTRE, POINTS, SIZE, Gomoku, point_name

GAME = Gomoku()
FAR_AWAY = ["a1", "a3", "a5", "a7", "a9", "a11"]  # White's replies that never line up


def index(name: str) -> int:
    return GAME.parse_action(GAME.initial_state(seed=0), name)


def play(*names: str, seed: int = 0):
    state = GAME.initial_state(seed=seed)
    for name in names:
        state = GAME.apply(state, GAME.parse_action(state, name))
    return state


def position(black: list[str], white: list[str]):
    """A state with these stones (Black to move when the counts are equal)."""
    rows = [["."] * SIZE for _ in range(SIZE)]
    for mark, names in (("X", black), ("O", white)):
        for name in names:
            row, column = divmod(index(name), SIZE)
            rows[row][column] = mark
    data = {"seed": 0, "ply": len(black) + len(white), "board": ["".join(r) for r in rows], "last": -1}
    return GAME.from_json(data)


def black_line_with_white_far(line: list[str]) -> list[str]:
    """Moves where Black plays `line` in order and White answers far away."""
    moves = []
    for k, name in enumerate(line):
        moves.append(name)
        if k < len(line) - 1:
            moves.append(FAR_AWAY[k])
    return moves


@pytest.mark.parametrize(
    ("line", "direction"),
    [
        (["h8", "i8", "j8", "k8", "l8"], "horizontal"),
        (["c3", "c4", "c5", "c6", "c7"], "vertical"),
        (["d4", "e5", "f6", "g7", "h8"], "diagonal /"),
        (["d8", "e7", "f6", "g5", "h4"], "diagonal \\"),
        (["o15", "n15", "m15", "l15", "k15"], "along the edge"),
    ],
)
def test_five_in_a_row_wins(line, direction):
    moves = black_line_with_white_far(line)
    assert GAME.outcome(play(*moves[:-1])) is None, direction
    final = play(*moves)
    outcome = GAME.outcome(final)
    assert outcome.winner == 0
    assert outcome.reason == "five in a row"
    assert GAME.current_player(final) is None
    assert GAME.legal_actions(final) == []


def test_overline_of_six_also_wins():
    # Black fills h8 i8 j8 _ l8 m8, then k8 joins them into six.
    moves = black_line_with_white_far(["h8", "i8", "j8", "l8", "m8", "k8"])
    assert GAME.outcome(play(*moves[:-1])) is None
    final = play(*moves)
    assert GAME.outcome(final).winner == 0
    five = [p["name"] for p in GAME.player_view(final, None)["points"] if p["five"]]
    assert sorted(five) == sorted(["h8", "i8", "j8", "k8", "l8", "m8"])


def test_four_is_not_a_win():
    state = play(*black_line_with_white_far(["h8", "i8", "j8", "k8"]))
    assert GAME.outcome(state) is None
    assert GAME.current_player(state) == 1


def test_broken_five_is_not_a_win():
    state = play(*black_line_with_white_far(["h8", "i8", "j8", "l8", "m8"]))
    assert GAME.outcome(state) is None


def test_white_can_win():
    moves = ["a1", "h8", "a3", "h9", "a5", "h10", "a7", "h11", "a9", "h12"]
    assert GAME.outcome(play(*moves)).winner == 1


def test_full_board_without_five_is_a_draw():
    # Pairs of columns alternate colour and every row shifts by one: no line of five anywhere.
    colour = [((c // 2) + r) % 2 for r in range(SIZE) for c in range(SIZE)]
    black = [p for p in range(POINTS) if colour[p] == 0]
    white = [p for p in range(POINTS) if colour[p] == 1]
    assert (len(black), len(white)) == (113, 112)
    state = GAME.initial_state(seed=0)
    for k in range(POINTS):
        state = GAME.apply(state, black[k // 2] if k % 2 == 0 else white[k // 2])
    outcome = GAME.outcome(state)
    assert outcome.winner is None
    assert outcome.scores == (0.5, 0.5)
    assert outcome.reason == "board full"
    assert GAME.legal_actions(state) == []
    assert GAME.from_json(GAME.to_json(state)) == state


def test_occupied_point_is_illegal_with_a_readable_message():
    state = play("h8")
    with pytest.raises(IllegalAction, match="'h8' is not a legal move"):
        GAME.apply(state, CENTRE)


@pytest.mark.parametrize("action", [225, -1, "h8", 7.0, True, None])
def test_apply_rejects_malformed_actions(action):
    with pytest.raises(IllegalAction):
        GAME.apply(GAME.initial_state(seed=0), action)


@pytest.mark.parametrize(
    ("text", "point"),
    [
        ("h8", 112),
        ("H8", 112),
        ("h 8", 112),
        ("h-8", 112),
        ("8h", 112),
        ("8 H", 112),
        ("(7,7)", 112),
        ("7, 7", 112),
        ("a15", 0),
        ("o1", 224),
        ("a1", 210),
        ("i5", 10 * 15 + 8),  # the letter i is a column, unlike in Go
        ("(0,14)", 14),
        ("h8.", 112),
    ],
)
def test_parse_tolerant_forms(text, point):
    assert GAME.parse_action(GAME.initial_state(seed=0), text) == point


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("p1", "no column"),
        ("h16", "no row"),
        ("h0", "no row"),
        ("(15,0)", "off the board"),
        ("pass", "Could not read"),
        ("", "Could not read"),
        ("h8 i9", "Could not read"),
    ],
)
def test_parse_rejects_with_a_hint(text, hint):
    with pytest.raises(IllegalAction, match=hint):
        GAME.parse_action(GAME.initial_state(seed=0), text)


def test_notation_round_trips_for_every_point():
    state = GAME.initial_state(seed=0)
    names = [GAME.action_to_text(state, p) for p in range(POINTS)]
    assert len(set(names)) == POINTS
    assert names[CENTRE] == "h8"
    for p, name in enumerate(names):
        assert GAME.parse_action(state, name) == p
        assert GAME.action_cells(state, p) == (name,)
        assert point_name(p) == name


def test_incremental_five_check_matches_a_full_scan():
    def any_five(board, colour):
        for r in range(SIZE):
            for c in range(SIZE):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(r + k * dr, c + k * dc) for k in range(5)]
                    if all(0 <= y < SIZE and 0 <= x < SIZE and board[y * SIZE + x] == colour for y, x in cells):
                        return True
        return False

    rng = random.Random(2)
    for seed in range(12):
        state = GAME.initial_state(seed=seed)
        while GAME.current_player(state) is not None:
            state = GAME.apply(state, LADDER[1].choose(GAME, state, rng))  # dense play makes fives sooner
        for colour in (0, 1):
            assert any_five(state.board, colour) == (state.winner == colour)


def test_texts_and_view():
    state = play("h8", "i9")
    text = GAME.observation_text(state, 0)
    assert "You play Black (X)" in text
    assert "Last move: i9." in text
    assert " 8 . . . . . . . X . . . . . . ." in text
    assert "h8" in GAME.rules_text()
    assert "five or more" in GAME.rules_text()
    view = GAME.player_view(state, 0)
    points = {p["name"]: p for p in view["points"]}
    assert points["h8"]["mark"] == "X"
    assert not points["h8"]["playable"]
    assert points["i9"]["last"]
    assert points["a1"]["playable"]
    assert view["to_move"] == "Black"


def test_from_json_rejects_an_inconsistent_ply():
    data = GAME.to_json(play("h8"))
    data["ply"] = 2
    with pytest.raises(ValueError, match="ply"):
        GAME.from_json(data)


# -- bots --------------------------------------------------------------------------------------

SEARCH_LEVELS = [k for k, bot in enumerate(LADDER) if "alpha-beta" in bot.description]
HEURISTIC_LEVELS = [k for k, bot in enumerate(LADDER) if bot.description.startswith("threat heuristic:")]


@pytest.mark.parametrize("level", HEURISTIC_LEVELS + SEARCH_LEVELS)
def test_win_beats_blocking(level):
    # Both sides have four; Black to move must complete its own five rather than block a3 or f3.
    state = position(["h5", "h6", "h7", "h8", "a1"], ["b3", "c3", "d3", "e3", "o15"])
    choice = LADDER[level].choose(GAME, state, random.Random(level))
    assert choice in (index("h4"), index("h9"))


@pytest.mark.parametrize("level", HEURISTIC_LEVELS + SEARCH_LEVELS)
def test_blocks_a_four_before_making_its_own(level):
    # White to move: Black's h6–h9 is closed at h5, so h10 must be blocked; White's own b3–d3 can wait.
    state = position(["h6", "h7", "h8", "h9", "a1"], ["h5", "b3", "c3", "d3"])
    assert GAME.current_player(state) == 1
    assert LADDER[level].choose(GAME, state, random.Random(level)) == index("h10")


def test_heuristic_priorities():
    # Black to move. White has an open three (f10 g10 h10); Black can make a four on column c
    # (closed at c3) or an open three on row 2 (j2 k2 + l2).
    state = position(["c4", "c5", "c6", "j2", "k2"], ["c3", "f10", "g10", "h10", "a15"])
    assert GAME.current_player(state) == 0
    make_four = point_value(state.board, index("c7"), 0)
    block_open_three = point_value(state.board, index("e10"), 0)
    make_open_three = point_value(state.board, index("l2"), 0)
    nothing_much = point_value(state.board, index("m13"), 0)
    assert make_four > block_open_three > make_open_three > nothing_much


def test_search_makes_an_open_four():
    # Black's open three on row 8 becomes an open four (g8 or k8) — a forced win.
    state = position(["h8", "i8", "j8", "a15"], ["a1", "b1", "o15", "o1"])
    assert search_move(state, 3, 10, random.Random(0), 0) in (index("g8"), index("k8"))


def test_every_bot_plays_legal_moves_and_is_deterministic():
    state = play("h8", "i9", "h9")
    for bot in LADDER:
        move = bot.choose(GAME, state, random.Random(3))
        assert GAME.is_legal(state, move)
        assert move == bot.choose(GAME, state, random.Random(3))
    assert [bot.slug for bot in LADDER] == [f"gomoku-lv{k}" for k in range(len(LADDER))]


def test_search_level_beats_random():
    result = play_series(GAME, LADDER[SEARCH_LEVELS[0]], LADDER[0], games_per_seat=4)
    assert result.wins >= 7


def test_threat_heuristic_beats_random_near_stones():
    result = play_series(GAME, LADDER[HEURISTIC_LEVELS[0]], LADDER[1], games_per_seat=4)
    assert result.wins >= 7
