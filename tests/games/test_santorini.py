"""Santorini rules: setup, turn counts from hand-built positions, wins, losses, notation and the ladder."""

from __future__ import annotations

import random

import pytest

from games import IllegalAction
from games.bots import santorini as santorini_bots
from games.bots.calibration import play_series
from games.santorini import DOME, NO_BUILD, Santorini, SantoriniState, cell_index

GAME = Santorini()


def position(x: tuple[str, str], o: tuple[str, str], heights: dict[str, int] | None = None, to_move: int = 0):
    """A play-phase state (ply 4 + to_move) with X's and O's workers on the named cells."""
    board = [0] * 25
    for name, height in (heights or {}).items():
        board[cell_index(name)] = height
    workers = tuple(cell_index(c) for c in (*x, *o))
    return SantoriniState(seed=0, ply=4 + to_move, heights=tuple(board), workers=workers)


def turn(text_cells: str) -> tuple[int, ...]:
    """'c3 d4 e5' -> the action tuple; 'c3 d4' -> a winning climb."""
    cells = tuple(cell_index(c) for c in text_cells.split())
    return cells if len(cells) == 3 else (*cells, NO_BUILD)


def texts(state) -> list[str]:
    return sorted(GAME.action_to_text(state, a) for a in GAME.legal_actions(state))


# -- setup --------------------------------------------------------------------------------


def test_first_player_places_two_workers_then_the_second_player_two():
    state = GAME.initial_state(seed=0)
    seats = []
    for cell in ("c3", "d3", "b2", "c2"):
        seats.append(GAME.current_player(state))
        assert GAME.outcome(state) is None
        state = GAME.apply(state, GAME.parse_action(state, f"place {cell}"))
    assert seats == [0, 0, 1, 1]
    assert GAME.current_player(state) == 0
    assert state.workers == tuple(cell_index(c) for c in ("c3", "d3", "b2", "c2"))
    assert len(GAME.legal_actions(GAME.initial_state(seed=0))) == 25


def test_cannot_place_on_a_taken_cell():
    state = GAME.apply(GAME.initial_state(seed=0), (12,))
    assert not GAME.is_legal(state, (12,))
    with pytest.raises(IllegalAction, match="not a legal move"):
        GAME.apply(state, GAME.parse_action(state, "place c3"))


def test_random_setup_option_places_all_workers_from_the_seed():
    state = GAME.initial_state(seed=5, setup="random")
    assert len(set(state.workers)) == 4
    assert min(state.workers) >= 0
    assert GAME.current_player(state) == 0
    assert not GAME.placing(state)
    assert GAME.initial_state(seed=5, setup="random") == state
    assert {GAME.initial_state(seed=s, setup="random").workers for s in range(6)} != {state.workers}
    with pytest.raises(ValueError):
        GAME.initial_state(seed=0, setup="mirror")


# -- turns --------------------------------------------------------------------------------


def test_count_of_legal_turns_in_a_hand_built_position():
    # X on a1 is hemmed in by O on a2 and b2: it can only go to b1, then build on a1, c1 or c2.
    # X on e5 has domes on d5 and d4: it can only go to e4, then build on e5, d3 or e3 (a dome on level 3).
    state = position(("a1", "e5"), ("a2", "b2"), {"d5": DOME, "d4": DOME, "c1": 2, "e3": 3})
    assert texts(state) == sorted(["a1-b1^a1", "a1-b1^c1", "a1-b1^c2", "e5-e4^e5", "e5-e4^d3", "e5-e4^e3"])


def test_cannot_climb_two_levels_but_can_climb_one_and_drop_any():
    # b1 at level 2 is out of reach from level 0, so only the e5 worker's three turns remain.
    state = position(("a1", "e5"), ("a2", "b2"), {"d5": DOME, "d4": DOME, "b1": 2})
    assert all(t.startswith("e5") for t in texts(state))
    assert len(texts(state)) == 3
    assert not GAME.is_legal(state, turn("a1 b1 c1"))
    with pytest.raises(IllegalAction):
        GAME.apply(state, turn("a1 b1 c1"))
    # From level 1 the same step up is fine.
    state = position(("a1", "e5"), ("a2", "b2"), {"d5": DOME, "d4": DOME, "b1": 2, "a1": 1})
    assert len(texts(state)) == 6
    # Dropping any number of levels is allowed: from level 2 straight down to 0.
    state = position(("c3", "e5"), ("a1", "a2"), {"c3": 2})
    assert GAME.is_legal(state, turn("c3 d3 d4"))


def test_cannot_build_on_an_occupied_cell_but_can_build_where_the_worker_was():
    state = position(("c3", "e1"), ("c5", "a1"), {})
    assert GAME.is_legal(state, turn("c3 c4 c3"))  # the cell just left
    assert not GAME.is_legal(state, turn("c3 c4 c5"))  # O's worker
    assert GAME.is_legal(state, turn("e1 d2 e1"))
    state2 = position(("c3", "d5"), ("a1", "a2"), {})
    assert not GAME.is_legal(state2, turn("c3 c4 d5"))  # X's other worker
    with pytest.raises(IllegalAction):
        GAME.apply(state2, turn("c3 c4 d5"))


def test_building_on_level_three_makes_a_dome_nobody_can_enter_or_build_on():
    state = position(("c3", "e1"), ("a5", "a4"), {"d4": 3, "c4": 2, "c3": 1})
    state = GAME.apply(state, turn("c3 c4 d4"))  # X climbs to 2 and domes d4
    assert state.heights[cell_index("d4")] == DOME
    o_turn = GAME.apply(state, turn("a4 b4 b3"))
    # X on c4 (level 2) cannot climb onto the dome, nor build on it.
    assert not GAME.is_legal(o_turn, turn("c4 d4"))
    assert not any(a[1] == cell_index("d4") or a[2] == cell_index("d4") for a in GAME.legal_actions(o_turn))


def test_climbing_onto_level_three_wins_without_a_build():
    state = position(("c3", "e1"), ("a5", "a4"), {"c3": 2, "d4": 3})
    assert "c3-d4" in texts(state)
    assert not any(GAME.action_to_text(state, a).startswith("c3-d4^") for a in GAME.legal_actions(state))
    assert GAME.parse_action(state, "c3-d4") == turn("c3 d4")
    assert GAME.parse_action(state, "c3-d4^e5") == turn("c3 d4")  # a build after a winning climb is moot
    final = GAME.apply(state, turn("c3 d4"))
    assert GAME.current_player(final) is None
    outcome = GAME.outcome(final)
    assert (outcome.reason, outcome.scores) == ("climbed to level 3", (1.0, 0.0))
    assert GAME.legal_actions(final) == []


def test_a_player_who_cannot_move_loses():
    # X's a1 worker faces a dome, a level-2 cell and O; its e5 worker is walled in by domes.
    walls = {"a2": DOME, "b1": 2, "d5": DOME, "d4": DOME, "e4": DOME}
    state = position(("a1", "e5"), ("b2", "c3"), walls)
    assert GAME.current_player(state) is None
    outcome = GAME.outcome(state)
    assert (outcome.reason, outcome.scores) == ("opponent cannot move", (0.0, 1.0))
    with pytest.raises(IllegalAction, match="over"):
        GAME.apply(state, turn("a1 b1 a1"))
    # With O to move instead, O can move, so the game goes on.
    assert GAME.current_player(position(("a1", "e5"), ("b2", "c3"), walls, to_move=1)) == 1


# -- notation -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["c3-d4^e5", "c3 d4 e5", "move c3 to d4 build e5", "C3D4E5", "c3>d4, e5", "  c3 - d4 ^ e5  "]
)
def test_parse_turn_forms(text):
    state = position(("c3", "a1"), ("a5", "b5"), {})
    assert GAME.parse_action(state, text) == turn("c3 d4 e5")


def test_parse_errors_are_readable():
    state = position(("c3", "a1"), ("a5", "b5"), {})
    with pytest.raises(IllegalAction, match="worker cell, move cell and build cell"):
        GAME.parse_action(state, "go north")
    with pytest.raises(IllegalAction, match="empty cell"):
        GAME.parse_action(GAME.initial_state(seed=0), "c3 d4")
    assert GAME.parse_action(GAME.initial_state(seed=0), "C3") == (cell_index("c3"),)


def test_round_trip_and_cells_of_each_kind_of_action():
    state = position(("c3", "e1"), ("a5", "a4"), {"c3": 2, "d4": 3})
    for action in GAME.legal_actions(state):
        assert GAME.parse_action(state, GAME.action_to_text(state, action)) == action
    assert GAME.action_cells(state, turn("c3 d4")) == ("c3", "d4")
    assert GAME.action_cells(state, turn("c3 c4 b4")) == ("c3", "c4", "b4")
    assert GAME.action_cells(GAME.initial_state(seed=0), (12,)) == ("c3",)


def test_texts_and_view():
    state = GAME.apply(position(("c3", "e1"), ("a5", "a4"), {"d4": 3, "c4": 1}), turn("c3 c4 d4"))
    text = GAME.observation_text(state, 1)
    assert "You play O" in text
    assert "Last move: c3-c4^d4" in text
    assert "4 0O 0. 1X D. 0." in text  # row 4: a4 O worker, c4 X on level 1, d4 dome
    view = GAME.player_view(state, None)
    assert len(view["cells"]) == 25
    d4 = next(c for c in view["cells"] if c["name"] == "d4")
    c4 = next(c for c in view["cells"] if c["name"] == "c4")
    assert d4["dome"]
    assert d4["last"]
    assert d4["label"] == "d4, dome"
    assert c4["worker"] == "X"
    assert c4["height"] == 1
    assert len(c4["blocks"]) == 1
    assert view["last_move"] == "c3-c4^d4"


# -- bots ---------------------------------------------------------------------------------


def test_every_level_takes_a_win_in_one():
    state = position(("c3", "e1"), ("a5", "a4"), {"c3": 2, "d4": 3})
    for bot in santorini_bots.LADDER[1:]:
        assert bot.choose(GAME, state, random.Random(1)) == turn("c3 d4"), bot.slug


def test_blocking_levels_dome_the_opponents_winning_cell():
    # O on b4 (level 2) threatens to climb onto a5 (level 3); X's only stop is c5-b5^a5, doming it.
    state = position(("c5", "e1"), ("b4", "e3"), {"b4": 2, "a5": 3})
    for bot in santorini_bots.LADDER[2:]:
        for seed in range(3):
            action = bot.choose(GAME, state, random.Random(seed))
            after = GAME.apply(state, action)
            assert after.heights[cell_index("a5")] == DOME or cell_index("a5") in after.workers, bot.slug


def test_top_level_beats_random():
    result = play_series(GAME, santorini_bots.LADDER[-1], santorini_bots.LADDER[0], games_per_seat=4)
    assert result.wins >= 7
