"""MCR Mahjong: the wall, pymahjonggb's fan count on hand-scored hands, the 8-fan minimum, claim priority, views,
and the ladder's search level and exhausted-wall rule."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games import IllegalAction, get_game
from games.bots import mahjong as mahjong_bots
from games.mahjong import MahjongState
from games.mahjong.tiles import counted, fans, shanten, tile_of, wall_for

GAME = get_game("mahjong")


def tiles(text: str) -> tuple[int, ...]:
    return tuple(sorted(tile_of(t) for t in text.split()))


def test_the_wall_has_144_tiles_and_the_deal_sets_flowers_aside():
    wall = wall_for(3)
    assert len(wall) == 144
    assert sum(t >= 34 for t in wall) == 8
    assert all(wall.count(t) == 4 for t in range(34))
    assert wall_for(3) == wall
    assert wall_for(4) != wall
    state = GAME.initial_state(seed=3)
    assert [len(h) for h in state.hands] == [14, 13, 13, 13]
    assert not any(t >= 34 for h in state.hands for t in h)
    assert sum(len(f) for f in state.flowers) + len(state.wall) + 53 == 144  # every tile accounted for


def test_fan_count_of_hand_scored_hands():
    # Pure Straight W1–W9, a pung of T1, a pair of B5 made by a self-drawn B5: Pure Straight 16 + Fully Concealed
    # Hand 4 + Pung of Terminals 1 + No Honors 1 + Single Wait 1 = 23 fan.
    found = fans((), tiles("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1 B5"), tile_of("B5"), flowers=2, self_drawn=True,
                 fourth_tile=False, about_kong=False, wall_last=False, seat_wind=0)  # fmt: skip
    names = {f.name: f.points * f.count for f in found}
    assert names["Pure Straight"] == 16
    assert names["Fully Concealed Hand"] == 4
    assert names["Flower Tiles"] == 2
    assert counted(found) == 23  # the flowers do not count toward the minimum
    # A chicken-like hand on a discard: chows and a pung of plain tiles, no pattern worth much: under 8 fan.
    flags = {"flowers": 0, "self_drawn": False, "fourth_tile": False, "about_kong": False, "wall_last": False}
    small = fans(
        (("CHI", tile_of("W3"), 1),), tiles("T2 T3 T4 B6 B7 B8 T7 T7 T7 B9"), tile_of("B9"), **flags, seat_wind=1
    )
    assert small is not None
    assert counted(small) < 8
    assert fans((), tiles("W1 W2 W4 W5 W6 W7 W8 W9 T1 T1 T1 B5 B6"), tile_of("J1"), flowers=0, self_drawn=False,
                fourth_tile=False, about_kong=False, wall_last=False, seat_wind=0) is None  # fmt: skip


def claim_state(hands: dict[int, str], discard: str, thrower: int = 0) -> MahjongState:
    """Seat `thrower` has just discarded `discard`; the others hold `hands` (13 tiles each)."""
    all_hands = tuple(tiles(hands.get(s, "")) for s in range(4))
    return MahjongState(
        seed=0, ply=10, wall=tiles("W1 W1 W2 W2 W3 W3 W4 W4 W5 W5"), hands=all_hands, packs=((),) * 4,
        flowers=((),) * 4, discards=tuple((tile_of(discard),) if s == thrower else () for s in range(4)),
        phase="claims", turn=thrower, drawn=-1, about_kong=False,
        responses=tuple(("-",) if s == thrower else () for s in range(4)),
        events=((thrower, "play", tile_of(discard)),),
        result=(),
    )  # fmt: skip


HAND_CHI = "T3 T5 B1 B2 B3 B7 B8 B9 J1 J1 F2 F3 F4"
HAND_PENG = "T4 T4 W6 W7 W8 B4 B5 B6 J2 J2 F1 F1 J3"
HAND_WIN = "T1 T2 T3 T4 T5 T6 T7 T8 T9 B2 B3 B4 J3"  # waits on J3 for the pair: Pure Straight (16 fan)


def test_answers_are_sealed_and_a_pung_beats_a_chow():
    state = claim_state({1: HAND_CHI, 2: HAND_PENG, 3: HAND_WIN}, "T4")
    assert GAME.current_player(state) == 1
    assert ("chi", tile_of("T4")) in GAME.legal_actions(state)
    state = GAME.apply(state, ("chi", tile_of("T4")))
    view = GAME.player_view(state, 2)
    assert view["seats"][1]["answered"]
    assert view["seats"][1]["answer"] == ""
    assert GAME.player_view(state, 1)["seats"][1]["answer"] == "Chi T4"
    assert GAME.public_action_text("Chi T4") == GAME.public_action_text("Pass")
    assert ("peng",) in GAME.legal_actions(state)
    assert ("chi", tile_of("T4")) not in GAME.legal_actions(state)
    state = GAME.apply(GAME.apply(state, ("peng",)), ("pass",))
    assert state.phase == "turn"
    assert state.turn == 2
    assert state.drawn == -1
    assert state.packs[2] == (("PENG", tile_of("T4"), 2),)
    assert state.discards[0] == ()
    assert all(a[0] == "play" for a in GAME.legal_actions(state))  # after a pung: discard


def test_a_win_on_a_discard_beats_every_claim_and_needs_eight_fan():
    state = claim_state({1: HAND_CHI, 2: HAND_PENG, 3: HAND_WIN}, "J3")
    assert ("hu",) in GAME.legal_actions(GAME.apply(GAME.apply(state, ("pass",)), ("pass",)))
    state = GAME.apply(GAME.apply(GAME.apply(state, ("pass",)), ("pass",)), ("hu",))
    result = GAME.outcome(state)
    assert result.scores == (0.0, 0.5, 0.5, 1.0)
    assert "Pure Straight" in result.reason
    view = GAME.full_view(state)
    assert view["winner"] == "P4"
    assert any(f["name"] == "Pure Straight" for f in view["fans"])
    cheap = claim_state({1: "W2 W3 W4 T2 T3 T4 B6 B7 B8 T7 T7 T7 B9"}, "B9")
    assert ("hu",) not in GAME.legal_actions(cheap)  # complete, but under 8 fan


def test_hands_and_the_seed_stay_out_of_player_views():
    state = GAME.initial_state(seed=2)
    view = GAME.player_view(state, 1)
    assert view["seats"][1]["hand"]
    assert not view["seats"][0]["hand"]
    assert "seed" not in view
    assert "wall" in view
    assert isinstance(view["wall"], int)
    assert all(seat["hand"] for seat in GAME.full_view(state)["seats"])
    with pytest.raises(IllegalAction):
        GAME.parse_action(state, "Play Z9")
    assert GAME.parse_action(state, "play w3") == ("play", tile_of("W3"))
    assert GAME.public_action_text("Gang W3") == "Gang (concealed)"
    assert GAME.public_action_text("Play W3") == "Play W3"


def turn_state(hand: str, drawn: str, wall_left: int = 83, seed: int = 0) -> MahjongState:
    """P1 holds `hand` (14 tiles) just after drawing `drawn`, `wall_left` tiles from the end of the wall; the rest of
    the seed's wall is in the other hands and then in the discards (flowers set aside by P1)."""
    mine = tiles(hand)
    rest = list(wall_for(seed))
    for tile in mine:
        rest.remove(tile)
    plain = [t for t in rest if t < 34][:39]
    for tile in plain:
        rest.remove(tile)
    others = tuple(tuple(sorted(plain[13 * k : 13 * k + 13])) for k in range(3))
    gone, wall = rest[: len(rest) - wall_left], tuple(rest[len(rest) - wall_left :])
    thrown = [t for t in gone if t < 34]
    return MahjongState(
        seed=seed, ply=1, wall=wall, hands=(mine, *others), packs=((),) * 4,
        flowers=(tuple(t for t in gone if t >= 34), (), (), ()),
        discards=tuple(tuple(thrown[k::4]) for k in range(4)), phase="turn", turn=0, drawn=tile_of(drawn),
        about_kong=False, responses=((),) * 4, events=(), result=(),
    )  # fmt: skip


# Ready after dropping T1, T2 or T5. The shanten player drops T1 (its tie-break: honours, then fewest neighbours),
# leaving a hand that waits only on T2 and T5, all four of which it holds: it can never win. Dropping T5 leaves
# waits that are still in play and reach 8 fan.
NO_FAN_TRAP = "W6 W7 W8 T1 T2 T2 T2 T2 T3 T4 T5 T5 T5 T5"


def eight_fan_waits(hand: tuple[int, ...]) -> list[int]:
    """The tiles still in play that complete `hand` (13 tiles, no melds) by self-draw with at least 8 fan."""
    flags = {"flowers": 0, "self_drawn": True, "fourth_tile": False, "about_kong": False, "wall_last": False}
    live = [t for t in range(34) if hand.count(t) < 4]
    return [t for t in live if (found := fans((), hand, t, **flags, seat_wind=0)) and counted(found) >= 8]


def test_the_trap_hand_is_ready_either_way_but_can_win_only_without_a_t5():
    state = turn_state(NO_FAN_TRAP, "T5", wall_left=30)
    for discard, can_win in (("T1", False), ("T5", True)):
        hand = GAME.advance(state, ("play", tile_of(discard))).hands[0]
        assert shanten((), hand) == 0
        assert bool(eight_fan_waits(hand)) == can_win


def test_the_search_level_finds_a_discard_that_can_reach_eight_fan_where_the_shanten_player_does_not():
    state = turn_state(NO_FAN_TRAP, "T5", wall_left=30)
    assert mahjong_bots.shanten_player(GAME, state, random.Random(0)) == ("play", tile_of("T1"))
    search = mahjong_bots.LADDER[-1]
    for seed in range(3):
        verb, tile = search.choose(GAME, state, random.Random(seed))
        assert verb == "play"
        assert eight_fan_waits(GAME.advance(state, ("play", tile)).hands[0])


def test_the_search_deals_the_unseen_tiles_without_looking_at_them():
    state = turn_state(NO_FAN_TRAP, "T5", wall_left=30)
    hands = state.hands
    # The same table with the other seats' concealed tiles and the wall dealt differently.
    pool = sorted(t for h in hands[1:] for t in h)
    random.Random(5).shuffle(pool)
    other = replace(
        state,
        hands=(hands[0], *(tuple(sorted(pool[13 * k : 13 * k + 13])) for k in range(3))),
        wall=tuple(sorted(state.wall)),
    )
    world = mahjong_bots.determinise(GAME, state, 0, random.Random(1))
    assert world == mahjong_bots.determinise(GAME, other, 0, random.Random(1))
    assert world.hands[0] == hands[0]
    assert [len(h) for h in world.hands] == [len(h) for h in hands]
    seen = [t for pile in state.discards for t in pile] + list(state.flowers[0])
    assert sorted(world.wall + tuple(t for h in world.hands for t in h) + tuple(seen)) == sorted(wall_for(0))


def test_on_the_ladder_an_exhausted_wall_goes_to_the_seat_nearer_to_ready():
    ready = tiles("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1 B5")
    far = tiles("W1 W2 W5 W9 T3 T4 T9 B2 B3 B8 F1 F1 J1")  # four tiles from ready
    state = replace(
        turn_state(NO_FAN_TRAP, "T5"), hands=(ready, far, far, ready), phase="over", wall=(), result=(-1, -1, ())
    )
    assert GAME.outcome(state).scores == (0.5,) * 4  # the game itself: a drawn hand
    scores = GAME.ladder_scores(state)
    assert scores[0] == scores[3] > scores[1] == scores[2]


def test_a_kong_made_from_an_exposed_pung_can_be_robbed():
    # P1 has an exposed pung of B4 and draws the fourth B4; P4 waits on B1 or B4 (T1–T9, B2 B3, a pair of J3).
    b4 = tile_of("B4")
    state = MahjongState(
        seed=0, ply=20, wall=tiles("W1 W1 W2 W2 W3 W3"),
        hands=(tiles("W5 W6 W7 W8 W9 F1 F1 F2 F3 F4 B4"), tiles("W1 W2 W3 W4 W5 W6 W7 W8 W9 F2 F2 F3 F3"),
               tiles("B6 B6 B7 B7 B8 B8 B9 B9 J1 J1 J2 J2 F4"), tiles("T1 T2 T3 T4 T5 T6 T7 T8 T9 B2 B3 J3 J3")),
        packs=((("PENG", b4, 1),), (), (), ()), flowers=((),) * 4, discards=((),) * 4,
        phase="turn", turn=0, drawn=b4, about_kong=False, responses=((),) * 4, events=(), result=(),
    )  # fmt: skip
    assert ("bugang", b4) in GAME.legal_actions(state)
    rob = GAME.apply(state, ("bugang", b4))
    assert (rob.phase, GAME.current_player(rob), rob.packs[0]) == ("rob", 1, (("GANG", b4, 1),))
    assert GAME.legal_actions(rob) == [("pass",)]  # P2 cannot win on B4
    assert "adds B4 to a pung: answer Hu to rob the kong" in GAME.observation_text(rob, 1)
    rob = GAME.apply(GAME.apply(rob, ("pass",)), ("pass",))
    assert GAME.legal_actions(rob) == [("pass",), ("hu",)]
    won = GAME.apply(rob, ("hu",))
    result = GAME.outcome(won)
    assert result.scores == (0.0, 0.5, 0.5, 1.0)  # P1, who added the tile, pays like a discarder
    assert result.reason.startswith("P4 wins by robbing P1's kong; P1 pays 35, the others 8. 27 fan:")
    assert "Robbing The Kong 8" in result.reason
    assert "Pure Straight 16" in result.reason
    # Nobody robs: the kong's owner draws its replacement tile and plays on.
    passed = GAME.apply(GAME.apply(GAME.apply(GAME.apply(state, ("bugang", b4)), ("pass",)), ("pass",)), ("pass",))
    assert (passed.phase, passed.turn, passed.drawn, passed.about_kong) == ("turn", 0, tile_of("W1"), True)
    assert [e[1] for e in passed.events] == ["bugang"]


def test_the_prevalent_wind_is_east_unless_set_or_drawn():
    assert GAME.initial_state(seed=3).wind == 0
    assert "wind" not in GAME.to_json(GAME.initial_state(seed=3))  # the standard record is unchanged
    drawn = [GAME.initial_state(seed=s, wind="drawn").wind for s in range(40)]
    assert set(drawn) == {0, 1, 2, 3}
    south = GAME.initial_state(seed=3, wind=1)
    assert "prevalent wind South" in GAME.observation_text(south, 0)
    assert GAME.from_json(GAME.to_json(south)) == south
    # A pung of the prevalent wind scores Prevalent Wind (2 fan) only when that wind is prevalent.
    flags = {"flowers": 0, "self_drawn": False, "fourth_tile": False, "about_kong": False, "wall_last": False}
    hand, win = tiles("F2 F2 F2 W1 W2 W3 T4 T5 T6 B7 B8 B9 J1"), tile_of("J1")
    assert "Prevalent Wind" in {f.name for f in fans((), hand, win, **flags, seat_wind=0, prevalent_wind=1)}
    assert "Prevalent Wind" not in {f.name for f in fans((), hand, win, **flags, seat_wind=0, prevalent_wind=0)}


def test_botzone_variant_deals_four_private_walls_without_flowers():
    from dataclasses import replace

    state = GAME.initial_state(seed=5, **GAME.variants["botzone"])
    assert GAME.variant_of({"walls": "botzone", "wind": "drawn"}) == "botzone"
    assert (state.wall, [len(w) for w in state.walls]) == ((), [20, 21, 21, 21])  # 34 each, 13 dealt, East drew
    assert all(t < 34 for hand in state.hands for t in hand)  # no flowers
    assert GAME.player_view(state, 0)["wall"] == 83
    assert "each player draws only from its own (P1 20, P2 21, P3 21, P4 21)" in GAME.observation_text(state, 2)
    # Four W1 in hand: a concealed kong, but not when the next seat's wall (or its own) is empty.
    w1 = tile_of("W1")
    four = replace(state, hands=(tiles("W1 W1 W1 W1 T2 T3 T4 T5 T6 T7 B1 B2 B3 J1"), *state.hands[1:]), drawn=w1)
    assert ("gang", w1) in GAME.legal_actions(four)
    assert ("gang", w1) not in GAME.legal_actions(replace(four, walls=((), *four.walls[1:])))
    last = replace(four, walls=(four.walls[0], (), *four.walls[2:]))
    assert GAME.wall_last(last)
    assert ("gang", w1) not in GAME.legal_actions(last)
    # Nobody claims a discard and the next seat's wall is empty: the hand is drawn.
    state = GAME.apply(last, ("play", tile_of("J1")))
    for _ in range(3):
        state = GAME.apply(state, ("pass",))
    assert (state.phase, state.result) == ("over", (-1, -1, ()))
