"""Pit: the deal, blind swaps of equal offers, the corner, sealed offers and the collector bot."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games import IllegalAction, get_game
from games.bots import ladder
from games.pit import COMMODITIES, MAX_DEALS, MAX_ROUNDS, PitState, corner_points

GAME = get_game("pit")


def table(*hands: tuple[int, int, int, int], round: int = 0) -> PitState:
    """A position with `hands` (wheat, barley, corn, soybeans per seat) and no offers sealed."""
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
    after = play(START, "2 wheat", "2 soybeans", "1 corn", "pass")
    assert after.hands == ((1, 3, 3, 2), (5, 3, 0, 1), (3, 0, 3, 3), (0, 3, 3, 3))
    assert after.round == 1
    assert after.sealed == ()
    assert after.report == ("Player 1 and Player 2 trade 2 cards",)
    assert after.received[0] == "2 soybeans from Player 2 for your 2 wheat"
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
        GAME.apply(START, ("soybeans", 1))  # Player 1 holds no soybeans
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
    assert "Your hand: 1 wheat, 4 corn, 4 soybeans." in GAME.observation_text(state, 1)


def test_the_collector_keeps_its_biggest_commodity_and_offers_its_smallest():
    bot = ladder("pit")[1]
    state = table((5, 1, 3, 0), (1, 0, 4, 4), (3, 4, 0, 2), (0, 4, 5, 0))
    assert bot.choose(GAME, state, random.Random(0)) == ("barley", 1)


# -- the gamebench variant: GameBench's two sides, Bull and Bear, deals to 500 ------------------------------------

GB = replace(table(), gamebench=True)


def gamebench_table(*hands: tuple[int, ...], totals=(0, 0, 0, 0), deal: int = 1) -> PitState:
    """A gamebench-variant position: hands count wheat, barley, corn, soybeans, bull, bear."""
    return replace(GB, hands=hands, totals=totals, deal=deal)


def test_the_gamebench_ladder_bots_keep_the_bull_and_offer_the_bear_first():
    collector, spreader = ladder("pit")[1:3]
    rest = ((1, 3, 3, 2, 0, 0), (2, 3, 2, 1, 0, 0), (1, 2, 3, 3, 0, 0))
    with_bear = gamebench_table((4, 1, 2, 1, 1, 1), *rest)
    assert {collector.choose(GAME, with_bear, random.Random(s)) for s in range(8)} == {("bear", 1)}
    assert {spreader.choose(GAME, with_bear, random.Random(s)) for s in range(8)} == {("bear", 1)}
    # Four wheat kept, the Bull never offered: the collector gives its one barley, the spreader 2 of its 3 corn.
    no_bear = gamebench_table((4, 1, 3, 1, 1, 0), *rest)
    assert {collector.choose(GAME, no_bear, random.Random(s)) for s in range(8)} == {("barley", 1), ("soybeans", 1)}
    assert {spreader.choose(GAME, no_bear, random.Random(s)) for s in range(8)} == {("corn", 2)}
    # Three wheat and three corn: the more valuable wheat is kept, so both offer corn.
    tie = gamebench_table((3, 2, 3, 1, 1, 0), *rest)
    assert collector.choose(GAME, tie, random.Random(0)) == ("soybeans", 1)
    assert spreader.choose(GAME, tie, random.Random(0)) == ("corn", 2)


def test_a_gamebench_ladder_game_is_won_by_the_side_with_the_larger_share():
    won = play(
        gamebench_table(
            (1, 3, 3, 2, 0, 1), (5, 1, 1, 3, 0, 0), (2, 3, 2, 1, 1, 0), (1, 2, 3, 3, 0, 0), totals=(300, 150, 100, 0)
        ),
        "1 wheat",
        "1 barley",
        "pass",
        "pass",
    )
    assert GAME.ladder_scores(won) == (1.0, 1.0, 0.0, 0.0)  # shares 550/650 and 100/650
    level = replace(won, totals=(300, 250, 500, 50))  # 550 points each: equal shares
    assert GAME.ladder_scores(level) == (0.5, 0.5, 0.5, 0.5)
    cornered = play(
        table((5, 0, 0, 4), (0, 4, 5, 0), (4, 0, 0, 5), (0, 5, 4, 0)), "4 soybeans", "pass", "4 wheat", "pass"
    )
    assert GAME.ladder_scores(cornered) == (0.5, 0.0, 0.5, 0.0)  # the standard rules: the outcome's scores


def test_the_gamebench_deal_adds_the_bull_and_bear_round_robin():
    state = GAME.initial_state(seed=5, gamebench=True)
    assert [sum(hand) for hand in state.hands] == [10, 10, 9, 9]  # 38 cards dealt from Player 1
    assert [sum(hand[i] for hand in state.hands) for i in range(6)] == [9, 9, 9, 9, 1, 1]
    assert [GAME.team_of(state, seat) for seat in range(4)] == [0, 0, 1, 1]
    assert GAME.parse_action(state, "1 bull") == ("bull", 1)
    with pytest.raises(ValueError, match="gamebench"):
        GAME.initial_state(seed=5, bull_bear=True)


def test_gamebench_corner_points_follow_gamebench_scoring():
    assert corner_points((6, 2, 1, 1, 0, 0)) == 100  # six wheat
    assert corner_points((1, 1, 5, 1, 1, 0)) == 75  # a bull corner: five corn and the Bull
    assert corner_points((6, 1, 1, 0, 1, 1)) == 2 * 100 - 20  # six and the Bull double; the Bear costs 20
    assert corner_points((1, 2, 1, 5, 0, 1)) == 0  # five soybeans without the Bull: no corner
    assert corner_points((0, 3, 1, 5, 0, 0)) == 0


def test_a_gamebench_corner_scores_and_the_cards_are_dealt_again():
    state = gamebench_table(
        (5, 1, 1, 3, 0, 0), (1, 3, 3, 2, 0, 1), (2, 3, 2, 1, 1, 0), (1, 2, 3, 3, 0, 0), totals=(10, 0, 0, 0)
    )
    after = play(state, "1 barley", "1 wheat", "pass", "pass")  # Player 1 swaps a barley for the fifth wheat
    assert after.totals == (110, 0, 0, 0)
    assert after.report[-2:] == ("Player 1 cornered wheat: 100 points", "Deal 1 ends.")
    assert (after.deal, after.round) == (2, 0)
    assert [sum(hand) for hand in after.hands] == [10, 10, 9, 9]
    assert GAME.outcome(after) is None
    assert GAME.points(after) == (110, 0, 0, 0)


def test_a_gamebench_side_at_500_ends_the_match_with_its_share_of_the_points():
    state = gamebench_table(
        (1, 3, 3, 2, 0, 1), (5, 1, 1, 3, 0, 0), (2, 3, 2, 1, 1, 0), (1, 2, 3, 3, 0, 0), totals=(300, 150, 100, 0)
    )
    after = play(state, "1 wheat", "1 barley", "pass", "pass")
    outcome = GAME.outcome(after)
    assert outcome.reason == "Players 1 and 2 550 points, Players 3 and 4 100"
    assert outcome.scores == (550 / 650, 550 / 650, 100 / 650, 100 / 650)
    assert after.deal == 1
    assert after.hands[1][0] == 6  # the final corner stays on the table
    assert GAME.current_player(after) is None


def test_the_gamebench_variant_round_trips_and_shows_points_and_the_bull():
    state = GAME.initial_state(seed=2, gamebench=True)
    assert GAME.from_json(GAME.to_json(state)) == state
    view = GAME.player_view(state, 0)
    assert [c["name"] for c in view["commodities"]][-2:] == ["bull", "bear"]
    assert [p["points"] for p in view["players"]] == [0, 0, 0, 0]
    assert [p["hand"] for p in view["players"][1:]] == [[], [], []]  # a side's partner hand stays hidden too
    assert view["deal"] == 1
    assert "You play for Players 1 and 2 against Players 3 and 4" in GAME.observation_text(state, 1)


@pytest.mark.parametrize("seed", range(6))
def test_random_gamebench_matches_end_replay_and_round_trip(seed):
    rng, state, actions = random.Random(seed), GAME.initial_state(seed=seed, gamebench=True), []
    while GAME.current_player(state) is not None:
        actions.append(GAME.random_action(state, rng))
        state = GAME.apply(state, actions[-1])
        assert GAME.from_json(GAME.to_json(state)) == state
    outcome = GAME.outcome(state)
    assert outcome.scores[0] == outcome.scores[1]
    assert outcome.scores[0] + outcome.scores[2] == pytest.approx(1.0)
    assert state.deal == MAX_DEALS or max(state.totals[0] + state.totals[1], state.totals[2] + state.totals[3]) >= 500
    replay = GAME.initial_state(seed=seed, gamebench=True)
    for action in actions:
        replay = GAME.apply(replay, action)
    assert replay == state


def test_two_corners_in_one_round_share_the_win():
    # Players 1 and 3 swap four soybeans for four wheat: five and four of each make two corners at once.
    state = table((5, 0, 0, 4), (0, 4, 5, 0), (4, 0, 0, 5), (0, 5, 4, 0))
    after = play(state, "4 soybeans", "pass", "4 wheat", "pass")
    assert (after.hands[0], after.hands[2]) == ((9, 0, 0, 0), (0, 0, 0, 9))
    outcome = GAME.outcome(after)
    assert outcome.scores == (0.5, 0.0, 0.5, 0.0)
    assert outcome.reason == "Player 1 cornered wheat (100 points) and Player 3 cornered soybeans (55 points)"
