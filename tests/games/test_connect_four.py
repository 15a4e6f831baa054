"""Connect Four: perft counts, hand-built wins and draws, notation, bitboard helpers, renderer view and bots."""

from __future__ import annotations

import random

import pytest

from games import IllegalAction
from games.bots.calibration import play_series
from games.bots.connect_four import LADDER, search_move, threat_evaluation
from games.connect_four import ConnectFour, bit, has_four, winning_cells

GAME = ConnectFour()
#: 42 moves that fill the board without four in a row for either side.
DRAWN_GAME = "ebgcbabeecebdgddbaeggbcdcdccgffafegfffaada"


def play(moves: str, seed: int = 0):
    """The state after the given columns (one letter per move), from the initial position."""
    state = GAME.initial_state(seed=seed)
    for letter in moves:
        state = GAME.apply(state, GAME.parse_action(state, letter))
    return state


def perft(state, depth: int) -> int:
    """Leaf positions `depth` plies ahead (finished games stop early)."""
    actions = GAME.legal_actions(state)
    if depth == 1:
        return len(actions)
    return sum(perft(GAME.apply(state, a), depth - 1) for a in actions)


@pytest.mark.parametrize(
    ("depth", "count"), [(1, 7), (2, 49), (3, 343), (4, 2401), (5, 16807), (6, 117649), (7, 823536)]
)
def test_perft_from_the_empty_board(depth, count):
    assert perft(GAME.initial_state(seed=0), depth) == count


@pytest.mark.parametrize(
    ("moves", "line"),
    [
        ("aabbccd", "horizontal"),
        ("abababa", "vertical"),
        ("abbccdcddcd", "diagonal /"),
        ("gffeededded", "diagonal \\"),
    ],
)
def test_four_in_a_row_wins_for_the_mover(moves, line):
    before = play(moves[:-1])
    assert GAME.outcome(before) is None, line
    final = play(moves)
    outcome = GAME.outcome(final)
    assert outcome is not None
    assert outcome.winner == 0
    assert outcome.reason == "four in a row"
    assert GAME.current_player(final) is None
    assert GAME.legal_actions(final) == []


def test_second_player_can_win():
    final = play("gababab" + "a")  # O fills a1..a4 while X scatters
    assert GAME.outcome(final).winner == 1


def test_three_in_a_row_is_not_a_win():
    state = play("aabbc")
    assert GAME.outcome(state) is None
    assert GAME.current_player(state) == 1


def test_full_board_without_four_is_a_draw():
    state = play(DRAWN_GAME)
    assert state.ply == 42
    outcome = GAME.outcome(state)
    assert outcome.winner is None
    assert outcome.scores == (0.5, 0.5)
    assert outcome.reason == "board full"
    assert GAME.legal_actions(state) == []
    with pytest.raises(IllegalAction, match="over"):
        GAME.apply(state, 0)


def test_full_column_is_illegal_with_a_readable_message():
    state = play("aaaaaa")
    assert 0 not in GAME.legal_actions(state)
    assert not GAME.is_legal(state, 0)
    with pytest.raises(IllegalAction, match=r"'a' is not a legal move.*Legal moves: b, c, d, e, f, g"):
        GAME.apply(state, 0)


@pytest.mark.parametrize("action", [7, -1, "d", 3.0, True, None])
def test_apply_rejects_malformed_actions(action):
    with pytest.raises(IllegalAction):
        GAME.apply(GAME.initial_state(seed=0), action)


def test_stones_fall_to_the_lowest_empty_cell():
    state = play("ddc")
    rows = GAME.board_rows(state)
    assert rows[-1] == "..XX..."
    assert rows[-2] == "...O..."
    assert all(row == "......." for row in rows[:-2])


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("a", 0),
        ("D", 3),
        (" g ", 6),
        ("4", 3),
        ("1", 0),
        ("7", 6),
        ("column 3", 2),
        ("Column D", 3),
        ("col c", 2),
        ("col. e", 4),
        ("play d", 3),
        ("drop in column f.", 5),
        ("d1", 3),  # a cell name is fine when it is where the stone lands
    ],
)
def test_parse_tolerant_forms(text, column):
    assert GAME.parse_action(GAME.initial_state(seed=0), text) == column


@pytest.mark.parametrize(
    ("text", "hint"),
    [("h", "a–g"), ("0", "a–g"), ("8", "a–g"), ("", "a–g"), ("resign", "a–g"), ("d3", "lands on row 1")],
)
def test_parse_rejects_with_a_hint(text, hint):
    with pytest.raises(IllegalAction, match=hint):
        GAME.parse_action(GAME.initial_state(seed=0), text)


def test_cell_name_uses_the_landing_row():
    state = play("dd")
    assert GAME.parse_action(state, "d3") == 3
    with pytest.raises(IllegalAction, match="row 3"):
        GAME.parse_action(state, "d1")


def test_notation_and_cells_round_trip():
    state = play("dc")
    for action in GAME.legal_actions(state):
        text = GAME.action_to_text(state, action)
        assert text == "abcdefg"[action]
        assert GAME.parse_action(state, text) == action
        assert GAME.action_cells(state, action) == (text,)


def test_json_round_trip_recomputes_the_winner():
    state = play("aabbccd")
    data = GAME.to_json(state)
    assert data["board"][-1] == "XXXX..."
    restored = GAME.from_json(data)
    assert restored == state
    assert restored.winner == 0


def test_from_json_rejects_an_inconsistent_ply():
    data = GAME.to_json(play("dd"))
    data["ply"] = 3
    with pytest.raises(ValueError, match="ply"):
        GAME.from_json(data)


def test_winning_cells_matches_brute_force():
    rng = random.Random(4)
    checked = 0
    for seed in range(60):
        state = GAME.initial_state(seed=seed)
        for _ in range(rng.randrange(6, 36)):
            if GAME.current_player(state) is None:
                break
            state = GAME.apply(state, GAME.random_action(state, rng))
        if state.winner >= 0:
            continue
        mask = state.stones[0] | state.stones[1]
        for stones in state.stones:
            expected = 0
            for column in range(7):
                for row in range(6):
                    cell = bit(column, row)
                    if not mask & cell and has_four(stones | cell):
                        expected |= cell
            assert winning_cells(stones, mask) == expected
            checked += 1
    assert checked > 50


def test_texts_describe_the_position():
    state = play("dc")
    text = GAME.observation_text(state, 0)
    assert "You play X" in text
    assert "Last move: c" in text
    assert "1 . . O X . . ." in text
    assert "Open columns: a, b, c, d, e, f, g." in text
    rules = GAME.rules_text()
    assert "X (moves first)" in rules
    assert "e.g. d" in rules


def test_player_view_marks_columns_last_stone_and_the_four():
    view = GAME.player_view(play("aaaaaa" + "bcbcbcb"), 0)  # a is full; X wins with b1..b4
    columns = {c["name"]: c for c in view["columns"]}
    assert columns["a"]["free"] == 0
    assert not columns["a"]["playable"]
    assert not columns["c"]["playable"]  # the game is over
    four = [cell["name"] for column in view["columns"] for cell in column["cells"] if cell["four"]]
    assert four == ["b1", "b2", "b3", "b4"]
    last = [cell["name"] for column in view["columns"] for cell in column["cells"] if cell["last"]]
    assert last == ["b4"]
    assert view["to_move"] is None
    assert view["last_move"] == "b"


# -- bots --------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", range(1, len(LADDER)))
def test_every_bot_wins_when_it_can(level):
    state = play("ababab")  # X has a1–a3 and is to move
    assert LADDER[level].choose(GAME, state, random.Random(level)) == 0


@pytest.mark.parametrize("level", range(2, len(LADDER)))
def test_bots_from_lv2_block_an_immediate_loss(level):
    state = play("aabbc")  # X threatens d1 (and nothing else wins for O)
    assert LADDER[level].choose(GAME, state, random.Random(level)) == 3


@pytest.mark.parametrize("level", range(3, len(LADDER)))
def test_bots_from_lv3_do_not_open_a_win_for_the_opponent(level):
    # O has b2 c2 d2: X playing a1 or e1 would let O complete four on row 2.
    state = play("bcdbgcgd")
    assert GAME.current_player(state) == 0
    seeds = range(12) if level == 3 else range(2)
    assert all(LADDER[level].choose(GAME, state, random.Random(seed)) not in (0, 4) for seed in seeds)


def test_search_finds_a_double_threat():
    # X to move with c1, d1 and O stones out of the way: b1 or e1 makes an open three on row 1
    # (_XXX_ with both ends empty), which wins.
    state = play("cgdg")
    choice = search_move(state, 4, threat_evaluation, random.Random(0), 0)
    assert choice in (1, 4)


def test_bots_are_deterministic_given_the_rng():
    state = play("dcde")
    for bot in LADDER:
        assert bot.choose(GAME, state, random.Random(9)) == bot.choose(GAME, state, random.Random(9))


def test_ladder_names_and_levels():
    assert [bot.slug for bot in LADDER] == [f"connect-four-lv{k}" for k in range(len(LADDER))]
    assert all(bot.description for bot in LADDER)


def test_alpha_beta_level_beats_random():
    result = play_series(GAME, LADDER[5], LADDER[0], games_per_seat=4)
    assert result.wins >= 7
