"""Skirmish: hex geometry, STAR's combat numbers, fog of war, error counts, real-time clock, victory."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games import IllegalAction
from games.bots.skirmish import LADDER
from games.skirmish import Skirmish, classify_command_error
from games.skirmish.hexmap import COLS, ROWS, distance, generate, line_of_sight, mirror, neighbours, terrain_at
from games.skirmish.units import Unit, casualties, critical_mass, max_movement

GAME = Skirmish()
PLAIN = "P" * (COLS * ROWS)


def at(terrain: str, cell: tuple[int, int], kind: str) -> str:
    index = cell[0] * ROWS + cell[1]
    return terrain[:index] + kind + terrain[index + 1 :]


def unit(uid: int, kind: str, col: int, row: int, count: int = 100) -> Unit:
    return Unit(uid, 0 if uid <= 5 else 1, kind, col, row, count, max_movement(kind, count), 2)


def position(*units: Unit, terrain: str = PLAIN, **options):
    return replace(GAME.initial_state(seed=0, **options), terrain=terrain, units=tuple(units))


def play(state, *texts):
    for text in texts:
        state = GAME.apply(state, GAME.parse_action(state, text))
    return state


def test_even_q_hex_geometry():
    assert neighbours(2, 2) == ((1, 2), (1, 3), (2, 1), (2, 3), (3, 2), (3, 3))  # even column: rows r, r+1
    assert neighbours(3, 2) == ((2, 1), (2, 2), (3, 1), (3, 3), (4, 1), (4, 2))  # odd column: rows r-1, r
    assert distance((0, 0), (3, 0)) == 3
    assert distance((0, 0), (3, 2)) == 3  # (0,0)→(1,1)→(2,1)→(3,2)
    assert distance((0, 0), (0, 4)) == 4
    assert distance((1, 0), (5, 0)) == 4
    assert all(distance(mirror(a), mirror(b)) == 1 for a in [(4, 4), (5, 5)] for b in neighbours(*a))


def test_maps_are_point_symmetric_with_plain_deployments():
    for seed in range(5):
        terrain = generate(seed, {(0, 2)})
        assert all(
            terrain_at(terrain, (c, r)) == terrain_at(terrain, mirror((c, r))) for c in range(COLS) for r in range(ROWS)
        )
        assert terrain_at(terrain, (0, 2)) == terrain_at(terrain, (11, 7)) == "P"
    state = GAME.initial_state(seed=3)
    red, blue = state.units[:5], state.units[5:]
    assert [mirror(u.cell) for u in red] == [u.cell for u in blue]


def test_critical_mass_and_casualties_match_hand_worked_numbers():
    assert critical_mass(1.0) == pytest.approx(1.0, abs=1e-4)
    assert critical_mass(0.3) == pytest.approx(0.92)
    assert critical_mass(0.1) == pytest.approx(0.5013, abs=1e-4)
    assert casualties("infantry", 100, "infantry", 0.0) == 20  # 10 × 1 × 20 / 10
    assert casualties("cavalry", 100, "archer", 0.0) == 47  # 14 × 20 / 6 = 46.7
    assert casualties("archer", 100, "infantry", 0.2) == 20  # 12 / 1.2 × 20 / 10
    assert casualties("infantry", 100, "infantry", 0.5) == 13  # mountain: 20 / 1.5 = 13.3
    assert casualties("infantry", 10, "infantry", 0.0) == 10  # σ(0.1) ≈ 0.5013: 10.03
    assert max_movement("cavalry", 59) == 6
    assert max_movement("infantry", 1) == 1


def test_melee_attack_with_counter_attack():
    state = position(unit(1, "infantry", 4, 4), unit(6, "infantry", 5, 4), unit(7, "archer", 11, 9))
    state = play(state, "attack U1 U6")
    # U6 loses 20; it strikes back with σ(0.8) ≈ 0.977: 10 × 0.977 × 20 / 10 × 0.5 = 9.8 → 10.
    assert [(u.uid, u.count, u.ap) for u in state.units[:2]] == [(1, 90, 1), (6, 80, 2)]
    assert "U1 (infantry) attacked U6 (infantry): 20 fell; the counter-attack cost 10." in GAME.public_history(state)


def test_archers_shoot_without_counter_and_terrain_defends():
    terrain = at(PLAIN, (7, 4), "F")
    state = position(unit(4, "archer", 4, 4), unit(6, "infantry", 7, 4), terrain=terrain)
    state = play(state, "attack U4 U6", "attack U4 U6")
    assert [(u.uid, u.count) for u in state.units] == [(4, 100), (6, 60)]
    with pytest.raises(IllegalAction, match="no action points"):
        play(state, "attack U4 U6")


def test_elimination_wins():
    state = position(unit(3, "cavalry", 4, 4), unit(10, "archer", 5, 4, count=40))
    state = play(state, "attack U3 U10")
    assert GAME.outcome(state).scores == (1.0, 0.0)
    assert "whole army" in GAME.outcome(state).reason


def test_turn_limit_counts_survivors():
    state = position(unit(1, "infantry", 0, 0, count=70), unit(6, "infantry", 11, 9, count=60), max_turns=1)
    state = play(state, "end", "end")
    assert GAME.outcome(state).scores == (1.0, 0.0)
    assert GAME.outcome(state).reason == "turn limit: Red has more soldiers (70 to 60)"


def test_movement_costs_and_refresh():
    terrain = at(at(PLAIN, (1, 0), "M"), (2, 0), "W")
    state = position(unit(1, "infantry", 0, 0), unit(6, "infantry", 11, 9), terrain=terrain)
    state = play(state, "move U1 to b1")  # mountain: 3 of 4 points
    assert state.units[0].mp == 1
    with pytest.raises(IllegalAction, match="water"):
        play(state, "move U1 to c1")
    state = play(state, "end", "end")
    assert state.units[0].mp == 4
    assert state.turn == 2


def test_fog_of_war_hides_enemies_out_of_sight_or_behind_forest():
    state = position(unit(1, "infantry", 2, 4), unit(6, "infantry", 4, 4), unit(7, "cavalry", 9, 4))
    view = GAME.player_view(state, 0)
    assert sorted(u["id"] for u in view["units"]) == ["U1", "U6"]
    assert "U7" in {u["id"] for u in GAME.full_view(state)["units"]}
    assert "seed" not in view
    assert "U7" not in GAME.observation_text(state, 0)
    hidden = position(unit(1, "infantry", 2, 2), unit(6, "infantry", 2, 4), terrain=at(PLAIN, (2, 3), "F"))
    assert not line_of_sight(hidden.terrain, (2, 2), (2, 4))
    assert line_of_sight(PLAIN, (2, 2), (2, 4))
    assert [u["id"] for u in GAME.player_view(hidden, 0)["units"]] == ["U1"]
    assert [u["id"] for u in GAME.player_view(hidden, None)["units"]] == []  # spectators: what the enemy sees
    with pytest.raises(IllegalAction, match="not an enemy unit you can see"):
        play(hidden, "attack U1 U6")


def test_march_into_an_unseen_enemy_halts_and_counts_as_a_failed_command():
    state = position(unit(1, "infantry", 0, 4), unit(6, "infantry", 3, 4))  # 3 hexes: out of U1's sight 2
    state = play(state, "move U1 to e5")  # e5 = (4, 4); the path runs through d5 = (3, 4)
    assert state.units[0].cell == (2, 3)
    assert state.units[0].mp == 2
    assert state.failed == (1, 0)
    assert state.spatial == (1, 0)
    assert "ran into an unseen enemy" in GAME.observation_text(state, 0)
    assert "ran into" not in GAME.observation_text(state, 1)


def test_classify_command_error():
    terrain = at(PLAIN, (2, 0), "W")
    state = position(unit(1, "infantry", 0, 0), unit(4, "archer", 5, 5), unit(6, "infantry", 9, 5), terrain=terrain)
    assert classify_command_error(state, "move U1 to c1") == "spatial"  # water
    assert classify_command_error(state, "move U1 to l10") == "spatial"  # out of reach
    assert classify_command_error(state, "move U1 to z4") == "spatial"  # off the map
    assert classify_command_error(state, "attack U4 U6") == "spatial"  # seen 4 hexes away, range 3
    assert classify_command_error(state, "attack U1 U6") == "spatial"
    assert classify_command_error(state, "attack U4 U9") == "other"  # no such unit
    assert classify_command_error(state, "move U6 to a2") == "other"  # not your unit
    assert classify_command_error(state, "charge!") == "other"


def test_real_time_clock_windows_and_late_commands():
    state = position(unit(1, "infantry", 0, 0), unit(6, "infantry", 11, 9), mode="real-time", window_ticks=10)
    assert GAME.action_to_text(state, GAME.legal_actions(state)[0]).startswith("@0 ")
    state = play(state, "@3 move U1 to a2")
    assert state.clock == 4
    assert GAME.current_player(state) == 0
    with pytest.raises(IllegalAction, match="in the past"):
        play(state, "@2 move U1 to a3")
    assert GAME.parse_action(state, "move U1 to a3") == ("move", 1, 0, 2, 4)  # unstamped: arrives now
    state = play(state, "@9 move U1 to a3")  # the last tick of the window closes it
    assert (GAME.current_player(state), state.clock, state.units[1].mp) == (1, 10, 4)
    state = play(state, "@25 move U6 to l9")  # Blue's window closed at 20: dropped, an automatic wait
    assert state.units[1].cell == (11, 9)
    assert state.failed == (0, 1)
    assert state.spatial == (0, 0)
    assert (GAME.current_player(state), state.clock, state.turn) == (0, 20, 2)
    state = play(state, "@21 wait")
    assert (GAME.current_player(state), state.clock) == (1, 30)


def test_turn_based_commands_carry_no_tick():
    state = GAME.initial_state(seed=1)
    with pytest.raises(IllegalAction, match="turn-based"):
        GAME.apply(state, ("end", 5))


def test_bots_finish_games_with_legal_commands():
    for level in (1, 2):
        state = GAME.initial_state(seed=level)
        rng = random.Random(level)
        while GAME.current_player(state) is not None:
            state = GAME.apply(state, LADDER[level].choose(GAME, state, rng))
        assert GAME.outcome(state) is not None


def test_real_time_commands_arrive_after_the_thinking_time():
    from games import get_game

    game = get_game("skirmish")
    state = game.initial_state(seed=3, mode="real-time")
    command = game.legal_actions(state)[0]
    assert game.arrival(state, command, thinking_s=0.0)[-1] == state.clock
    slow = game.arrival(state, command, thinking_s=4.2)
    assert slow[-1] == state.clock + 5  # ceil(4.2 s × 1 tick/s)
    assert game.action_to_text(state, slow).startswith(f"@{state.clock + 5} ")
    turn_based = game.initial_state(seed=3)
    first = game.legal_actions(turn_based)[0]
    assert game.arrival(turn_based, first, thinking_s=9.0) == first


def test_real_time_views_carry_the_timer_facts():
    state = position(unit(1, "infantry", 0, 0), unit(6, "infantry", 11, 9), mode="real-time", window_ticks=10)
    state = play(state, "@3 move U1 to a2")
    for viewer in (0, 1, None):
        view = GAME.player_view(state, viewer)
        assert (view["mode"], view["clock"], view["window_end"], view["ticks_per_second"]) == ("real-time", 4, 10, 1.0)
        assert view["window_s"] == 5  # ⌈5 s × 1 tick/s⌉ = 5 → arrives at tick 9, the window's last
    late = GAME.arrival(state, GAME.legal_actions(state)[0], thinking_s=view["window_s"] + 0.1)
    assert late[-1] == view["window_end"]  # a moment longer and the command is late
    turn_based = GAME.player_view(GAME.initial_state(seed=1), 0)
    assert turn_based["mode"] == "turn-based"
    assert turn_based["window_end"] is None
    assert turn_based["window_s"] is None
    assert turn_based["ticks_per_second"] is None
