"""Air, Land & Sea: known values of the rules (strength, control, abilities, withdrawal VP) and the hidden cards."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games import IllegalAction, get_game
from games.air_land_sea import CARDS, AirLandSeaState, controller, strength
from games.bots import ladder
from games.bots.air_land_sea import battle_odds, match_odds, redeal_hidden, withdrawal_cost

GAME = get_game("air-land-sea")
ORDER = ("Air", "Land", "Sea")


def position(
    blue: tuple[tuple[tuple[str, bool], ...], ...] = ((), (), ()),
    red: tuple[tuple[tuple[str, bool], ...], ...] = ((), (), ()),
    hands: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
    deck: tuple[str, ...] = (),
    to_move: int = 0,
    first: int = 0,
    vp: tuple[int, int] = (0, 0),
) -> AirLandSeaState:
    """A battle in Air, Land, Sea order with the given stacks (bottom first), hands and deck."""
    board = tuple((blue[p], red[p]) for p in range(3))
    return AirLandSeaState(0, 0, 1, vp, first, ORDER, hands, deck, board, to_move, (), -1, False, ())


def play(state: AirLandSeaState, *moves: str) -> AirLandSeaState:
    for move in moves:
        state = GAME.apply(state, GAME.parse_action(state, move))
    return state


def test_the_deal_gives_six_cards_each_and_keeps_six_in_the_deck():
    state = GAME.initial_state(seed=3)
    cards = [*state.hands[0], *state.hands[1], *state.deck]
    assert sorted(cards) == sorted(CARDS)
    assert len(CARDS) == 18
    assert (len(state.hands[0]), len(state.hands[1]), len(state.deck)) == (6, 6, 6)
    assert sorted(state.order) == sorted(ORDER)
    assert GAME.current_player(state) == 0 == state.first
    # each hand card can be improvised to 3 theaters and deployed to its own: 4 moves a card, plus withdraw
    assert len(GAME.legal_actions(state)) == 6 * 4 + 1


def test_face_down_cards_are_strength_two_and_the_first_player_wins_ties():
    state = position(blue=((("A6", False),), (), ()), red=((("L1", False),), (), ()))
    assert strength(state, 0, 0) == strength(state, 0, 1) == 2
    assert controller(state, 0) == 0  # tie to the 1st player
    assert controller(replace(state, first=1), 0) == 1
    assert controller(state, 1) == 0  # empty theater to the 1st player


def test_escalation_cover_fire_and_support_change_strength():
    escalation = position(blue=((("A6", False),), (), (("S2", True),)))
    assert strength(escalation, 0, 0) == 4
    cover = position(blue=((), (("A6", True), ("S6", False), ("L4", True)), ()))
    assert strength(cover, 1, 0) == 4 + 4 + 4  # both covered cards are 4, Cover Fire itself 4
    support = position(blue=((("A1", True),), (("L6", True),), (("S6", True),)))
    assert strength(support, 1, 0) == 6 + 3  # Land is adjacent to Air
    assert strength(support, 2, 0) == 6  # Sea is not


def test_a_battle_fought_to_the_end_scores_six_and_the_next_battle_swaps_and_rotates():
    state = position(hands=(("A6",), ("L6",)), deck=tuple(c for c in CARDS if c not in ("A6", "L6")))
    state = play(state, "deploy A6 Air", "improvise L6 Sea")  # Blue holds Air and Land (tie), Red holds Sea
    assert state.vp == (6, 0)
    assert state.battle == 2
    assert state.first == 1
    assert state.order == ("Sea", "Air", "Land")
    assert GAME.current_player(state) == 1
    assert len(state.hands[0]) == 6
    assert state.log[-1].startswith("Battle 1: Blue wins (+6 VP")


@pytest.mark.parametrize(
    ("withdrawer", "first", "left", "gain"),
    [(0, 0, 5, 2), (0, 0, 4, 2), (0, 0, 3, 3), (0, 0, 1, 4), (1, 0, 5, 2), (1, 0, 4, 3), (1, 0, 2, 4), (1, 0, 1, 6)],
)
def test_withdrawing_scores_by_the_cards_left_in_hand(withdrawer, first, left, gain):
    hand = tuple(sorted(CARDS)[:left])
    hands = (hand, ("S6",)) if withdrawer == 0 else (("S6",), hand)
    state = play(position(hands=hands, to_move=withdrawer, first=first, deck=("S5",)), "withdraw")
    assert state.vp[1 - withdrawer] == gain
    assert state.vp[withdrawer] == 0


def test_reaching_twelve_ends_the_match():
    state = play(position(hands=(("A6",), ("L6",)), vp=(6, 10)), "deploy A6 Air", "deploy L6 Land")
    assert GAME.outcome(state).scores == (1.0, 0.0)  # Blue holds Air and Sea (empty, tie): 12 VP
    assert GAME.current_player(state) is None
    assert GAME.legal_actions(state) == []


def test_maneuver_flips_a_face_down_card_whose_instant_ability_then_resolves():
    state = position(
        blue=((), (("L6", True),), ()),
        red=((("S1", False),), (), ()),
        hands=(("A3", "S6"), ("A6", "L2")),
    )
    state = play(state, "deploy A3 Air")  # Maneuver is in Air: Land is the only adjacent theater
    assert GAME.current_player(state) == 0
    assert [GAME.action_to_text(state, a) for a in GAME.legal_actions(state)] == ["flip Blue Land"]
    # a Maneuver from Land may flip Red's face-down Transport in Air: Red then may move a card
    state = position(blue=((), (), ()), red=((("S1", False),), (), ()), hands=(("L3", "S6"), ("A6", "L2")))
    state = play(state, "deploy L3 Land", "flip Red Air")
    assert state.board[0][1] == (("S1", True),)
    assert GAME.current_player(state) == 1  # Transport is Red's choice
    assert ("pass",) in GAME.legal_actions(state)
    state = play(state, "move Air 1 Sea")
    assert state.board[2][1] == (("S1", True),)
    assert GAME.current_player(state) == 1


def test_containment_destroys_face_down_plays_and_blockade_crowded_adjacent_theaters():
    contained = play(
        position(blue=((("A5", True),), (), ()), hands=(("S6",), ("L6",)), deck=("A1",)), "improvise S6 Land"
    )
    assert contained.board[1][0] == ()
    assert contained.deck == ("A1", "S6")
    crowded = position(
        blue=((), (("L1", False),), (("S5", True),)),
        red=((), (("L2", False), ("L3", False)), ()),
        hands=(("S6", "A6"), ("L6", "A4")),
    )
    blocked = play(crowded, "improvise S6 Land")  # Land holds 3 cards and is adjacent to Blockade in Sea
    assert blocked.board[1][0] == (("L1", False),)
    assert blocked.deck[-1] == "S6"
    assert "destroyed by Blockade" in blocked.log[-1]
    free = play(crowded, "improvise S6 Air")  # Air is not adjacent to Sea
    assert free.board[0][0] == (("S6", False),)


def test_redeploy_returns_a_face_down_card_and_grants_an_extra_turn():
    state = position(blue=((("A6", False),), (), ()), hands=(("S4", "L5"), ("L6", "A2")), deck=("A1",))
    state = play(state, "deploy S4 Sea", "return Air 1")
    assert sorted(state.hands[0]) == ["A6", "L5"]
    assert GAME.current_player(state) == 0


def test_parse_reads_any_case_and_refuses_the_unlisted():
    state = GAME.initial_state(seed=2)
    move = GAME.legal_actions(state)[0]
    assert GAME.parse_action(state, GAME.action_to_text(state, move).upper()) == move
    with pytest.raises(IllegalAction, match="Legal moves"):
        GAME.parse_action(state, "deploy Z9 Moon")


def test_the_other_seat_sees_no_hand_no_face_down_card_and_no_deck():
    state = position(
        blue=((("A6", False),), (("L6", True),), ()),
        hands=(("S1", "S2"), ("A1", "A2")),
        deck=("L1", "L2"),
    )
    red_view = str(GAME.player_view(state, 1))
    assert "Heavy Bombers" not in red_view
    assert "Transport" not in red_view
    assert "Escalation" not in red_view
    assert "Heavy Tanks" in red_view
    assert "Support" in red_view
    assert "Reinforce" not in red_view
    assert "Ambush" not in red_view
    assert "Heavy Bombers" in str(GAME.player_view(state, 0))
    assert "Heavy Bombers" not in GAME.observation_text(state, 1)
    assert "Heavy Bombers" in GAME.observation_text(state, 0)
    assert GAME.full_view(state)["deck"] == ["L1", "L2"]
    assert GAME.player_view(state, 0)["deck"] == []
    assert GAME.public_action_text("improvise A6 Air") == "improvise a card Air"
    assert GAME.public_action_text("deploy A6 Air") == "deploy A6 Air"


def test_bots_guess_the_hidden_cards_instead_of_reading_them():
    state = GAME.initial_state(seed=4)
    guessed = redeal_hidden(state, 0, random.Random(1))
    assert guessed.hands[0] == state.hands[0]
    assert sorted(guessed.hands[1] + guessed.deck) == sorted(state.hands[1] + state.deck)
    assert any(guessed.hands[1] != redeal_hidden(state, 0, random.Random(n)).hands[1] for n in range(2, 6))


def test_the_lookahead_bot_takes_the_battle_winning_move():
    # Blue's last card: deploying Heavy Bombers to Air wins Air and with it the battle; improvising does not
    state = position(blue=((), (("L6", True),), ()), red=((("A5", True),), (), (("S6", True),)), hands=(("A6",), ()))
    bot = ladder("air-land-sea")[3]
    assert bot.choose(GAME, state, random.Random(0)) == ("deploy", "A6", "Air")


def test_the_match_price_of_a_score_is_hand_computed():
    assert match_odds(12, 0) == 1.0
    assert match_odds(0, 12) == 0.0
    assert match_odds(10, 10) == pytest.approx(0.5)  # the next battle decides, whoever wins it by however much
    # At 10–8: winning the next battle wins the match (½); losing it loses the match unless Red withdraws for
    # 2 or 3 VP (chance 0.1 each of the ½ Red wins it), after which the battle after decides (½).
    assert match_odds(10, 8) == pytest.approx(0.5 + 0.5 * (0.1 * 0.5 + 0.1 * 0.5))
    assert match_odds(3, 7) == pytest.approx(1 - match_odds(7, 3))


# Red (the 1st player, who wins ties) holds every theater with a 6; Blue's three cards cannot win two of them:
# two face-down cards under Escalation make 8 in one theater, and one card alone is at most 4 in another.
HOPELESS = position(red=((("A6", True),), (("L6", True),), (("S6", True),)), hands=(("A2", "S2", "L4"), ()), first=1)


def test_the_withdrawing_bot_withdraws_from_a_lost_battle_for_fewer_points():
    bot = ladder("air-land-sea")[4]
    assert battle_odds(GAME, HOPELESS, 0, random.Random(0), 12) == 0.0
    assert withdrawal_cost(HOPELESS, 0) == 3  # the 2nd player withdrawing with 3 cards: Red scores 3, not 6
    assert bot.choose(GAME, HOPELESS, random.Random(0)) == ("withdraw",)
    after = GAME.apply(HOPELESS, ("withdraw",))
    assert after.vp == (0, 3)


def test_the_withdrawing_bot_fights_a_won_battle_and_one_whose_withdrawal_would_lose_the_match():
    bot = ladder("air-land-sea")[4]
    won = replace(HOPELESS, board=(((), ()), ((), ()), ((), ())))  # Red has nothing on the board
    assert battle_odds(GAME, won, 0, random.Random(0), 12) == 1.0
    assert bot.choose(GAME, won, random.Random(0)) != ("withdraw",)
    # Red at 10: conceding 3 VP ends the match just as losing the battle does, so Blue plays on
    assert bot.choose(GAME, replace(HOPELESS, vp=(0, 10)), random.Random(0)) != ("withdraw",)
