"""Fight the Landlord: Botzone's combinations, the move generator against a brute-force count, bidding and scoring."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from games import IllegalAction, get_game
from games.fight_the_landlord import LandlordState, deal
from games.fight_the_landlord.combos import all_plays, answers, beats, classify, parse_ranks, rank_of

GAME = get_game("fight-the-landlord")


def botzone_kind(ranks: tuple[int, ...]) -> str | None:
    """An independent classifier written after Botzone's judge: the counts per rank, highest first."""
    if not ranks:
        return None
    counts = Counter(ranks)
    shape = sorted(counts.values(), reverse=True)
    pattern = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    main, distinct = pattern[0][0], len(shape)
    points = sorted(counts, reverse=True)
    named = {
        (1,): "single", (2,): "pair", (3,): "triple", (3, 1): "triple_with_single", (3, 2): "triple_with_pair",
        (4,): "bomb", (4, 1, 1): "four_with_single", (4, 2, 2): "four_with_pair",
    }  # fmt: skip
    if tuple(shape) in named:
        return named[tuple(shape)]
    if points == [14, 13]:
        return "rocket"
    consecutive = points[0] - points[-1] == distinct - 1
    if shape[0] == shape[-1] and consecutive and main <= 11:
        minimum = {1: 5, 2: 3, 3: 2, 4: 2}[shape[0]]
        if distinct >= minimum:
            return {1: "straight", 2: "pair_straight", 3: "airplane", 4: "space_shuttle"}[shape[0]]
        return None
    if distinct % 2 == 0 and distinct >= 4 and main <= 11:
        half = distinct // 2
        chain = main - pattern[half - 1][0] == half - 1 and shape[0] == shape[half - 1] in (3, 4)
        if chain and shape[half] == shape[-1] in (1, 2):
            body = "airplane" if shape[0] == 3 else "space_shuttle"
            return f"{body}_with_{'single' if shape[half] == 1 else 'pair'}"
    return None


def brute_force_plays(cards: list[int]) -> set[tuple[int, ...]]:
    """Every distinct rank multiset some subset of `cards` forms that the independent classifier accepts."""
    found = set()
    for size in range(1, len(cards) + 1):
        for subset in combinations(cards, size):
            ranks = tuple(sorted(rank_of(c) for c in subset))
            if ranks not in found and botzone_kind(ranks):
                found.add(ranks)
    return found


FIXED_HANDS = [
    # a hand rich in chains and triples: 3334445556789 + BJ RJ
    [0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 16, 20, 24, 52, 53],
    # two bombs side by side, pairs and a two: 3333 4444 55 66 2
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 48],
]


@pytest.mark.parametrize("cards", FIXED_HANDS + [sorted(random.Random(s).sample(range(54), 14)) for s in range(4)])
def test_generator_matches_a_brute_force_enumeration_of_every_card_subset(cards):
    generated = all_plays([rank_of(c) for c in cards])
    assert len(generated) == len(set(generated))
    assert set(generated) == brute_force_plays(cards)


def test_known_counts_on_fixed_hands():
    """Counted by hand for the first fixed hand: 3 3 3 4 4 4 5 5 5 6 7 8 9 BJ RJ."""
    plays = all_plays([rank_of(c) for c in FIXED_HANDS[0]])
    kinds = Counter(classify(p).kind for p in plays)
    assert kinds["single"] == 9  # 3 4 5 6 7 8 9 BJ RJ
    assert kinds["pair"] == 3
    assert kinds["triple"] == 3
    assert kinds["rocket"] == 1
    assert kinds["straight"] == 6  # ranks 3–9: three of length 5, two of length 6, one of length 7
    assert kinds["airplane"] == 3  # 333444, 444555, 333444555
    assert kinds["triple_with_single"] == 3 * 8
    assert kinds["triple_with_pair"] == 3 * 2


def test_botzone_kicker_rules():
    assert classify(parse_ranks("3 3 3 4 4 4 BJ RJ")).kind == "airplane_with_single"  # both jokers as wings
    assert classify(parse_ranks("3 3 3 4 4 4 5 5")) is None  # wings must be of different ranks
    assert classify(parse_ranks("3 3 3 3 5 5")) is None  # four with a pair is not four with two singles
    assert classify(parse_ranks("3 3 3 3 5 6")).kind == "four_with_single"
    assert classify(parse_ranks("3 3 3 3 5 5 6 6")).kind == "four_with_pair"
    assert classify(parse_ranks("3 3 3 3 4 4 4 4")).kind == "space_shuttle"
    assert classify(parse_ranks("10 J Q K A")).kind == "straight"
    assert classify(parse_ranks("J Q K A 2")) is None  # no 2 in a chain
    assert classify(parse_ranks("K K K A A A 2 2 2")) is None
    assert classify(parse_ranks("3 3 4 4")) is None  # pair straights need three pairs


def test_beating_rules():
    straight, longer = classify(parse_ranks("3 4 5 6 7")), classify(parse_ranks("4 5 6 7 8 9"))
    bomb, higher_bomb, rocket = classify((2,) * 4), classify((5,) * 4), classify(parse_ranks("BJ RJ"))
    assert not beats(longer, straight)  # same kind, other size
    assert beats(classify(parse_ranks("4 5 6 7 8")), straight)
    assert beats(bomb, straight)
    assert beats(higher_bomb, bomb)
    assert not beats(bomb, higher_bomb)
    assert beats(rocket, higher_bomb)
    assert not beats(higher_bomb, rocket)
    hand = [rank_of(c) for c in FIXED_HANDS[1]]
    assert set(answers(hand, classify((11,)))) == {(12,), (0, 0, 0, 0), (1, 1, 1, 1)}  # a 2 or a bomb beats an ace


def state_with(hands, landlord=0, plays=(), bidding=False) -> LandlordState:
    return LandlordState(
        0, len(plays), bidding, tuple(tuple(sorted(h)) for h in hands), (53, 52, 51), (), landlord, plays
    )


def test_bidding_highest_bidder_takes_the_bottom_and_leads():
    state = GAME.initial_state(seed=5, bidding=True)
    assert GAME.current_player(state) == 0
    assert GAME.legal_actions(state)[0] == ("bid", 0)
    state = GAME.apply(state, ("bid", 1))
    assert ("bid", 1) not in GAME.legal_actions(state)
    state = GAME.apply(GAME.apply(state, ("bid", 2)), ("bid", 0))
    assert state.landlord == 1
    assert len(state.hands[1]) == 20
    assert set(state.bottom) <= set(state.hands[1])
    assert GAME.current_player(state) == 1
    assert ("play", ()) not in GAME.legal_actions(state)  # a lead cannot be passed


def test_a_three_bid_ends_the_bidding_and_nobody_bidding_makes_seat_one_landlord():
    assert GAME.apply(GAME.initial_state(seed=1, bidding=True), ("bid", 3)).landlord == 0
    state = GAME.initial_state(seed=1, bidding=True)
    for _ in range(3):
        state = GAME.apply(state, ("bid", 0))
    assert state.landlord == 0
    assert GAME.stake(state)[0] == 1


def test_two_passes_give_the_lead_back_and_a_spring_doubles_the_stake():
    landlord_hand = [0, 4, 8, 12, 16, 20]  # 3 4 5 6 7 8: a straight
    state = state_with([landlord_hand, [24, 28], [32, 36]])
    state = GAME.apply(state, ("play", (0,)))  # leads a 3
    state = GAME.apply(GAME.apply(state, ("play", ())), ("play", ()))
    assert GAME.target(state) is None
    assert GAME.current_player(state) == 0
    state = GAME.apply(state, ("play", (1, 2, 3, 4, 5)))
    result = GAME.outcome(state)
    assert result.scores == (1.0, 0.0, 0.0)
    assert "2 points" in result.reason
    assert "spring" in result.reason


def test_a_bomb_doubles_and_the_peasants_win_together():
    state = state_with([[0, 4, 8], [12, 13, 14, 15], [20]], plays=())
    state = GAME.apply(state, ("play", (0,)))
    state = GAME.apply(state, ("play", (3, 3, 3, 3)))
    result = GAME.outcome(state)
    assert result.scores == (0.0, 1.0, 1.0)
    assert "bomb" in result.reason
    assert "4 points" in result.reason
    assert GAME.team_of(state, 1) == GAME.team_of(state, 2) != GAME.team_of(state, 0)


def test_botzone_scoring_adds_card_kind_points_without_doubling():
    # The bomb game above under Botzone's judge: P1 led a single (1 point), P2 went out with a bomb (10).
    # The peasants win: 2 each plus their kind points / 100, shared — (2.10 + 2.00) / 2 = 2.05; P1 0.01.
    plays = ((0, (0,)), (1, (12, 13, 14, 15)))
    state = LandlordState(0, 2, False, ((4, 8), (), (20,)), (53, 52, 51), (), 0, plays, "botzone")
    assert GAME.kind_points(state) == [1, 10, 0]
    assert GAME.botzone_points(state) == pytest.approx((0.01, 2.05, 2.05))
    result = GAME.outcome(state)
    assert result.scores == (0.0, 1.0, 1.0)
    assert "Botzone points 0.01 / 2.05 / 2.05" in result.reason
    assert "× 2" not in result.reason  # no doubling for the bomb
    assert GAME.variant_of({"scoring": "botzone"}) == "botzone"
    assert GAME.from_json(GAME.to_json(state)) == state
    with pytest.raises(ValueError, match="no bidding"):
        GAME.initial_state(seed=1, bidding=True, scoring="botzone")
    standard = GAME.initial_state(seed=3)
    assert "scoring" not in GAME.to_json(standard)  # the standard record is unchanged


def test_hands_stay_in_player_view_and_the_seed_deals_the_same_cards_in_both_variants():
    state = GAME.initial_state(seed=9, bidding=True)
    hands, bottom = deal(9)
    assert state.hands == hands
    botzone = GAME.initial_state(seed=9)
    assert set(botzone.hands[0]) == set(hands[0]) | set(bottom)
    assert botzone.hands[1:] == hands[1:]
    view = GAME.player_view(state, 1)
    assert view["seats"][1]["text"]
    assert not view["seats"][0]["text"]
    assert not view["seats"][2]["text"]
    assert view["bottom"] == []
    assert "seed" not in view
    spectator = GAME.player_view(state, None)
    assert not any(seat["cards"] for seat in spectator["seats"])
    assert all(seat["cards"] for seat in GAME.full_view(state)["seats"])


def test_parse_reads_ranks_cards_and_passes():
    state = state_with([[0, 1, 2, 40], [24], [28]])
    assert GAME.parse_action(state, "3 3 3 K") == ("play", (0, 0, 0, 10))
    assert GAME.parse_action(state, '["♠3","♥3","♣3","♠K"]') == ("play", (0, 0, 0, 10))
    assert GAME.parse_action(state, "10 J Q K A") == ("play", (7, 8, 9, 10, 11))
    with pytest.raises(IllegalAction, match="not a combination"):
        GAME.parse_action(state, "3 4")
    with pytest.raises(IllegalAction):
        GAME.apply(state, GAME.parse_action(state, "4"))  # not in the hand
