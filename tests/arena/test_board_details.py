"""Small board details a newcomer missed, through the pages' own renderers: tic-tac-toe's winning line, Skirmish's
"End turn" only while the game runs, and Codenames' Pass button in every guessing phase."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import async_to_sync

from arena.pages.rendering import board_html
from arena.record.services import match_create
from arena.runner.loop import run_match
from games import get_game
from games.tictactoe import LINES

pytestmark = pytest.mark.django_db


def test_the_tic_tac_toe_winning_line_is_marked_in_the_replay(client, ttt_bots):
    match = match_create(game="tic-tac-toe", agents=[ttt_bots["tic-tac-toe-lv3"], ttt_bots["tic-tac-toe-lv0"]], seed=4)
    match = async_to_sync(run_match)(match.pk)
    assert match.scores == [1.0, 0.0]  # the perfect player beats the random one on this seed
    html = client.get(f"/matches/{match.pk}/replay/?ply={match.ply}").content.decode()
    won = re.findall(r'class="ttt-cell ttt-x ttt-won" data-cell="(\w\d)"', html)
    game = get_game("tic-tac-toe")
    state = game.from_json(match.state)
    line = next(line for line in LINES if {state.board[c] for c in line} == {0})
    assert sorted(won) == sorted(game.action_to_text(state, c) for c in line)
    before = client.get(f"/matches/{match.pk}/replay/?ply={match.ply - 1}").content.decode()
    assert "ttt-won" not in before  # one move earlier nobody has won


def test_skirmish_offers_end_turn_to_a_seat_only_while_the_game_runs():
    game = get_game("skirmish")
    state = game.initial_state(seed=1)
    assert "End turn" in board_html(game, state, 0)
    assert "End turn" not in board_html(game, state, None)  # spectators have no turn to end
    while game.current_player(state) is not None:
        state = game.apply(state, game.legal_actions(state)[-1])
    assert "End turn" not in board_html(game, state, 0)


def test_codenames_shows_pass_in_every_guessing_phase_enabled_after_a_guess():
    game = get_game("codenames")
    state = game.initial_state(seed=1)
    assert 'data-cell="pass"' not in board_html(game, state, 0)  # the spymaster's clue comes first
    state = game.apply(state, ("clue", game.legal_actions(state)[0][1], 2))
    guesser = 1 if state.team == 0 else 3
    before = board_html(game, state, guesser)
    assert re.search(r'data-cell="pass" disabled[^>]*>Pass</button> <span[^>]*>Guess at least one word', before)
    own = next(i for i, kind in enumerate(state.key) if kind == "RB"[state.team])
    state = game.apply(state, ("guess", own))  # a right guess: the guesser may go on or pass
    assert game.current_player(state) == guesser
    assert re.search(r'data-cell="pass">Pass</button>', board_html(game, state, guesser))
