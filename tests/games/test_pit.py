"""Pit: the deal, blind swaps of equal offers, the corner, sealed offers and the collector bot."""

from __future__ import annotations

import random

import pytest

from games import IllegalAction, get_game
from games.bots import ladder
from games.pit import COMMODITIES, MAX_ROUNDS, PitState

GAME = get_game("pit")


def table(*hands: tuple[int, int, int, int], round: int = 0) -> PitState:
    """A position with `hands` (wheat, barley, corn, oats per seat) and no offers sealed."""
    return PitState(seed=3, ply=0, round=round, hands=hands, sealed=(), report=(), received=("",) * 4)


def play(state: PitState, *offers: str) -> PitState:
    for offer in offers:
        state = GAME.apply(state, GAME.parse_action(state, offer))
    return state


START = table((3, 3, 3, 0), (3, 3, 0, 3), (3, 0, 3, 3), (0, 3, 3, 3))


def test_the_deal_gives_four_hands_of_nine_from_nine_cards_of_each_commodity():
    state = GAME.initial_state(seed=5)
    assert [sum(hand) for hand in state.hands] == [9, 9, 9, 9]
    assert [sum(hand[i] for hand in state.hands) for i in range(len(COMMODITIES))] == [9, 9, 9, 9]
    assert GAME.outcome(state) is None
    assert GAME.current_player(state) == 0


def test_two_equal_offers_swap_blind_and_unmatched_offers_keep_their_cards():
    after = play(START, "2 wheat", "2 oats", "1 corn", "pass")
    assert after.hands == ((1, 3, 3, 2), (5, 3, 0, 1), (3, 0, 3, 3), (0, 3, 3, 3))
    assert after.round == 1
    assert after.sealed == ()
    assert after.report == ("Player 1 and Player 2 trade 2 cards",)
    assert after.received[0] == "2 oats from Player 2 for your 2 wheat"
    assert after.received[2] == "nothing (no one matched your offer)"


def test_all_nine_of_a_commodity_corners_the_market():
    state = table((8, 1, 0, 0), (1, 0, 4, 4), (0, 4, 5, 0), (0, 4, 0, 5))
    after = play(state, "1 barley", "1 wheat", "pass", "pass")
    outcome = GAME.outcome(after)
    assert outcome.scores == (1.0, 0.0, 0.0, 0.0)
    assert outcome.reason == "Player 1 cornered wheat (100 points)"
    assert GAME.points(after) == (100, 0, 0, 0)
    assert GAME.current_player(after) is None
    assert GAME.legal_actions(after) == []


def test_no_corner_after_the_last_round_is_a_draw():
    state = table((3, 3, 3, 0), (3, 3, 0, 3), (3, 0, 3, 3), (0, 3, 3, 3), round=MAX_ROUNDS - 1)
    after = play(state, "pass", "pass", "pass", "pass")
    assert GAME.outcome(after).scores == (0.5, 0.5, 0.5, 0.5)


def test_an_offer_must_be_one_to_four_cards_of_a_commodity_held():
    with pytest.raises(IllegalAction):
        GAME.apply(START, ("oats", 1))  # Player 1 holds no oats
    with pytest.raises(IllegalAction):
        GAME.apply(START, ("wheat", 4))  # only three wheat
    with pytest.raises(IllegalAction):
        GAME.parse_action(START, "wheat please")


def test_a_sealed_offer_and_a_hand_show_only_to_their_own_seat():
    state = play(START, "3 barley")
    for viewer in (1, 2, 3, None):
        view = GAME.player_view(state, viewer)
        assert view["players"][0]["offer"] == ""
        assert view["players"][0]["hand"] == []
        assert view["players"][0]["offered"] is True
        assert viewer == 1 or "3 barley" not in str(view)  # seat 2 (to act) sees its own possible offers
    assert GAME.player_view(state, 0)["players"][0]["offer"] == "3 barley"
    assert GAME.full_view(state)["players"][0]["offer"] == "3 barley"
    assert GAME.public_action_text("3 barley") == "(offer sealed)"


def test_another_seats_hand_never_reaches_a_view_or_an_observation():
    state = table((8, 1, 0, 0), (1, 0, 4, 4), (0, 4, 5, 0), (0, 4, 0, 5))
    view = GAME.player_view(state, 1)
    assert [p["hand"] for p in view["players"] if p["seat"] != 1] == [[], [], []]
    assert "8 wheat" not in GAME.observation_text(state, 1)
    assert "Your hand: 1 wheat, 4 corn, 4 oats." in GAME.observation_text(state, 1)


def test_the_collector_keeps_its_biggest_commodity_and_offers_its_smallest():
    bot = ladder("pit")[1]
    state = table((5, 1, 3, 0), (1, 0, 4, 4), (3, 4, 0, 2), (0, 4, 5, 0))
    assert bot.choose(GAME, state, random.Random(0)) == ("barley", 1)
