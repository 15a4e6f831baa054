"""Kuhn poker: hand results, the match format, duplicate deals, hidden cards, and the CFR+ equilibrium (value −1/18)."""

from __future__ import annotations

import random
import re
from unittest import mock

import pytest
from django.template.loader import render_to_string

from games import IllegalAction, get_game
from games.bots import ladder
from games.bots.cfr import Solver, evaluate_table
from games.bots.kuhn_poker import equilibrium
from games.kuhn_poker import KUHN, KuhnPoker
from games.limit_poker import LimitPokerState

GAME: KuhnPoker = get_game("kuhn-poker")  # type: ignore[assignment]


def rigged(cards_by_hand: dict[int, tuple[str, str, str]]):
    """Patch the deal: hand h gets cards_by_hand[h] (seat 0, seat 1, unseen) whatever the seed."""
    return mock.patch("games.limit_poker.deal", lambda spec, slug, seed, hand: cards_by_hand[hand])


def play(state: LimitPokerState, moves: str) -> LimitPokerState:
    for word in moves.split():
        state = GAME.apply(state, GAME.parse_action(state, word))
    return state


# -- rules -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("moves", "seat0_won"),
    [
        ("check check", 1),  # K beats Q at a showdown for the antes
        ("bet call", 2),
        ("bet fold", 1),
        ("check bet fold", -1),
        ("check bet call", 2),
    ],
)
def test_hand_results_with_a_king_against_a_queen(moves, seat0_won):
    with rigged({0: ("K", "Q", "J")}):
        state = play(GAME.initial_state(seed=1, hands=1), moves)
        assert GAME.current_player(state) is None
        assert GAME.net(state) == seat0_won
        assert GAME.outcome(state).scores == ((1.0, 0.0) if seat0_won > 0 else (0.0, 1.0))


def test_seats_take_turns_opening_and_legal_actions_follow_the_bet():
    state = GAME.initial_state(seed=3, hands=2)
    assert GAME.current_player(state) == 0
    assert GAME.legal_actions(state) == ["check", "bet"]
    state = play(state, "bet")
    assert GAME.legal_actions(state) == ["fold", "call"]  # one bet only: no raise in Kuhn poker
    state = play(state, "call")
    assert state.hand == 1
    assert GAME.current_player(state) == 1  # seat 1 opens the second hand


def test_illegal_actions_say_what_to_do():
    state = GAME.initial_state(seed=3)
    with pytest.raises(IllegalAction, match="no bet to call"):
        GAME.parse_action(state, "fold")
    with pytest.raises(IllegalAction, match="cannot check"):
        GAME.parse_action(play(state, "bet"), "check")
    assert GAME.parse_action(state, "call") == "check"  # calling nothing is checking
    assert GAME.parse_action(play(state, "bet"), "bet") == "raise"
    with pytest.raises(IllegalAction):
        GAME.apply(play(state, "bet"), "raise")  # Kuhn allows one bet per hand
    with pytest.raises(ValueError, match="hands"):
        GAME.initial_state(seed=0, hands=0)


def test_default_match_is_thirty_hands_and_level_totals_draw():
    assert GAME.initial_state(seed=0).hands == 30
    with rigged({0: ("K", "Q", "J"), 1: ("K", "Q", "J")}):
        # Hand 1: seat 0 (K) wins 1 at a showdown; hand 2: seat 1 opens, bets, seat 0 folds and loses 1.
        state = play(GAME.initial_state(seed=0, hands=2), "check check bet fold")
        assert GAME.net(state) == 0
        assert GAME.outcome(state).scores == (0.5, 0.5)


# -- duplicate deals ---------------------------------------------------------------------------


def test_deals_depend_on_seed_and_hand_only_and_follow_the_seat():
    """Whatever is played, seat 0 gets the same cards in each hand of a seed: seat-swapped duplicates cancel luck."""
    finals = []
    for rng_seed in (1, 2):
        state, rng = GAME.initial_state(seed=42), random.Random(rng_seed)
        while GAME.current_player(state) is not None:
            state = GAME.apply(state, GAME.random_action(state, rng))
        finals.append(state)
    assert finals[0].past != finals[1].past
    cards = [[hand["cards"] for hand in GAME.full_view(final)["history"]] for final in finals]
    assert cards[0] == cards[1]
    assert len({tuple(c) for c in cards[0]}) > 1  # the deal changes from hand to hand
    assert cards[0] != [h["cards"] for h in GAME.full_view(_played(GAME.initial_state(seed=43)))["history"]]


def _played(state: LimitPokerState) -> LimitPokerState:
    rng = random.Random(0)
    while GAME.current_player(state) is not None:
        state = GAME.apply(state, GAME.random_action(state, rng))
    return state


# -- hidden information ------------------------------------------------------------------------


def test_the_other_card_is_hidden_until_a_showdown():
    with rigged({0: ("Q", "K", "J"), 1: ("J", "Q", "K")}):
        state = GAME.initial_state(seed=9, hands=2)
        for viewer in (0, None):
            view = GAME.player_view(state, viewer)
            assert "seed" not in view
            assert view["current"]["cards"] == ["Q" if viewer == 0 else "", ""]
            html = render_to_string("games/kuhn-poker/board.html", {"view": view, "seat": viewer})
            assert 'data-card="K"' not in html
        assert not re.search(r"\bK\b", GAME.observation_text(state, 0))
        state = play(state, "bet call")  # showdown: both cards are public now
        last = GAME.player_view(state, None)["last"]
        assert last["cards"] == ["Q", "K"]
        assert "Player 2 K" in GAME.public_history(state)
        html = render_to_string("games/kuhn-poker/board.html", {"view": GAME.player_view(state, 0), "seat": 0})
        assert "showdown Player 1 Q, Player 2 K" in html
        assert GAME.player_view(state, 0)["current"]["cards"] == ["J", ""]


def test_a_fold_keeps_both_cards_hidden_from_spectators():
    with rigged({0: ("Q", "K", "J")}):
        state = play(GAME.initial_state(seed=9, hands=1), "bet fold")
        assert GAME.player_view(state, None)["last"]["cards"] == ["", ""]
        assert GAME.player_view(state, 1)["last"]["cards"] == ["", "K"]
        assert not re.search(r"\bK\b", GAME.public_history(state))
        assert GAME.full_view(state)["history"][0]["cards"] == ["Q", "K"]


def test_views_texts_and_html_do_not_change_with_the_other_card():
    for seat in (0, 1):
        seen = []
        for other in ("J", "K"):
            cards = ("Q", other, "JK".replace(other, "")) if seat == 0 else (other, "Q", "JK".replace(other, ""))
            with rigged({0: cards}):
                state = play(GAME.initial_state(seed=5, hands=1), "check")
                view = GAME.player_view(state, seat)
                html = render_to_string("games/kuhn-poker/board.html", {"view": view, "seat": seat})
                seen.append((view, GAME.observation_text(state, seat), GAME.public_history(state), html))
        assert seen[0] == seen[1]


# -- the equilibrium and the ladder --------------------------------------------------------------


def test_cfr_equilibrium_has_the_known_game_value_and_is_unexploitable():
    table = equilibrium()
    solver = evaluate_table(KUHN, table)
    assert solver.value() == pytest.approx(-1 / 18, abs=1e-3)
    assert solver.exploitability() < 0.01
    # Kuhn's equilibrium family: a jack bluffs with some alpha ≤ 1/3, a king bets with 3 alpha, a queen never opens.
    alpha = table["J:"][1]
    assert 0 <= alpha <= 1 / 3 + 1e-3
    assert table["K:"][1] == pytest.approx(3 * alpha, abs=0.02)
    assert table["Q:"][1] < 0.01
    assert table == Solver(KUHN).run(500).strategy_table()  # the cached table is what the solver produces


def test_best_response_values_of_hand_worked_strategies():
    keys = equilibrium().keys()
    passive = dict.fromkeys(keys, (1.0, 0.0))  # check, and fold to any bet
    # Against a player who never bets and always folds, betting wins the ante every hand, in either seat.
    assert evaluate_table(KUHN, passive).best_response_values() == pytest.approx((1.0, 1.0))
    assert evaluate_table(KUHN, passive).value() == pytest.approx(0.0)
    aggressive = dict.fromkeys(keys, (0.0, 1.0))  # bet, and call any bet
    # Worked by hand: value-bet a king (+2), check-call a queen (0), give up a jack (−1): 1/3 a hand.
    assert evaluate_table(KUHN, aggressive).best_response_values() == pytest.approx((1 / 3, 1 / 3))


def test_bots_decide_from_their_own_card_only():
    for bot in ladder("kuhn-poker"):
        choices = []
        for other in ("Q", "K"):
            # Seat 1 acts after a check holding the jack (the equilibrium bluffs a third of the time);
            # only seat 0's card differs.
            with rigged({0: (other, "J", "QK".replace(other, ""))}):
                state = play(GAME.initial_state(seed=5, hands=1), "check")
                choices.append([bot.choose(GAME, state, random.Random(n)) for n in range(20)])
        assert choices[0] == choices[1], bot.slug
        if bot.level != 1:  # the rule-based level always bets here; the others mix
            assert len(set(choices[0])) == 2, bot.slug
