"""The move list's hooks: each game's own notation (`action_label`) and its hand/round headings (`round_label`)."""

from __future__ import annotations

import io
import json

import chess.pgn

from games import get_game

PGN = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O f6 6. d4 exd4 7. Nxd4 c5 8. Qh5+ g6"


def labels_of(slug: str, actions: list, **options) -> list[tuple[str, str]]:
    """(label, round heading) of each action, played in order from seed 1."""
    game = get_game(slug)
    state = game.initial_state(seed=1, **options)
    out = []
    for action in actions:
        out.append((game.action_label(state, action), game.round_label(state)))
        state = game.apply(state, action)
    return out


def test_chess_labels_are_san_from_the_position_before_each_move():
    moves = [m.uci() for m in chess.pgn.read_game(io.StringIO(PGN)).mainline_moves()]
    labels = [label for label, _ in labels_of("chess", moves)]
    assert " ".join(labels) == "e4 e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6 O-O f6 d4 exd4 Nxd4 c5 Qh5+ g6"
    assert moves[8] == "e1g1"  # the record keeps UCI; only the list reads as SAN


def test_a_promotion_with_check_reads_as_san():
    game = get_game("chess")
    state = game.initial_state(seed=1, fen="8/4P3/8/8/8/8/k7/4K3 w - - 0 1")
    assert game.action_label(state, "e7e8q") == "e8=Q"
    assert game.action_label(state, "e7e8r") == "e8=R"


def test_games_without_their_own_notation_label_moves_by_their_text():
    assert labels_of("tic-tac-toe", [4, 0]) == [("b2", ""), ("a3", "")]


def test_poker_groups_moves_by_hand():
    game = get_game("leduc-holdem")
    state = game.initial_state(seed=1, hands=2)
    headings = []
    while game.current_player(state) is not None:
        headings.append(game.round_label(state))
        state = game.apply(state, "f" if "f" in game.legal_actions(state) else game.legal_actions(state)[0])
    assert list(dict.fromkeys(headings)) == ["Hand 1 of 2", "Hand 2 of 2"]


def test_werewolf_groups_moves_by_night_and_day():
    game = get_game("werewolf")
    state = game.initial_state(seed=1)
    headings = []
    while game.current_player(state) is not None and len(set(headings)) < 3:
        headings.append(game.round_label(state))
        state = game.apply(state, game.legal_actions(state)[0])
    assert list(dict.fromkeys(headings)) == ["Night 1", "Day 1", "Night 2"]


def test_codenames_groups_a_clue_with_its_guesses():
    game = get_game("codenames")
    state = game.initial_state(seed=1)
    clue = ("clue", game.legal_actions(state)[0][1], 1)
    labels = labels_of("codenames", [clue, game.legal_actions(game.apply(state, clue))[0]])
    starts = "Red" if state.team == 0 else "Blue"
    assert [heading for _, heading in labels] == [f"Turn 1: {starts}", f"Turn 1: {starts}"]


def test_diplomacy_groups_orders_by_phase():
    game = get_game("diplomacy")
    state = game.initial_state(seed=1)
    assert game.round_label(state) == "Spring 1901 movement"


def test_a_plan_reads_as_its_summary_and_cost():
    game = get_game("battle-card")
    state = game.initial_state(seed=1)
    plan = game.example_plans(0, dict(state.options))[0]
    label = game.action_label(state, game.parse_action(state, json.dumps(plan)))
    assert label == "invader: 5 minions, target leftmost, cost 9"
    assert game.round_label(state) == "Round 1, leg 1: Blue attacks"


def test_a_plan_that_breaks_the_rules_says_why_it_forfeits():
    game = get_game("tower-defense")
    state = game.initial_state(seed=1)
    label = game.action_label(state, game.parse_action(state, '{"units": [{"unit": "Dragon", "y": 0, "time": 0}]}'))
    assert label.startswith("attacker plan forfeits the leg: ")
    assert "Dragon" in label


def test_every_plan_game_summarises_its_example_plans():
    for slug in ("tower-defense", "battle-card", "attribute-battle"):
        game = get_game(slug)
        state = game.initial_state(seed=1)
        for plan in game.example_plans(0, dict(state.options)):
            label = game.action_label(state, game.parse_action(state, json.dumps(plan)))
            assert "forfeits" not in label, (slug, label)
            assert "cost" in label, (slug, label)
