"""Battle card: every minion's ability on a hand-worked fight, initiative, elements, gold, validation.

Reminders for reading the numbers: combat is mutual (the target strikes back), a striker whose
element beats the target's deals +50% (at least +1: Fire > Nature > Water > Earth > Fire), the
side with more minions acts first (the invader on a tie), and dead minions' deathrattles fire
after each attack. Protocol behaviour is tested for all three games in test_tower_defense.py.
"""

from __future__ import annotations

import pytest

from games.battle_card import BattleCard
from games.battle_card.simulate import simulate

GAME = BattleCard()
OPTIONS = dict(GAME.default_options)


def side(*names: str, priority: str = "leftmost") -> dict:
    """A line-up; a name starting 'gold ' is a gold minion."""
    return {
        "minions": [{"unit": n.removeprefix("gold "), "gold": n.startswith("gold ")} for n in names],
        "target_priority": priority,
    }


def fight(invaders: dict, defenders: dict):
    battle, frames = simulate(invaders, defenders, OPTIONS, snapshots=True)
    return battle, frames


def board(frame: dict) -> tuple[list, list]:
    """(invaders, defenders) as (name, attack, health, shield) tuples."""
    return tuple([(c["name"], c["atk"], c["hp"], c["shield"]) for c in frame["sides"][s]] for s in (0, 1))  # type: ignore[return-value]


# -- invaders ------------------------------------------------------------------------------------


def test_fire_lizard_deathrattle_hits_its_killer_for_two():
    battle, frames = fight(side("FireLizard"), side("RockBeetle"))
    # Lizard deals 2 (5 → 3) and takes 1 + 1 (Earth beats Fire); its deathrattle takes the beetle to 1.
    assert frames[1]["text"] == "I FireLizard → RockBeetle: deals 2, takes 2; I FireLizard dies"
    assert board(frames[-1]) == ([], [("RockBeetle", 1, 1, False)])
    assert not battle.attacker_won


def test_water_elemental_gains_attack_before_its_blow():
    _, frames = fight(side("WaterElemental"), side("King"))
    assert frames[1]["text"].startswith("I WaterElemental → King: deals 3")
    assert board(frames[-1])[1] == [("King", 3, 7, False)]


def test_poison_frog_destroys_what_it_damages_and_a_double_wipe_goes_to_the_invader():
    battle, frames = fight(side("PoisonFrog"), side("MountainGiant"))
    assert (
        frames[1]["text"] == "I PoisonFrog → MountainGiant: deals 1, takes 4; I PoisonFrog dies; D MountainGiant dies"
    )
    assert battle.attacker_won
    assert battle.reason == "both sides were wiped out together: the invader wins"


def test_molten_hound_deathrattle_hits_every_enemy():
    battle, frames = fight(side("MoltenHound"), side("RockBeetle", "Sapling"))
    assert battle.initiative == 1  # two minions against one: the defender starts
    assert board(frames[-1])[1] == [("RockBeetle", 1, 1, False), ("Sapling", 2, 1, False)]  # 5-3-1, 2-1


def test_battle_frenzy_loses_four_attack_after_each_attack():
    _, frames = fight(side("BattleFrenzy"), side("King"))
    assert frames[1]["text"] == "I BattleFrenzy → King: deals 7, takes 3"
    assert board(frames[1])[0] == [("BattleFrenzy", 3, 1, False)]


def test_bandit_leader_carries_excess_damage_to_the_next_enemy():
    battle, frames = fight(side("BanditLeader", "FireLizard"), side("Sapling", "Sapling"))
    assert frames[1]["text"] == "I BanditLeader → Sapling: deals 8, takes 2; D Sapling dies; D Sapling dies"
    assert battle.attacker_won
    assert battle.log["attacks"] == 1


def test_lava_golem_is_a_taunt_that_burns_its_attacker_each_turn():
    _, frames = fight(side("FireLizard", "LavaGolem"), side("King"))
    texts = [f["text"] for f in frames]
    assert texts[2] == "D King → LavaGolem: deals 3, takes 1"  # the taunt, not the lizard
    assert texts[4] == "D King burns for 3"
    assert board(frames[4])[1][0] == ("King", 3, 1, False)  # 10 - 2 - 2 - 1 - 1 - 3


def test_tide_guardian_has_divine_shield_and_attacks_twice():
    _, frames = fight(side("TideGuardian", "FireLizard"), side("King"))
    assert [f["text"][:22] for f in frames[1:3]] == ["I TideGuardian → King:"] * 2
    assert board(frames[1])[0][0] == ("TideGuardian", 4, 2, False)  # the shield took the first strike back
    assert board(frames[2])[1] == [("King", 3, 2, False)]


def test_tide_lord_doubles_its_attack_when_damaged():
    battle, frames = fight(side("TideLord"), side("RockBeetle"))
    assert frames[1]["text"].startswith("I TideLord → RockBeetle: deals 6")  # Water beats Earth: 4 + 2
    assert board(frames[-1])[0] == [("TideLord", 8, 8, False)]
    assert battle.attacker_won


def test_phoenix_hits_the_neighbours_and_revives_once():
    _, frames = fight(side("Phoenix"), side("Sapling", "MountainGiant", "Sapling"))
    assert frames[2]["text"] == (
        "I Phoenix → MountainGiant: deals 5, takes 6; I Phoenix dies; I Phoenix revives; D Sapling dies"
    )
    assert board(frames[2]) == ([("Phoenix", 3, 5, False)], [("MountainGiant", 4, 4, False)])  # giant: -2 attack
    assert frames[3]["text"] == "D MountainGiant → Phoenix: deals 6, takes 3; I Phoenix dies"  # no second life


def test_shadow_overlord_leaves_a_slow_skeleton():
    _, frames = fight(side("ShadowOverlord"), side("King"))
    assert board(frames[2])[0] == [("SlowSkeleton", 3, 1, False)]
    assert frames[3]["text"].startswith("I SlowSkeleton → King: deals 3")


# -- defenders ------------------------------------------------------------------------------------


def test_sapling_gains_health_when_it_attacks():
    _, frames = fight(side("WaterElemental"), side("Sapling", "RockBeetle"))
    assert frames[1]["text"] == "D Sapling → WaterElemental: deals 3, takes 2; I WaterElemental dies"
    assert frames[1]["sides"][1][0]["max"] == 3
    assert frames[1]["sides"][1][0]["hp"] == 1


def test_rock_beetle_taunt_overrides_target_priority():
    _, frames = fight(side("BattleFrenzy", priority="highest_attack"), side("Paladin", "RockBeetle"))
    assert frames[2]["text"].startswith("I BattleFrenzy → RockBeetle")


def test_forest_seer_buffs_the_other_nature_allies():
    _, frames = fight(side("FireLizard"), side("ForestSeer", "Sapling", "RockBeetle"))
    assert board(frames[0])[1] == [("ForestSeer", 2, 2, False), ("Sapling", 3, 4, False), ("RockBeetle", 1, 5, False)]


def test_stone_warrior_leaves_a_rock_beetle():
    battle, frames = fight(side("BanditLeader"), side("StoneWarrior"))
    assert board(frames[1]) == ([("BanditLeader", 8, 1, False)], [("RockBeetle", 1, 5, False)])
    assert battle.attacker_won  # the beetle and the bandit then kill each other


def test_elite_soldier_shields_and_sharpens_its_neighbours():
    _, frames = fight(side("FireLizard"), side("Sapling", "EliteSoldier", "King"))
    assert board(frames[0])[1] == [("Sapling", 3, 2, True), ("EliteSoldier", 1, 1, False), ("King", 4, 10, True)]


def test_paladin_gains_two_attack_when_an_ally_loses_its_shield():
    _, frames = fight(side("BattleFrenzy", "BattleFrenzy"), side("Paladin", "EliteSoldier", "Sapling"))
    assert board(frames[0])[1][0] == ("Paladin", 4, 6, True)
    assert board(frames[1])[1][0] == ("Paladin", 6, 6, False)


def test_black_rock_gains_three_health_per_ally_and_gold_doubles_every_number():
    _, frames = fight(side("FireLizard"), side("BlackRock", "Sapling", "Sapling"))
    assert board(frames[0])[1][0] == ("BlackRock", 5, 7, False)
    _, golden = fight(side("FireLizard"), side("gold BlackRock", "Sapling", "Sapling"))
    assert board(golden[0])[1][0] == ("BlackRock", 10, 14, False)  # 10/2 and +6 per ally
    assert golden[1]["text"].startswith("D gold BlackRock → FireLizard: deals 15")  # Earth beats Fire: +5


def test_vine_protector_heals_its_allies_when_it_dies():
    _, frames = fight(side("MoltenHound", "MoltenHound"), side("VineProtector", "King"))
    # The hound's deathrattle takes the King to 9; the vine's restores it to 10.
    assert board(frames[1])[1] == [("King", 3, 10, False)]


def test_king_summons_a_shielded_soldier_each_time_it_attacks():
    _, frames = fight(side("LavaGolem"), side("King"))
    assert board(frames[2])[1] == [("King", 3, 8, False), ("Soldier", 2, 2, True)]


def test_mountain_giant_saps_two_attack_from_its_attacker():
    _, frames = fight(side("TideLord"), side("MountainGiant"))
    assert board(frames[1])[0] == [("TideLord", 6, 5, False)]  # 4, doubled by the strike back, then -2


def test_ancient_treant_buffs_all_other_allies():
    _, frames = fight(side("FireLizard"), side("AncientTreant", "RockBeetle"))
    assert board(frames[0])[1] == [("AncientTreant", 4, 4, False), ("RockBeetle", 4, 8, False)]


# -- rules --------------------------------------------------------------------------------------------


def test_initiative_goes_to_the_bigger_side_and_to_the_invader_on_a_tie():
    assert fight(side("FireLizard"), side("RockBeetle"))[0].initiative == 0
    assert fight(side("FireLizard"), side("RockBeetle", "Sapling"))[0].initiative == 1
    assert fight(side("FireLizard", "FireLizard"), side("RockBeetle"))[0].initiative == 0


def test_empty_sides_and_stalls():
    assert fight(side(), side())[0].reason == "nobody fielded minions"
    assert not fight(side(), side())[0].attacker_won
    assert fight(side("FireLizard"), side())[0].attacker_won
    stalled = GAME.simulate(side("LavaGolem"), side("RockBeetle", "RockBeetle"), {**OPTIONS, "max_attacks": 2})
    assert not stalled.attacker_won
    assert "stalls" in stalled.reason


@pytest.mark.parametrize(
    ("role", "plan", "expected"),
    [
        (0, {"minions": ["FireLizard"] * 8}, ["rule"]),
        (0, {"minions": [{"unit": "Sapling"}]}, ["rule"]),  # a defender minion for the invader
        (1, {"minions": [{"unit": "King", "gold": True}]}, ["over_budget"]),  # 15 > 10
        (1, {"minions": [{"unit": "King"}], "target_priority": "random"}, ["rule"]),
        (1, {"minions": [{"unit": "King", "gold": "yes"}]}, ["rule"]),
        (0, {"units": []}, ["rule"]),
    ],
)
def test_rule_violations_are_classified(role, plan, expected):
    checked = GAME.validate_plan(plan, role, OPTIONS)
    assert checked.plan is None
    assert [k for k, _ in checked.violations] == expected


def test_plans_normalise_and_items_index_positions():
    checked = GAME.validate_plan({"minions": ["FireLizard", {"unit": "Phoenix", "gold": False}]}, 0, OPTIONS)
    assert checked.plan == {
        "minions": [{"unit": "FireLizard", "gold": False}, {"unit": "Phoenix", "gold": False}],
        "target_priority": "leftmost",
    }
    assert checked.cost == 6
    assert checked.items == frozenset({"target:leftmost", "0:FireLizard", "1:Phoenix"})


def test_value_is_the_share_of_health_kept_minus_the_enemys():
    battle, _ = fight(side("TideLord"), side("RockBeetle"))
    assert battle.values == (round(8 / 9 - 0, 3), -round(8 / 9, 3))
