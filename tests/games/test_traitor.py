"""Are You the Traitor?: known outcomes of a Stop, what each seat may see, treasure and the end of the game."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.base import IllegalAction
from games.traitor import LAPS, PLAYERS, AreYouTheTraitor, points

GAME = AreYouTheTraitor()


def dealt(roles: tuple[str, ...], seed: int = 1):
    return replace(GAME.initial_state(seed=seed), roles=roles)


ROLES = ("good wizard", "traitor", "key holder", "evil wizard", "guard")  # P1 speaks first in round 1


def test_good_wizard_pointing_at_the_traitor_wins_the_round_for_good():
    state = GAME.apply(dealt(ROLES), ("stop", 1))
    assert state.events[-1][4].startswith("good|")
    assert [len(h) for h in state.hands] == [1, 0, 1, 0, 1]  # Good's three draw a card each


def test_a_wrong_point_gives_the_round_to_the_other_team():
    state = GAME.apply(dealt(ROLES), ("stop", 3))  # the Evil Wizard is not the Traitor
    assert state.events[-1][4].startswith("evil|")
    assert sum(len(h) for h in state.hands) == 2


def test_evil_wizard_finding_the_key_holder_wins_for_evil():
    roles = ("evil wizard", "traitor", "key holder", "good wizard", "guard")
    state = GAME.apply(dealt(roles), ("stop", 2))
    assert state.events[-1][4].startswith("evil|")


def test_no_stop_within_three_laps_leaves_the_key_with_evil():
    state = dealt(ROLES)
    for _ in range(LAPS * PLAYERS):
        state = GAME.apply(state, ("say", "hello"))
    assert state.events[-1][4].startswith("evil|no one shouted Stop")
    assert state.round == 2
    assert state.turn == 0


def test_the_traitor_cannot_shout_stop_and_bad_input_is_refused():
    state = replace(dealt(ROLES), turn=1)  # P2, the Traitor, speaks
    with pytest.raises(IllegalAction, match="Traitor cannot"):
        GAME.apply(state, ("stop", 0))
    with pytest.raises(IllegalAction, match="limit is 300"):
        GAME.apply(state, ("say", "x" * 301))
    with pytest.raises(IllegalAction, match="P1–P5"):
        GAME.parse_action(state, "stop P9")


def test_each_seat_sees_only_its_role_and_the_traitor_also_the_key_holder():
    state = dealt(ROLES)
    for seat in range(PLAYERS):
        roles = {p["name"]: p["role"] for p in GAME.player_view(state, seat)["players"] if p["role"]}
        expected = {f"P{seat + 1}": ROLES[seat]} | ({"P3": "key holder"} if ROLES[seat] == "traitor" else {})
        assert roles == expected
    assert all(not p["role"] for p in GAME.player_view(state, None)["players"])
    assert "seed" not in GAME.player_view(state, 0)


def test_a_magic_ring_steals_from_the_other_team():
    state = replace(dealt(ROLES), hands=(("magic ring",), (), (), ("bag of gold",), ()), deck=("silver goblet",) * 10)
    state = GAME.apply(state, ("stop", 1))  # Good wins; P1's ring takes the Evil Wizard's gold
    assert "bag of gold" in state.hands[0]
    assert "magic ring" not in state.hands[0]
    assert state.hands[3] == ()


def test_ten_points_end_the_game_for_the_richest_players_team():
    state = replace(dealt(ROLES), hands=((), (), ("crown jewels",) * 2, (), ()), deck=("bag of gold",) * 10)
    state = GAME.apply(state, ("stop", 1))
    assert points(state.hands[2]) == 13
    assert state.result == "good"
    assert GAME.outcome(state).scores == (1.0, 0.0, 1.0, 0.0, 1.0)
    with pytest.raises(IllegalAction, match="over"):
        GAME.apply(state, ("say", "hi"))


def test_teams_last_the_game_while_roles_are_dealt_again_within_them():
    state = GAME.initial_state(seed=5)
    evil = {s for s, r in enumerate(state.roles) if r in ("traitor", "evil wizard")}
    deals = set()
    while state.result == "" and state.round < 8:
        state = GAME.apply(state, ("say", "hello"))
        assert {s for s, r in enumerate(state.roles) if r in ("traitor", "evil wizard")} == evil
        deals.add(state.roles)
    assert len(deals) > 1  # the roles did change between rounds


def test_only_the_pointed_at_role_is_revealed():
    state = GAME.apply(dealt(ROLES), ("stop", 1))
    assert state.events[-1][4] == "good|P2 was traitor"
