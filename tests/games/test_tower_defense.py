"""Tower defense: every unit's ability on hand-worked timelines, validation, and the plan protocol.

Timelines use the default 50 ms tick. A demon of speed 2 moves 1,100 sub-units a tick (a cell is
28,000), enters at x = 11 (308,000) and, unblocked, reaches the edge on its 280th move (13.95 s).
A unit in column c stops it at (c + 1)·28,000. The protocol tests at the end run for all three
AdvGameBench games.
"""

from __future__ import annotations

import importlib
import json
import random

import pytest

from games import IllegalAction, get_game
from games.bots import ladder
from games.plan_game import KEEP, canonical, jaccard
from games.tower_defense import TowerDefense
from games.tower_defense.simulate import simulate

GAME = TowerDefense()
OPTIONS = dict(GAME.default_options)


def D(*units: tuple[str, int, int]) -> dict:
    return {"units": [{"unit": n, "x": x, "y": y} for n, x, y in units]}


def A(*demons: tuple[str, int, float]) -> dict:
    return {"units": [{"unit": n, "y": y, "time": t} for n, y, t in demons]}


def fight(defend: dict, attack: dict, **options):
    return simulate(attack, defend, {**OPTIONS, **options})[0]


def events(battle, kind: str) -> list[list]:
    return [e[1:] for e in battle.log["events"] if e[0] == kind]


# -- human units ------------------------------------------------------------------------------


def test_handgun_soldier_kills_a_normal_demon_with_ten_shots_in_nine_seconds():
    battle = fight(D(("HandgunSoldier", 0, 0)), A(("NormalDemon", 0, 0)))
    assert not battle.attacker_won
    assert events(battle, "kill") == [[9000, "NormalDemon", 0, 3]]  # 180 moves: at 110,000, column 3
    assert battle.values == (0.286, -0.286)  # V = 2 × progress − 1, progress 198,000 / 308,000


def test_rifle_soldier_shoots_every_500_ms():
    assert events(fight(D(("RifleSoldier", 0, 0)), A(("NormalDemon", 0, 0))), "kill")[0][0] == 4500


def test_machine_gun_soldier_shoots_every_250_ms():
    assert events(fight(D(("MachineGunSoldier", 0, 0)), A(("NormalDemon", 0, 0))), "kill")[0][0] == 2250


def test_shield_soldier_holds_for_fifteen_blows_then_the_demon_walks_through():
    battle = fight(D(("ShieldSoldier", 5, 0)), A(("NormalDemon", 0, 0)))
    # Blocked at 168,000 after its 128th move (6.35 s); blows at 6.4 s, 7.4 s, … the 15th at 20.4 s;
    # then 153 moves from 20.45 s to the edge.
    assert events(battle, "lost") == [[20400, "ShieldSoldier", 5, 0]]
    assert battle.attacker_won
    assert battle.reason == "NormalDemon reached the left edge in row 0 at 28.05 s"


def test_enhanced_shield_soldier_holds_for_thirty_blows_and_stops_a_bouncing_demon():
    assert events(fight(D(("EnhancedShieldSoldier", 5, 0)), A(("NormalDemon", 0, 0))), "lost")[0][0] == 35400
    bounced = fight(D(("EnhancedShieldSoldier", 5, 0)), A(("BouncingDemon", 0, 0)))
    assert events(bounced, "lost")[0][0] == 35400  # it cannot jump this one, so it has to chew through


def test_flamethrower_burns_one_more_each_second_and_cannot_hurt_a_fire_demon():
    # Shots at 0, 1, 2, 3, 4 s (10 each) and burns at 1, 2, 3, 4, 5 s: 100 damage at 5 s, by the burn.
    burnt = fight(D(("FlamethrowerSoldier", 0, 0)), A(("NormalDemon", 0, 0)))
    assert events(burnt, "kill")[0][0] == 5000
    immune = fight(D(("FlamethrowerSoldier", 0, 0)), A(("FireDemon", 0, 0)))
    assert immune.attacker_won
    assert immune.log["killed"] == 0


def test_ice_soldier_halves_speed_and_frost_demon_ignores_it():
    slowed = fight(D(("IceSoldier", 0, 0)), A(("NormalDemon", 0, 0)))
    # Always slowed: 180 half moves of 550 by the kill at 9 s leave it at 209,000 (column 7), not 110,000.
    assert events(slowed, "kill") == [[9000, "NormalDemon", 0, 7]]
    frost = fight(D(("IceSoldier", 0, 0)), A(("FrostDemon", 0, 0)))
    assert frost.attacker_won
    assert frost.log["killed"] == 0


def test_anti_air_soldier_shoots_flyers_in_adjacent_rows_and_nothing_else_can():
    covered = fight(D(("AntiAirSoldier", 0, 1)), A(("FlyingDemon", 2, 0)))
    assert events(covered, "kill")[0][0] == 9000
    uncovered = fight(D(("HandgunSoldier", 0, 2), ("ShieldSoldier", 5, 2)), A(("FlyingDemon", 2, 0)))
    assert uncovered.reason == "FlyingDemon reached the left edge in row 2 at 13.95 s"  # flew over both
    assert uncovered.log["lost"] == 0


def test_bomb_arms_when_a_demon_enters_its_3x3_and_blasts_it_500_ms_later():
    # The row-1 demon is in column 6 after its 102nd move (5.05 s); the bomb arms at 5.1 s.
    battle = fight(D(("Bomb", 5, 0)), A(("NormalDemon", 1, 0), ("NormalDemon", 1, 2)))
    assert events(battle, "boom") == [[5600, "Bomb", 5, 0, 1]]  # the later demon is still in column 8
    assert battle.attacker_won


def test_linear_explosion_blasts_the_whole_row():
    battle = fight(D(("LinearExplosion", 5, 0)), A(("NormalDemon", 0, 0), ("NormalDemon", 0, 2)))
    assert events(battle, "boom") == [[5600, "LinearExplosion", 5, 0, 2]]
    assert not battle.attacker_won
    assert battle.reason == "every demon was destroyed by 5.6 s"


def test_magnetic_soldier_switches_off_the_shield_demon_defence():
    # Without it a handgun does 3 a shot (70% less): the demon reaches it at 12.7 s, kills it with
    # blows at 12.75/13.75/14.75 s and walks the last cell (26 moves).
    alone = fight(D(("HandgunSoldier", 0, 0)), A(("ShieldDemon", 0, 0)))
    assert alone.reason == "ShieldDemon reached the left edge in row 0 at 16.05 s"
    # With a pulse at 0 s (after the first 3-damage shot) and every 2 s, shots do 10: 3 + 10 × 10 at 10 s.
    pulsed = fight(D(("HandgunSoldier", 0, 0), ("MagneticSoldier", 1, 0)), A(("ShieldDemon", 0, 0)))
    assert events(pulsed, "kill")[0][0] == 10000
    assert not pulsed.attacker_won


def test_light_mage_makes_shots_light_which_pierce_dark_magic():
    demons = A(("NormalDemon", 0, 0), ("ShadowDemon", 0, 0))
    shielded = fight(D(("HandgunSoldier", 0, 0)), demons)
    assert shielded.log["killed"] == 0  # every shot hit the protected NormalDemon for nothing
    lit = fight(D(("HandgunSoldier", 0, 0), ("LightMage", 1, 0)), demons)
    assert events(lit, "kill")[0][:2] == [9000, "NormalDemon"]


def test_rocket_launcher_splashes_demons_within_one_cell_in_the_next_rows():
    battle = fight(D(("RocketLauncherSoldier", 0, 1)), A(("NormalDemon", 1, 0), ("NormalDemon", 0, 0)))
    kills = events(battle, "kill")
    assert [k[0] for k in kills] == [4000, 4000]  # five rockets of 20: the target and its neighbour
    assert sorted(k[2] for k in kills) == [0, 1]


# -- demons -------------------------------------------------------------------------------------


def test_great_demon_survives_a_handgun_and_breaks_through():
    battle = fight(D(("HandgunSoldier", 0, 0)), A(("GreatDemon", 0, 0)))
    assert battle.reason == "GreatDemon reached the left edge in row 0 at 16.05 s"


def test_demon_king_hits_for_five():
    battle = fight(D(("EnhancedShieldSoldier", 5, 0)), A(("DemonKing", 0, 0)))
    assert events(battle, "lost")[0][0] == 11400  # six blows of 50 from 6.4 s


def test_speedy_demon_crosses_an_empty_field_in_half_the_time():
    assert fight(D(), A(("SpeedyDemon", 3, 0))).reason == "SpeedyDemon reached the left edge in row 3 at 6.95 s"
    assert fight(D(), A(("NormalDemon", 3, 0))).reason == "NormalDemon reached the left edge in row 3 at 13.95 s"


def test_machine_demon_halves_shots_and_speeds_up_below_half_health():
    battle = fight(D(("MachineGunSoldier", 0, 0)), A(("MachineDemon", 0, 0)))
    # 40 shots of 5; at half health (20th shot, 4.75 s) it speeds to 1,650 a tick: 104,500 + 165,000.
    assert events(battle, "kill") == [[9750, "MachineDemon", 0, 1]]


def test_bouncing_demon_jumps_the_first_unit():
    battle = fight(D(("ShieldSoldier", 5, 0)), A(("BouncingDemon", 0, 0)))
    # Blocked at 6.35 s, lands at 140,000 at 6.4 s, then 128 moves.
    assert battle.reason == "BouncingDemon reached the left edge in row 0 at 12.8 s"
    assert battle.log["lost"] == 0


def test_shield_breaker_demon_hits_shields_five_times_harder():
    battle = fight(D(("ShieldSoldier", 5, 0)), A(("ShieldBreakerDemon", 0, 0)))
    assert events(battle, "lost")[0][0] == 8400  # three blows of 50 on 150
    assert battle.reason == "ShieldBreakerDemon reached the left edge in row 0 at 16.05 s"


def test_shadow_demon_itself_takes_ordinary_damage():
    battle = fight(D(("HandgunSoldier", 0, 0)), A(("ShadowDemon", 0, 0)))
    assert events(battle, "kill")[0][:2] == [9000, "ShadowDemon"]


def test_summoning_demon_summons_a_normal_demon_one_cell_ahead_every_five_seconds():
    battle = fight(D(), A(("SummoningDemon", 2, 0)))
    # At 5 s the summoner (550 a tick) is at 253,000: the summon appears at 225,000 and needs 205 moves.
    assert events(battle, "summon")[0] == [5000, 2, 8]
    assert battle.reason == "NormalDemon reached the left edge in row 2 at 15.25 s"


def test_no_demons_is_a_defender_win_and_the_time_limit_favours_the_defender():
    assert fight(D(), A()).reason == "the attacker sent no demons"
    stalled = fight(D(*(("EnhancedShieldSoldier", x, 0) for x in range(11))), A(("NormalDemon", 0, 0)), max_seconds=20)
    assert not stalled.attacker_won
    assert stalled.reason.startswith("time limit")


def test_simulation_is_deterministic_and_coarse_ticks_agree_on_the_winner():
    rng = random.Random(5)
    for _ in range(20):
        attack, defend = GAME.random_plan(0, OPTIONS, rng), GAME.random_plan(1, OPTIONS, rng)
        first, second = fight(defend, attack), fight(defend, attack)
        assert first == second
        assert fight(defend, attack, tick_ms=250).attacker_won == first.attacker_won


# -- validation -----------------------------------------------------------------------------------


def kinds(checked) -> list[str]:
    return [kind for kind, _ in checked.violations]


def test_valid_plans_are_normalised_and_costed():
    checked = GAME.validate_plan({"units": [{"unit": "RifleSoldier", "x": 1, "y": 2, "note": "x"}]}, 1, OPTIONS)
    assert checked.plan == {"units": [{"unit": "RifleSoldier", "x": 1, "y": 2}]}
    assert checked.cost == 200
    demons = GAME.validate_plan(
        {"units": [{"unit": "NormalDemon", "y": 0, "time": 1.0}, {"unit": "NormalDemon", "y": 0}]}, 0, OPTIONS
    )
    assert demons.plan == {
        "units": [{"unit": "NormalDemon", "y": 0, "time": 1}, {"unit": "NormalDemon", "y": 0, "time": 0}]
    }
    assert demons.items == frozenset({"NormalDemon@y0@1000ms", "NormalDemon@y0@0ms"})


@pytest.mark.parametrize(
    ("role", "plan", "expected"),
    [
        (1, {"units": [{"unit": "HandgunSoldier", "x": 0, "y": 0}] * 2}, ["rule"]),  # occupied cell
        (1, {"units": [{"unit": "NormalDemon", "x": 0, "y": 0}]}, ["rule"]),  # a demon on the human side
        (1, {"units": [{"unit": "Peashooter", "x": 0, "y": 0}]}, ["rule"]),
        (1, {"units": [{"unit": "HandgunSoldier", "x": 11, "y": 0}]}, ["rule"]),
        (0, {"units": [{"unit": "NormalDemon", "y": 5, "time": 0}]}, ["rule"]),
        (0, {"units": [{"unit": "NormalDemon", "y": 0, "time": 31}]}, ["rule"]),
        (0, {"units": [{"unit": "DemonKing", "y": 0}, {"unit": "ShadowDemon", "y": 0}]}, ["over_budget"]),
        (1, {"units": [{"unit": "RocketLauncherSoldier", "x": x, "y": 0} for x in range(7)]}, ["over_budget"]),
        (0, [1, 2], ["rule"]),
        (0, {"demons": []}, ["rule"]),
    ],
)
def test_rule_violations_are_classified(role, plan, expected):
    checked = GAME.validate_plan(plan, role, OPTIONS)
    assert checked.plan is None
    assert kinds(checked) == expected


# -- the protocol, for all three AdvGameBench games ---------------------------------------------------

PLAN_GAMES = ["tower-defense", "battle-card", "attribute-battle"]


def play(game, state, *texts: str):
    for text in texts:
        state = game.apply(state, game.parse_action(state, text))
    return state


def examples(game, state):
    """A valid example plan for each seat's role in the current leg."""
    index = len(state.legs)
    options = dict(state.options)
    return [canonical(game.example_plans(0 if seat == index % 2 else 1, options)[0]) for seat in (0, 1)]


@pytest.mark.parametrize("slug", PLAN_GAMES)
def test_schedule_roles_alternate_and_the_match_has_two_legs_a_round(slug):
    game = get_game(slug)
    state = game.initial_state(seed=0, rounds=2)
    attackers = []
    while game.current_player(state) is not None:
        attackers.append(len(state.legs) % 2)
        assert game.current_player(state) == (0 if state.pending[0] is None else 1)
        state = play(game, state, *examples(game, state))
    assert [leg.attacker for leg in state.legs] == [0, 1, 0, 1]
    assert attackers == [0, 1, 0, 1]
    assert game.outcome(state) is not None


@pytest.mark.parametrize("slug", PLAN_GAMES)
def test_player_view_hides_a_sealed_plan_from_the_opponent_and_spectators(slug):
    game = get_game(slug)
    state = game.initial_state(seed=0)
    secret = canonical({**game.example_plans(0, dict(state.options))[1], "note": "secret-marker"})
    state = play(game, state, secret)
    for viewer in (1, None):
        view = game.player_view(state, viewer)
        assert "secret-marker" not in json.dumps(view)
        assert view["pending"][0] == {"seat": 0, "name": game.seat_names[0], "sealed": True, "text": None}
    assert "secret-marker" not in game.public_history(state)
    assert "secret-marker" not in game.observation_text(state, 1)
    assert game.player_view(state, 0)["pending"][0]["text"] == secret
    assert game.full_view(state)["pending"][0]["text"] == secret
    state = play(game, state, examples(game, state)[1])
    assert "secret-marker" in json.dumps(game.player_view(state, 1))  # resolved legs are public


@pytest.mark.parametrize("slug", PLAN_GAMES)
def test_keep_revise_decision_info_diff_and_feedback(slug):
    game = get_game(slug)
    state = game.initial_state(seed=0)
    with pytest.raises(IllegalAction, match="round 1"):
        game.apply(state, KEEP)
    first, other = examples(game, state)
    state = play(game, state, first, other)
    state = play(game, state, *examples(game, state))
    assert game.decision_info(state, KEEP) == {"round": 2, "revised": False, "plan_similarity": 1.0}
    revised = canonical(game.example_plans(0, dict(state.options))[1])
    info = game.decision_info(state, revised)
    assert info["round"] == 2
    assert info["revised"] is True
    assert 0.0 <= info["plan_similarity"] < 1.0
    state = play(game, state, revised, KEEP)
    leg = state.legs[2]
    mine, kept = leg.sealed
    assert mine.revised
    assert mine.similarity == info["plan_similarity"]
    assert mine.reacting_to == 0
    before, after = (game.check(s, 0, dict(state.options)).items for s in (first, revised))
    assert mine.similarity == jaccard(before, after)
    assert set(mine.added) == after - before
    assert set(mine.removed) == before - after
    assert kept.text == KEEP
    assert kept.source == other
    assert not kept.revised
    assert kept.similarity == 1.0
    assert kept.added == kept.removed == ()
    assert state.legs[0].feedback[0].startswith("Round 1, leg 1, you were the")
    observation = game.observation_text(state, 1)
    assert "keep" in observation
    assert state.legs[1].feedback[1] in observation
    records = game.records(state)
    assert {r["round"] for r in records} == {1, 2}
    assert len(records) == 6
    assert [r["revised"] for r in records if r["round"] == 2 and r["leg"] == 1] == [True, False]


@pytest.mark.parametrize("slug", PLAN_GAMES)
def test_rule_breaking_plans_forfeit_the_leg_and_are_recorded(slug):
    game = get_game(slug)
    state = game.initial_state(seed=0, budget=1)
    expensive, _ = examples(game, game.initial_state(seed=0))
    state = play(game, state, expensive, "{not json")
    leg = state.legs[0]
    assert leg.winner == -1
    assert leg.values == (-1.0, -1.0)
    assert [k for k, _ in leg.sealed[0].violations][-1] == "over_budget"
    assert leg.sealed[1].violations[0][0] == "rule"
    assert "not valid JSON" in leg.sealed[1].violations[0][1]
    assert leg.sealed[1].text == "{not json"
    records = game.records(state)
    assert records[0]["over_budget"]
    assert records[0]["rule_violation"]
    assert not records[1]["over_budget"]
    assert records[1]["rule_violation"]
    assert "broke the rules" in leg.feedback[0]
    state = game.initial_state(seed=0)
    good = examples(game, state)
    state = play(game, state, good[0], '{"wrong": []}')
    assert state.legs[0].winner == 0
    assert "forfeit" in state.legs[0].reason


@pytest.mark.parametrize("slug", PLAN_GAMES)
def test_text_that_is_not_a_plan_is_illegal_but_fenced_json_is_read(slug):
    game = get_game(slug)
    state = game.initial_state(seed=0)
    for text in ("hello", "e4", ""):
        with pytest.raises(IllegalAction):
            game.parse_action(state, text)
    plan = examples(game, state)[0]
    assert game.parse_action(state, f"```json\n{json.dumps(json.loads(plan), indent=2)}\n```") == plan
    assert game.parse_action(state, "Keep") == KEEP


@pytest.mark.parametrize("slug", PLAN_GAMES)
def test_matches_are_deterministic_and_counted_by_legs(slug):
    game = get_game(slug)
    bots = ladder(slug)

    def run(seed):
        state = game.initial_state(seed=seed, rounds=1)
        rngs = [random.Random(seed), random.Random(seed + 1)]
        while (seat := game.current_player(state)) is not None:
            state = game.apply(state, bots[-1 - seat].choose(game, state, rngs[seat]))
        return state

    first, second = run(3), run(3)
    assert first == second
    wins = [sum(leg.winner == s for leg in first.legs) for s in (0, 1)]
    outcome = game.outcome(first)
    assert outcome.scores == ((0.5, 0.5) if wins[0] == wins[1] else (1.0, 0.0) if wins[0] > wins[1] else (0.0, 1.0))


@pytest.mark.parametrize("slug", PLAN_GAMES)
def test_bots_never_read_the_other_seats_sealed_plan(slug):
    game = get_game(slug)
    top = ladder(slug)[-1]
    state = game.initial_state(seed=1)
    state = play(game, state, *examples(game, state))
    one = play(game, state, canonical(game.example_plans(0, dict(state.options))[0]))
    two = play(game, state, canonical(game.example_plans(0, dict(state.options))[1]))
    assert top.choose(game, one, random.Random(9)) == top.choose(game, two, random.Random(9))


@pytest.mark.parametrize("slug", PLAN_GAMES)
def test_legal_actions_are_representative_valid_plans(slug):
    game = get_game(slug)
    state = game.initial_state(seed=0)
    actions = game.legal_actions(state)
    assert KEEP not in actions
    assert len(actions) >= 2
    assert all(game.check(a, 0, dict(state.options)).plan is not None for a in actions)
    state = play(game, state, *examples(game, state))
    state = play(game, state, *examples(game, state))
    assert game.legal_actions(state)[0] == KEEP


def test_options_are_checked():
    with pytest.raises(ValueError, match="tick_ms"):
        GAME.initial_state(seed=0, tick_ms=30)
    with pytest.raises(ValueError, match="no option"):
        GAME.initial_state(seed=0, lives=3)
    state = GAME.initial_state(seed=0, budget=500, rounds=3)
    assert state.option("attacker_budget") == state.option("defender_budget") == 500


@pytest.mark.parametrize("slug", PLAN_GAMES)
def test_random_heuristic_and_example_plans_are_valid(slug):
    game = get_game(slug)
    heuristic = importlib.import_module(f"games.bots.{slug.replace('-', '_')}").heuristic
    options = dict(game.default_options)
    rng = random.Random(0)
    for _ in range(100):
        for role in (0, 1):
            for plan in (game.random_plan(role, options, rng), heuristic(role, options, rng)):
                assert game.validate_plan(plan, role, options).plan is not None, plan
    for role in (0, 1):
        assert all(game.validate_plan(p, role, options).plan is not None for p in game.example_plans(role, options))


@pytest.mark.parametrize("slug", PLAN_GAMES)
def test_board_and_plan_editor_render_without_leaking_a_sealed_plan(slug):
    from django.template.loader import render_to_string

    game = get_game(slug)
    state = game.initial_state(seed=2)
    state = play(game, state, *examples(game, state))
    controls = render_to_string(f"games/{slug}/controls.html", {"view": game.player_view(state, 0), "game": game})
    assert "data-move-form" in controls
    assert 'name="move"' in controls
    assert 'value="keep"' not in controls  # round 1 of this role: nothing to keep yet
    state = play(game, state, *examples(game, state))
    secret = canonical({**game.example_plans(0, dict(state.options))[1], "note": "secret-marker"})
    state = play(game, state, secret)
    opponent = render_to_string(f"games/{slug}/board.html", {"view": game.player_view(state, 1), "seat": 1})
    spectator = render_to_string(f"games/{slug}/board.html", {"view": game.player_view(state, None), "seat": None})
    assert "secret-marker" not in opponent
    assert "secret-marker" not in spectator
    assert "plan sealed" in spectator
    playback = game.player_view(state, None)["battle"]["playback"]
    assert 1 <= len(playback["frames"]) <= 120
    assert playback["frames"][-1]["next"] == playback["last"]
    assert f'id="{playback["prefix"]}-{playback["last"]}"' in spectator
    controls = render_to_string(f"games/{slug}/controls.html", {"view": game.player_view(state, 1), "game": game})
    assert 'value="keep"' in controls  # round 2: the keep button
    assert controls.rstrip().endswith("</section>")
    assert controls.index('value="keep"') < controls.rindex("data-move-form")  # the plan form comes last
