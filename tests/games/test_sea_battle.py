"""Sea Battle: known values of the rules, sealed orders, and the bots' judgement in plain positions."""

from __future__ import annotations

import json
import random

import pytest

from games import IllegalAction, get_game
from games.base import Outcome
from games.bots import ladder
from games.sea_battle import HULL, MAX_ROUNDS, SHOT_DAMAGE, SIZE, SeaBattleState, Ship, cell_name

GAME = get_game("sea-battle")


def sea(*ships: Ship, rocks: frozenset = frozenset(), round: int = 0) -> SeaBattleState:
    """A position with `ships` (any ship of A–C, X–Z not given is sunk) and `rocks`."""
    given = {s.name: s for s in ships}
    fleet = tuple(
        given.get(name, Ship(name, team, (team, i), "N", HULL))
        for team, names in enumerate(("ABC", "XYZ"))
        for i, name in enumerate(names)
    )
    return SeaBattleState(seed=0, ply=0, round=round, rocks=rocks, ships=fleet, sealed=(), report=())


def play(state: SeaBattleState, *orders: str) -> SeaBattleState:
    for order in orders:
        state = GAME.apply(state, GAME.parse_action(state, order))
    return state


def ship(state: SeaBattleState, name: str) -> Ship:
    return next(s for s in state.ships if s.name == name)


def test_the_opening_sea_has_three_ships_a_side_and_half_turn_symmetric_rocks():
    state = GAME.initial_state(seed=7)
    assert [(s.name, cell_name(s.cell), s.heading) for s in state.ships] == [
        ("A", "I16", "N"), ("B", "L16", "N"), ("C", "O16", "N"),
        ("X", "P9", "S"), ("Y", "M9", "S"), ("Z", "J9", "S"),
    ]  # fmt: skip
    assert len(state.rocks) == 28
    assert all((SIZE - 1 - r, SIZE - 1 - c) in state.rocks for r, c in state.rocks)
    assert not state.rocks & {s.cell for s in state.ships}
    assert len(GAME.legal_actions(state)) == 16  # 4 moves x 4 broadsides, for ship A
    assert GAME.initial_state(seed=7).rocks == state.rocks != GAME.initial_state(seed=8).rocks


def test_orders_go_a_b_c_then_x_y_z_and_the_round_resolves_after_the_last():
    state = GAME.initial_state(seed=1)
    seats = []
    for _ in range(6):
        seats.append(GAME.current_player(state))
        state = GAME.apply(state, GAME.legal_actions(state)[0])
    assert seats == [0, 0, 0, 1, 1, 1]
    assert (state.round, state.sealed, state.ply) == (1, (), 6)


def test_moves_forward_and_turns():
    state = play(
        sea(Ship("A", 0, (10, 10), "N", 0), Ship("X", 1, (3, 3), "S", 0)),
        "A right none",
        "X left none",
    )
    assert (cell_name(ship(state, "A").cell), ship(state, "A").heading) == ("L10", "E")  # up one, then right one
    assert (cell_name(ship(state, "X").cell), ship(state, "X").heading) == ("E5", "E")  # S then its left is east


def test_a_broadside_hits_the_first_ship_within_three_squares_and_rocks_stop_it():
    a, x, y = Ship("A", 0, (10, 10), "N", 0), Ship("X", 1, (10, 13), "S", 0), Ship("Y", 1, (10, 7), "S", 0)
    state = play(sea(a, x, y), "A stay both", "X stay none", "Y stay none")
    assert ship(state, "X").damage == SHOT_DAMAGE  # starboard of north is east, three squares away
    assert ship(state, "Y").damage == SHOT_DAMAGE
    blocked = play(sea(a, x, y, rocks=frozenset({(10, 12)})), "A stay starboard", "X stay none", "Y stay none")
    assert ship(blocked, "X").damage == 0


def test_rocks_and_collisions_damage_and_stop_ships():
    state = play(
        sea(Ship("A", 0, (10, 10), "N", 0), Ship("X", 1, (8, 10), "S", 0), Ship("Y", 1, (5, 5), "N", 0),
            rocks=frozenset({(4, 5)})),
        "A forward none",
        "X forward none",
        "Y forward none",
    )  # fmt: skip
    assert [(cell_name(ship(state, n).cell), ship(state, n).damage) for n in "AXY"] == [
        ("K11", 1),  # A and X both sailed for K10: both stop, one damage each
        ("K9", 1),
        ("F6", 1),  # Y ran onto the rock at F5
    ]


def test_a_short_hand_played_game_blue_sinks_the_last_red_ship():
    state = sea(Ship("A", 0, (10, 10), "N", 0), Ship("X", 1, (10, 12), "N", HULL - 4))
    state = play(state, "A stay starboard", "X forward none")  # X sails out of the line of fire
    assert ship(state, "X").damage == HULL - 4
    assert GAME.outcome(state) is None
    state = play(state, "A forward starboard", "X stay port")  # both now in row 9: A hits X, X hits A
    assert (ship(state, "A").damage, ship(state, "X").damage) == (SHOT_DAMAGE, HULL - 2)
    state = play(state, "A stay starboard", "X stay none")
    assert not ship(state, "X").afloat
    outcome = GAME.outcome(state)
    assert outcome == Outcome((1.0, 0.0), "Blue sank the whole Red fleet")
    assert GAME.legal_actions(state) == []


def test_fleets_sinking_together_or_outlasting_the_round_limit_draw():
    both = play(
        sea(Ship("A", 0, (10, 10), "N", HULL - 2), Ship("X", 1, (10, 12), "S", HULL - 2)),
        "A stay starboard",
        "X stay starboard",
    )
    assert GAME.outcome(both).scores == (0.5, 0.5)
    late = play(
        sea(Ship("A", 0, (10, 10), "N", 0), Ship("X", 1, (3, 3), "S", 0), round=MAX_ROUNDS - 1),
        "A stay none",
        "X stay none",
    )
    assert GAME.outcome(late).reason == f"both fleets still float after {MAX_ROUNDS} rounds"


def test_orders_stay_sealed_from_the_other_seat_until_the_round_resolves():
    state = play(GAME.initial_state(seed=3), "A forward port")
    assert "A forward port" in json.dumps(GAME.player_view(state, 0))
    assert "A forward port" in json.dumps(GAME.full_view(state))
    for viewer in (1, None):
        assert "forward port" not in json.dumps(GAME.player_view(state, viewer))
    assert "forward port" not in GAME.observation_text(state, 1)
    assert GAME.public_action_text("A forward port") == "(order sealed)"


def test_orders_are_read_forgivingly_and_wrong_ones_explained():
    state = GAME.initial_state(seed=0)
    assert GAME.parse_action(state, " a Forward BOTH.") == ("A", "forward", "both")
    assert GAME.parse_action(state, "left none") == ("A", "left", "none")
    with pytest.raises(IllegalAction, match=r"e\.g\. 'A forward port'"):
        GAME.parse_action(state, "X forward port")  # not X's turn to be ordered
    with pytest.raises(IllegalAction):
        GAME.parse_action(state, "A sideways port")


def test_bots_do_not_fire_on_a_friend_and_do_fire_on_an_enemy():
    state = sea(Ship("A", 0, (10, 10), "N", 0), Ship("B", 0, (10, 12), "N", 0), Ship("X", 1, (10, 8), "N", 0))
    bots = ladder("sea-battle")
    assert bots[2].choose(GAME, state, random.Random(0)) == ("A", "stay", "port")  # X is to port, B to starboard
    for bot in bots[1:]:
        for seed in range(20):
            _, move, fire = bot.choose(GAME, state, random.Random(seed))
            if move == "stay":
                assert fire == "port", (bot.slug, fire)


def test_bots_never_read_the_other_teams_sealed_orders():
    state = play(GAME.initial_state(seed=5), "A forward port", "B forward port", "C forward port")
    blind = SeaBattleState(**{**state.__dict__, "sealed": ()})
    blind = play(blind, "A stay none", "B stay none", "C stay none")
    for bot in ladder("sea-battle"):
        assert bot.choose(GAME, state, random.Random(1)) == bot.choose(GAME, blind, random.Random(1)), bot.slug


def test_every_level_plays_a_whole_game_with_legal_orders_the_same_way_from_the_same_seed():
    bots = ladder("sea-battle")

    def game_record(level: int) -> list:
        state, rng, orders = GAME.initial_state(seed=4), random.Random(4), []
        while (seat := GAME.current_player(state)) is not None:
            action = bots[level if seat == 0 else 0].choose(GAME, state, rng)
            assert GAME.is_legal(state, action)
            orders.append(action)
            state = GAME.apply(state, action)
        return orders

    for level in range(len(bots)):
        assert game_record(level) == game_record(level)


def test_the_prompt_history_is_the_last_rounds_report():
    state = sea(Ship("A", 0, (10, 10), "N", 0), Ship("X", 1, (10, 12), "S", 0))
    assert GAME.public_history(state) == ""
    state = play(state, "A stay starboard", "X forward none")
    assert GAME.public_history(state) == (
        "Round 1:\n- X sails to M12 heading S\n- A fires to starboard and misses"
    )  # X sailed out of the line before A fired
