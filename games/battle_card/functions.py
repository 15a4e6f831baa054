"""The strategic function of each Battle Card minion and targeting rule (AdvGameBench App. B.3's functional
similarity compares the sets of functions two plans field). Read from Appendix A.2's minion tables; the names
of the functions are Arena's (the paper gives only "defensive formations, offensive pushes, …")."""

from __future__ import annotations

FUNCTIONS: dict[str, frozenset[str]] = {
    name: frozenset(functions)
    for name, functions in (
        ("FireLizard", {"damage", "deathrattle"}),
        ("WaterElemental", {"damage", "scaling"}),
        ("PoisonFrog", {"removal"}),
        ("MoltenHound", {"damage", "deathrattle", "area damage"}),
        ("BattleFrenzy", {"burst damage"}),
        ("BanditLeader", {"burst damage", "area damage"}),
        ("LavaGolem", {"taunt", "durable", "damage over time"}),
        ("TideGuardian", {"divine shield", "damage"}),
        ("TideLord", {"durable", "scaling"}),
        ("Phoenix", {"area damage", "durable"}),
        ("ShadowOverlord", {"deathrattle", "summoning"}),
        ("Sapling", {"scaling"}),
        ("RockBeetle", {"taunt", "durable"}),
        ("ForestSeer", {"buff allies"}),
        ("StoneWarrior", {"taunt", "durable", "deathrattle", "summoning"}),
        ("EliteSoldier", {"buff allies", "divine shield"}),
        ("Paladin", {"divine shield", "durable", "scaling"}),
        ("BlackRock", {"burst damage", "scaling"}),
        ("VineProtector", {"damage", "deathrattle", "healing"}),
        ("King", {"durable", "summoning", "divine shield"}),
        ("MountainGiant", {"taunt", "durable", "weaken"}),
        ("AncientTreant", {"buff allies"}),
        ("target:leftmost", {"front first"}),
        ("target:lowest_health", {"finish the weakest"}),
        ("target:highest_attack", {"remove the biggest threat"}),
    )
}


def strategic_functions(items: frozenset[str]) -> frozenset[str]:
    """The functions a plan fields: its minions ("0:gold LavaGolem": gold or not) and its targeting rule."""
    names = (item.split(":", 1)[1].removeprefix("gold ") if item[:1].isdigit() else item for item in items)
    return frozenset().union(*(FUNCTIONS.get(name, ()) for name in names))
