"""Attribute battle: every one of the 36 skills on hand-worked numbers, elements, turn order, validation.

Each skill test sets up a fresh duel (every character at 150 health), has one character use one
skill on one target through the simulator's own `use`, and checks the numbers the rules imply.
Multipliers: Fire → Wood ×1.2, Wood → Fire ×0.8, Earth → Water ×1.2, Water → Earth ×0.8,
Light ↔ Dark ×1.5, everything else ×1; damage rounds down. Protocol behaviour is tested for all
three games in test_tower_defense.py.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from games.attribute_battle import AttributeBattle
from games.attribute_battle.simulate import _Fight, simulate
from games.attribute_battle.skills import multiplier

GAME = AttributeBattle()
OPTIONS = dict(GAME.default_options)
FILLER = {
    "Fire": ["flame_splash", "residual_warmth", "burst_flame_bomb"],
    "Water": ["stream_pierce", "water_barrier", "whirlpool_strangle"],
    "Dark": ["shadow_claw", "fear_whisper", "soul_siphon"],
    "Wood": ["bud_healing", "parasitic_seed", "life_totem"],
    "Earth": ["rock_armor", "earth_shock", "granite_barrier"],
    "Light": ["holy_glimmer", "faith_emblem", "divine_link"],
}


def plan(*elements: str, skills: dict | None = None, priority: str = "first") -> dict:
    chosen = {**FILLER, **(skills or {})}
    return {"characters": [{"element": e, "skills": chosen[e]} for e in elements], "target_priority": priority}


def duel():
    """A fresh fight and its six characters by element."""
    fight = _Fight(plan("Fire", "Water", "Dark"), plan("Wood", "Earth", "Light"), OPTIONS, False)
    return fight, {c.element: c for side in fight.sides for c in side}


# -- Fire -------------------------------------------------------------------------------------------


def test_flame_splash_hits_and_sets_one_burning_layer():
    fight, c = duel()
    fight.use(c["Fire"], "flame_splash", c["Wood"])
    assert c["Wood"].hp == 150 - 14  # 12 × 1.2 = 14.4
    burning = c["Wood"].get("burning")
    assert (burning.value, burning.turns) == (1, 2)
    fight.turn(c["Wood"])  # its turn starts: 5 per layer
    assert c["Wood"].hp == 136 - 5


def test_residual_warmth_adds_thirty_percent_to_the_next_blow_only():
    fight, c = duel()
    fight.use(c["Fire"], "residual_warmth", c["Earth"])
    fight.use(c["Fire"], "burst_flame_bomb", c["Earth"])
    assert c["Earth"].hp == 150 - 32  # 25 × 1.3 = 32.5
    fight.use(c["Fire"], "burst_flame_bomb", c["Earth"])
    assert c["Earth"].hp == 118 - 25


def test_burst_flame_bomb_adds_three_per_burning_layer():
    fight, c = duel()
    fight.use(c["Fire"], "flame_whirlwind", c["Earth"])
    fight.use(c["Fire"], "burst_flame_bomb", c["Earth"])
    assert c["Earth"].hp == 150 - 37  # 25 + 3 × 4


def test_flame_whirlwind_sets_four_layers_for_two_rounds():
    fight, c = duel()
    fight.use(c["Fire"], "flame_whirlwind", c["Earth"])
    assert c["Earth"].hp == 150
    c["Earth"].skills = ["earth_shock", "quicksand_trap", "core_rebound"]  # nothing that shields it
    fight.turn(c["Earth"])
    fight.turn(c["Earth"])
    fight.turn(c["Earth"])
    assert c["Earth"].hp == 150 - 20 - 20  # two ticks of 4 × 5, then it has burnt out
    assert c["Earth"].get("burning") is None


def test_magma_eruption_adds_five_per_layer_then_clears_burning():
    fight, c = duel()
    fight.use(c["Fire"], "flame_whirlwind", c["Earth"])
    fight.use(c["Fire"], "magma_eruption", c["Earth"])
    assert c["Earth"].hp == 150 - 60
    assert c["Earth"].get("burning") is None


def test_hell_curtain_hits_and_its_shield_reflects_what_it_absorbs():
    fight, c = duel()
    fight.use(c["Fire"], "hell_curtain", c["Earth"])
    assert c["Earth"].hp == 115
    fight.use(c["Earth"], "earth_shock", c["Fire"])
    assert c["Fire"].hp == 150  # the 30 shield took all 20 …
    assert c["Earth"].hp == 95  # … and sent them back
    assert c["Fire"].get("hell shield").value == 10


# -- Water ------------------------------------------------------------------------------------------


def test_stream_pierce_hits_for_ten_and_adds_tidal_surge():
    fight, c = duel()
    fight.use(c["Water"], "stream_pierce", c["Wood"])
    assert (c["Wood"].hp, c["Water"].surge) == (140, 1)


def test_water_barrier_shields_five_and_adds_tidal_surge():
    fight, c = duel()
    fight.use(c["Water"], "water_barrier", c["Wood"])
    fight.use(c["Earth"], "earth_shock", c["Water"])
    assert (c["Water"].hp, c["Water"].surge) == (150 - (24 - 5), 1)  # 20 × 1.2, 5 absorbed


def test_whirlpool_strangle_adds_four_per_surge():
    fight, c = duel()
    c["Water"].surge = 2
    fight.use(c["Water"], "whirlpool_strangle", c["Wood"])
    assert c["Wood"].hp == 150 - 28


def test_ice_branded_makes_the_target_take_half_again_until_its_turn():
    fight, c = duel()
    fight.use(c["Water"], "ice_branded", c["Wood"])
    fight.use(c["Dark"], "shadow_claw", c["Wood"])
    assert c["Wood"].hp == 150 - 15 - 21  # 14 × 1.5
    fight.turn(c["Wood"])
    assert c["Wood"].get("vulnerable") is None


def test_tsunami_ending_adds_five_per_surge_then_clears_it():
    fight, c = duel()
    c["Water"].surge = 3
    fight.use(c["Water"], "tsunami_ending", c["Wood"])
    assert (c["Wood"].hp, c["Water"].surge) == (105, 0)


def test_abyss_resonance_hits_three_and_shields_six_per_surge():
    fight, c = duel()
    c["Water"].surge = 2
    fight.use(c["Water"], "abyss_resonance", c["Wood"])
    assert c["Wood"].hp == 144
    assert (c["Water"].get("abyss shield").value, c["Water"].surge) == (12, 2)


# -- Dark -------------------------------------------------------------------------------------------


def test_shadow_claw_heals_thirty_percent_of_the_damage_dealt():
    fight, c = duel()
    c["Dark"].hp = 100
    fight.use(c["Dark"], "shadow_claw", c["Wood"])
    assert (c["Wood"].hp, c["Dark"].hp) == (136, 104)  # 30% of 14 = 4.2


def test_fear_whisper_makes_the_target_deal_ten_percent_less():
    fight, c = duel()
    fight.use(c["Dark"], "fear_whisper", c["Earth"])
    fight.use(c["Earth"], "earth_shock", c["Dark"])
    assert c["Dark"].hp == 150 - 18


def test_soul_siphon_hits_harder_below_half_health():
    fight, c = duel()
    fight.use(c["Dark"], "soul_siphon", c["Wood"])
    assert c["Wood"].hp == 125
    c["Wood"].hp = 70
    fight.use(c["Dark"], "soul_siphon", c["Wood"])
    assert c["Wood"].hp == 30


def test_night_ambush_makes_the_target_take_a_fifth_more():
    fight, c = duel()
    fight.use(c["Dark"], "night_ambush", c["Wood"])
    fight.use(c["Water"], "stream_pierce", c["Wood"])
    assert c["Wood"].hp == 150 - 20 - 12


def test_final_announcement_adds_five_per_tenth_of_health_lost():
    fight, c = duel()
    fight.use(c["Dark"], "final_announcment", c["Wood"])
    assert c["Wood"].hp == 105
    c["Earth"].hp = 100  # a third lost: three tenths
    fight.use(c["Dark"], "final_announcment", c["Earth"])
    assert c["Earth"].hp == 40


def test_void_assimilation_sacrifices_a_fifth_and_pierces_shields():
    fight, c = duel()
    c["Wood"].add("pulse shield", -1, 50)
    fight.use(c["Dark"], "void_assimilation", c["Wood"])
    assert (c["Dark"].hp, c["Wood"].hp, c["Wood"].get("pulse shield").value) == (120, 90, 50)


# -- Wood -------------------------------------------------------------------------------------------


def test_bud_healing_heals_six_on_each_of_the_next_three_turns():
    fight, c = duel()
    c["Wood"].hp = 100
    fight.use(c["Wood"], "bud_healing", c["Fire"])
    for _ in range(4):
        c["Wood"].next = 2  # life_totem would heal too; keep the turns to bud ticks and a known skill
        c["Wood"].skills = ["bud_healing", "parasitic_seed", "parasitic_seed"]
        fight.turn(c["Wood"])
    assert c["Wood"].hp == 118


def test_parasitic_seed_hits_and_costs_the_target_five_whenever_it_attacks():
    fight, c = duel()
    fight.use(c["Wood"], "parasitic_seed", c["Fire"])
    assert c["Fire"].hp == 142  # 10 × 0.8
    fight.use(c["Fire"], "flame_splash", c["Earth"])
    assert c["Fire"].hp == 137


def test_life_totem_heals_and_boosts_healing_received():
    fight, c = duel()
    c["Wood"].hp = 60
    fight.use(c["Wood"], "life_totem", c["Fire"])
    assert c["Wood"].hp == 85
    c["Wood"].hp = 20
    fight.use(c["Wood"], "forest_reincarnation", c["Fire"])
    assert c["Wood"].hp == 20 + 66  # 60 × 1.1


def test_natural_purification_cleanses_the_user_and_hits_for_thirty():
    fight, c = duel()
    c["Wood"].add("burning", 2, 3)
    c["Wood"].add("fear", 3)
    fight.use(c["Wood"], "natural_purification", c["Fire"])
    assert c["Wood"].statuses == []
    assert c["Fire"].hp == 150 - 24  # 30 × 0.8, no longer weakened by fear


def test_forest_reincarnation_turns_half_the_overflow_into_a_shield():
    fight, c = duel()
    c["Wood"].hp = 120
    fight.use(c["Wood"], "forest_reincarnation", c["Fire"])
    assert c["Wood"].hp == 150
    assert c["Wood"].get("forest shield").value == 15
    assert c["Fire"].hp == 134  # 20 × 0.8


def test_poison_vine_deals_twenty_five_on_each_of_three_turns():
    fight, c = duel()
    fight.use(c["Wood"], "poison_vine", c["Water"])
    for _ in range(4):
        c["Water"].skills, c["Water"].next = ["water_barrier", "water_barrier", "water_barrier"], 0
        fight.turn(c["Water"])
    assert c["Water"].hp == 150 - 75 + 5 + 5  # the first barriers absorb 5 of the next ticks


# -- Earth ------------------------------------------------------------------------------------------


def test_rock_armor_shields_twelve_and_bites_attackers_for_five():
    fight, c = duel()
    fight.use(c["Earth"], "rock_armor", c["Water"])
    fight.use(c["Fire"], "flame_splash", c["Earth"])
    assert (c["Earth"].hp, c["Fire"].hp) == (150, 145)
    assert c["Earth"].get("rock shield") is None  # the 12 shield took all 12


def test_earth_shock_hits_for_twenty():
    fight, c = duel()
    fight.use(c["Earth"], "earth_shock", c["Water"])
    assert c["Water"].hp == 126  # × 1.2


def test_granite_barrier_cuts_damage_by_forty_percent():
    fight, c = duel()
    fight.use(c["Earth"], "granite_barrier", c["Water"])
    fight.use(c["Fire"], "burst_flame_bomb", c["Earth"])
    assert c["Earth"].hp == 135


def test_quicksand_trap_slows_the_next_three_attacks_and_costs_ten_each():
    fight, c = duel()
    fight.use(c["Earth"], "quicksand_trap", c["Water"])
    for expected in (144, 138, 132, 124):  # 10 × 0.8 × 0.8 = 6 three times, then 10 × 0.8
        fight.use(c["Water"], "stream_pierce", c["Earth"])
        assert c["Earth"].hp == expected
    assert c["Water"].hp == 120


def test_earth_pulse_shields_eight_per_tenth_of_health_lost():
    fight, c = duel()
    c["Earth"].hp = 90
    fight.use(c["Earth"], "earth_pulse", c["Water"])
    shield = c["Earth"].get("pulse shield")
    assert (shield.value, shield.turns) == (32, -1)


def test_core_rebound_returns_eighty_percent_of_stored_damage():
    fight, c = duel()
    fight.use(c["Fire"], "hell_curtain", c["Earth"])
    fight.use(c["Water"], "stream_pierce", c["Earth"])
    assert c["Earth"].stored == 35 + 8
    fight.use(c["Earth"], "core_rebound", c["Dark"])
    assert (c["Dark"].hp, c["Earth"].stored) == (150 - 34, 0)


# -- Light ------------------------------------------------------------------------------------------


def test_holy_glimmer_removes_a_debuff_heals_eight_and_hits_for_eight():
    fight, c = duel()
    c["Light"].hp = 100
    c["Light"].add("burning", 2, 1)
    fight.use(c["Light"], "holy_glimmer", c["Dark"])
    assert (c["Light"].hp, c["Light"].statuses, c["Dark"].hp) == (108, [], 138)  # 8 × 1.5


def test_faith_emblem_takes_a_fifth_off_heals_it_back_and_stings_the_attacker():
    fight, c = duel()
    fight.use(c["Light"], "faith_emblem", c["Dark"])
    fight.use(c["Dark"], "shadow_claw", c["Light"])
    # 14 × 1.5 = 21: 16 taken, the prevented 5 healed back; the attacker takes 10 and heals 30% of 16.
    assert c["Light"].hp == 150 - 16 + 5
    assert c["Dark"].hp == 150 - 10 + 4
    assert c["Light"].get("faith") is None


def test_divine_link_turns_the_next_blow_back_on_the_attacker():
    fight, c = duel()
    fight.use(c["Light"], "divine_link", c["Dark"])
    fight.use(c["Dark"], "shadow_claw", c["Light"])
    assert (c["Light"].hp, c["Dark"].hp) == (150, 129)
    fight.use(c["Dark"], "shadow_claw", c["Light"])
    assert c["Light"].hp == 129


def test_luminous_dispel_strips_a_buff_and_weakens_the_target():
    fight, c = duel()
    fight.use(c["Water"], "water_barrier", c["Light"])
    fight.use(c["Light"], "luminous_dispel", c["Water"])
    assert c["Water"].get("water shield") is None
    assert c["Water"].get("weakened").turns == 2
    fight.use(c["Water"], "stream_pierce", c["Wood"])
    assert c["Wood"].hp == 142  # 10 × 0.85


def test_angelic_sanctuary_takes_thirty_off_every_blow():
    fight, c = duel()
    fight.use(c["Light"], "angelic_sanctuary", c["Dark"])
    fight.use(c["Fire"], "burst_flame_bomb", c["Light"])
    assert c["Light"].hp == 150
    fight.use(c["Dark"], "soul_siphon", c["Light"])
    assert c["Light"].hp == 143  # 25 × 1.5 - 30


def test_divine_sword_hits_and_adds_twenty_to_the_next_blow():
    fight, c = duel()
    fight.use(c["Light"], "divine_sword", c["Dark"])
    assert c["Dark"].hp == 120
    fight.use(c["Light"], "holy_glimmer", c["Dark"])
    assert c["Dark"].hp == 120 - 42  # (8 + 20) × 1.5


# -- rules ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attacker", "target", "value"),
    [
        ("Fire", "Wood", Fraction(6, 5)),
        ("Wood", "Fire", Fraction(4, 5)),
        ("Earth", "Water", Fraction(6, 5)),
        ("Water", "Earth", Fraction(4, 5)),
        ("Light", "Dark", Fraction(3, 2)),
        ("Dark", "Light", Fraction(3, 2)),
        ("Water", "Fire", Fraction(6, 5)),
        ("Wood", "Earth", Fraction(6, 5)),
        ("Fire", "Earth", 1),
        ("Water", "Wood", 1),
    ],
)
def test_element_multipliers(attacker, target, value):
    assert multiplier(attacker, target) == value


def test_invaders_act_first_in_plan_order_and_skills_cycle():
    invaders = plan("Dark", "Fire", "Water", skills={"Dark": ["shadow_claw", "fear_whisper", "soul_siphon"]})
    battle, frames = simulate(invaders, plan("Earth", "Wood", "Light"), OPTIONS, frames=True)
    actors = [f["text"].split(":")[0] for f in frames[:7]]
    assert actors == ["R1 I Dark", "R1 I Fire", "R1 I Water", "R1 D Earth", "R1 D Wood", "R1 D Light", "R2 I Dark"]
    darks = [f["text"] for f in frames if f["text"].startswith(("R1 I Dark", "R2 I Dark", "R3 I Dark", "R4 I Dark"))]
    assert [t.split(": ")[1].split(" ")[0] for t in darks] == [
        "shadow_claw",
        "fear_whisper",
        "soul_siphon",
        "shadow_claw",
    ]
    assert battle.initiative == 0


def test_the_round_limit_goes_to_the_larger_share_of_health():
    battle = GAME.simulate(plan("Fire", "Water", "Dark"), plan("Wood", "Earth", "Light"), {**OPTIONS, "max_rounds": 1})
    assert battle.reason.startswith("round limit (1)")
    assert battle.attacker_won == (battle.values[0] > 0)


@pytest.mark.parametrize(
    ("role", "change", "expected"),
    [
        (0, {"characters": []}, ["rule"]),
        (0, {"characters": [{"element": "Fire", "skills": ["flame_splash"] * 3}] * 3}, ["rule"] * 4),
        (
            1,
            {"characters": [{"element": "Wood", "skills": ["earth_shock", "rock_armor", "bud_healing"]}]},
            ["rule", "rule"],
        ),
        (0, {"target_priority": "weakest"}, ["rule"]),
    ],
)
def test_rule_violations_are_classified(role, change, expected):
    base = plan(*(("Fire", "Water", "Dark") if role == 0 else ("Wood", "Earth", "Light")))
    checked = GAME.validate_plan({**base, **change}, role, OPTIONS)
    assert checked.plan is None
    assert [k for k, _ in checked.violations] == expected


def test_skill_budget_is_checked_over_all_nine_skills():
    dear = {"Fire": ["magma_eruption", "hell_curtain", "flame_splash"]}  # 7 of the 15
    ok = GAME.validate_plan(plan("Fire", "Water", "Dark", skills=dear), 0, OPTIONS)
    assert ok.plan is not None
    assert ok.cost == 7 + 4 + 4
    dearer = {**dear, "Water": ["tsunami_ending", "abyss_resonance", "ice_branded"]}
    over = GAME.validate_plan(plan("Fire", "Water", "Dark", skills=dearer), 0, OPTIONS)
    assert [k for k, _ in over.violations] == ["over_budget"]
    assert over.cost == 7 + 8 + 4
