"""Leduc hold'em: betting limits, showdowns, duplicate deals, hidden cards, and the CFR+ equilibrium."""

from __future__ import annotations

import random
from unittest import mock

import pytest
from django.template.loader import render_to_string

from games import IllegalAction, get_game
from games.bots import ladder
from games.bots.cfr import evaluate_table
from games.bots.leduc_holdem import equilibrium
from games.leduc_holdem import LEDUC, LeducHoldem
from games.limit_poker import LimitPokerState, showdown_winner

GAME: LeducHoldem = get_game("leduc-holdem")  # type: ignore[assignment]


def rigged(cards_by_hand: dict[int, tuple[str, str, str]]):
    """Patch the deal: hand h gets cards_by_hand[h] (seat 0, seat 1, board) whatever the seed."""
    return mock.patch("games.limit_poker.deal", lambda spec, slug, seed, hand: cards_by_hand[hand])


def play(state: LimitPokerState, moves: str) -> LimitPokerState:
    for word in moves.split():
        state = GAME.apply(state, GAME.parse_action(state, word))
    return state


@pytest.mark.parametrize(
    ("cards", "board", "winner"),
    [
        (("Js", "Ks"), "Jh", 0),  # a pair with the board beats a higher card
        (("Ks", "Qs"), "Jh", 0),  # no pair: the higher card
        (("Qs", "Kh"), "Qh", 0),
        (("Kh", "Ks"), "Jh", None),  # same rank: split
        (("Qs", "Qh"), "Ks", None),
    ],
)
def test_showdown(cards, board, winner):
    assert showdown_winner(LEDUC, cards, board) == winner


def test_fixed_bets_two_then_four_and_two_bets_a_round():
    with rigged({0: ("Ks", "Qs", "Jh")}):
        state = play(GAME.initial_state(seed=0, hands=1), "bet raise")
        assert GAME.legal_actions(state) == ["fold", "call"]  # bet + one raise is the cap
        state = play(state, "call")
        assert state.actions == "rrc/"  # round 2 has started
        hand = GAME.player_view(state, 0)["current"]
        assert (hand["pot"], hand["board"], hand["round"]) == (10, "Jh", 2)
        assert GAME.current_player(state) == 0  # the opener opens round 2 too
        state = play(state, "bet raise call")
        # Each put in 1 + 2 + 2 + 4 + 4 = 13; the king beats the queen.
        assert GAME.net(state) == 13
        assert GAME.player_view(state, 1)["last"]["summary"].endswith("Player 1 wins 13.")


def test_folds_and_checks():
    with rigged({0: ("Js", "Ks", "Jh"), 1: ("Js", "Ks", "Qh")}):
        state = play(GAME.initial_state(seed=0, hands=2), "check check check bet fold")
        assert GAME.net(state) == -1  # seat 0 folded to a round-2 bet: it loses its ante only
        assert GAME.player_view(state, None)["last"]["cards"] == ["", ""]
        with pytest.raises(IllegalAction, match="cannot check"):
            GAME.parse_action(play(state, "bet"), "check")


def test_deals_follow_seed_hand_and_seat():
    finals = []
    for rng_seed in (3, 4):
        state, rng = GAME.initial_state(seed=17), random.Random(rng_seed)
        while GAME.current_player(state) is not None:
            state = GAME.apply(state, GAME.random_action(state, rng))
        finals.append(GAME.full_view(state)["history"])
    assert [h["cards"] for h in finals[0]] == [h["cards"] for h in finals[1]]
    # The board card is dealt from the same deck whether or not a hand reaches round 2.
    boards = [{h["number"]: h["board"] for h in history if h["board"]} for history in finals]
    assert all(boards[0][n] == boards[1][n] for n in boards[0].keys() & boards[1].keys())


def test_hidden_cards_in_views_texts_and_html():
    for seat in (0, 1):
        seen = []
        for other in ("Jh", "Kh"):
            cards = ("Qs", other, "Ks") if seat == 0 else (other, "Qs", "Ks")
            with rigged({0: cards}):
                state = play(GAME.initial_state(seed=5, hands=1), "bet call")
                view = GAME.player_view(state, seat)
                html = render_to_string("games/leduc-holdem/board.html", {"view": view, "seat": seat})
                text = GAME.observation_text(state, seat)
                assert other not in html
                assert other not in text
                assert other not in str(view)
                assert "Qs" in text
                assert "Ks" in text
                seen.append((view, text, GAME.public_history(state), html))
        assert seen[0] == seen[1]


def test_equilibrium_value_and_exploitability():
    solver = evaluate_table(LEDUC, equilibrium())
    # The published game value of Leduc hold'em for the first player is about −0.0856 chips a hand.
    assert solver.value() == pytest.approx(-0.0856, abs=0.005)
    assert solver.exploitability() < 0.01
    assert min(solver.best_response_values()) > solver.value() - 1e-9  # a best response never does worse


def test_bots_decide_from_their_own_card_only():
    for bot in ladder("leduc-holdem"):
        choices = []
        for other in ("Jh", "Kh"):
            with rigged({0: (other, "Qs", "Js")}):
                state = play(GAME.initial_state(seed=5, hands=1), "bet")
                choices.append([bot.choose(GAME, state, random.Random(n)) for n in range(20)])
        assert choices[0] == choices[1], bot.slug
