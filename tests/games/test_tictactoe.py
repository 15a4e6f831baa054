"""Tic-tac-toe: known values and notation."""

from __future__ import annotations

import random

import pytest

from games import IllegalAction, get_game
from games.bots import ladder
from games.bots.calibration import play_series
from games.tictactoe import line_owner

GAME = get_game("tic-tac-toe")


def count_games(state) -> int:
    if GAME.current_player(state) is None:
        return 1
    return sum(count_games(GAME.apply(state, move)) for move in GAME.legal_actions(state))


def test_there_are_255168_complete_games():
    assert count_games(GAME.initial_state(seed=0)) == 255_168


def test_the_winner_kept_in_a_state_is_the_one_its_board_shows():
    # `apply` finds the winner from the lines through the move; a stored state finds it from the board.
    seen, todo = set(), [GAME.initial_state(seed=0)]
    while todo:
        state = todo.pop()
        if state.board in seen:
            continue
        seen.add(state.board)
        assert state.winner == line_owner(state.board)
        assert GAME.from_json(GAME.to_json(state)) == state
        todo += [GAME.apply(state, move) for move in GAME.legal_actions(state)]
    assert len(seen) == 5_478  # every reachable position


def test_a_stored_state_whose_ply_disagrees_with_its_board_is_refused():
    data = GAME.to_json(GAME.apply(GAME.initial_state(seed=0), 4))
    assert GAME.from_json(data).ply == 1
    with pytest.raises(ValueError, match="ply 2 does not match the 1 marks"):
        GAME.from_json({**data, "ply": 2})


def test_outcomes_and_reasons():
    state = GAME.initial_state(seed=0)
    for cell in (0, 3, 1, 4, 2):  # X takes the top row
        state = GAME.apply(state, cell)
    assert GAME.outcome(state).scores == (1.0, 0.0)
    state = GAME.initial_state(seed=0)
    for cell in (0, 1, 2, 4, 3, 5, 7, 6, 8):  # a full board with no line
        state = GAME.apply(state, cell)
    assert GAME.outcome(state).reason == "board full"
    assert GAME.outcome(state).winner is None


@pytest.mark.parametrize(("text", "cell"), [("b2", 4), ("B2", 4), ("2b", 4), (" a3 ", 0), ("(0, 0)", 0), ("c1", 8)])
def test_tolerant_notation(text, cell):
    assert GAME.parse_action(GAME.initial_state(seed=0), text) == cell


def test_occupied_cell_is_refused_with_the_legal_moves():
    state = GAME.apply(GAME.initial_state(seed=0), 4)
    with pytest.raises(IllegalAction, match="Legal moves: a3, b3"):
        GAME.apply(state, 4)


def test_perfect_play_never_loses_to_any_level():
    bots = ladder("tic-tac-toe")
    for lower in bots[:-1]:
        result = play_series(GAME, bots[-1], lower, games_per_seat=10, first_seed=random.Random(1).randrange(100))
        assert result.losses == 0
