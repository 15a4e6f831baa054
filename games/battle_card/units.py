"""Battle card minions (AdvGameBench A.2.2–A.2.3), elements, and plan validation.

Elements are not in the paper's tables; they are assigned from the units' names (docs/games.md):
Fire beats Nature, Nature beats Water, Water beats Earth, Earth beats Fire; Neutral has no edge.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.plan_game import OVER_BUDGET, RULE, Checked

MAX_MINIONS = 7
GOLD_COST = 3  # a gold minion costs 3× and doubles every number (stats and numeric effects)
PRIORITIES = ("leftmost", "lowest_health", "highest_attack")
BEATS = {"Fire": "Nature", "Nature": "Water", "Water": "Earth", "Earth": "Fire"}


@dataclass(frozen=True)
class Minion:
    name: str
    attack: int
    health: int
    cost: int
    element: str
    ability: str
    taunt: bool = False
    shield: bool = False


INVADERS = {
    m.name: m
    for m in (
        Minion("FireLizard", 2, 2, 1, "Fire", "Deathrattle: 2 damage to the minion that killed it."),
        Minion("WaterElemental", 2, 2, 1, "Water", "Gains +1 Attack each time it attacks (before the blow)."),
        Minion("PoisonFrog", 1, 1, 2, "Nature", "Destroys any minion it damages."),
        Minion("MoltenHound", 3, 1, 2, "Fire", "Deathrattle: 1 damage to every enemy."),
        Minion("BattleFrenzy", 7, 4, 2, "Neutral", "Loses 4 Attack after each attack."),
        Minion("BanditLeader", 8, 3, 3, "Neutral", "Excess damage of a killing blow carries to the next enemy."),
        Minion("LavaGolem", 1, 8, 3, "Fire", "Taunt. A minion that attacks it burns: 3 damage per turn.", taunt=True),
        Minion("TideGuardian", 4, 2, 3, "Water", "Divine Shield. Attacks twice each turn.", shield=True),
        Minion("TideLord", 4, 9, 5, "Water", "Doubles its Attack whenever it takes damage."),
        Minion("Phoenix", 5, 5, 5, "Fire", "Also hits the target's neighbours. Revives once with full Health."),
        Minion("ShadowOverlord", 4, 4, 5, "Neutral", "Deathrattle: summon a 3/1 Slow Skeleton."),
    )
}
DEFENDERS = {
    m.name: m
    for m in (
        Minion("Sapling", 2, 2, 1, "Nature", "Gains +1 Health each time it attacks."),
        Minion("RockBeetle", 1, 5, 1, "Earth", "Taunt.", taunt=True),
        Minion("ForestSeer", 2, 2, 2, "Nature", "Start: other Nature allies get +1 Attack and +2 Health."),
        Minion("StoneWarrior", 2, 5, 2, "Earth", "Taunt. Deathrattle: summon a RockBeetle.", taunt=True),
        Minion("EliteSoldier", 1, 1, 2, "Neutral", "Start: adjacent allies get Divine Shield and +1 Attack."),
        Minion(
            "Paladin", 3, 6, 3, "Neutral", "Divine Shield. +2 Attack whenever an ally loses Divine Shield.", shield=True
        ),
        Minion("BlackRock", 5, 1, 3, "Earth", "Start: +3 Health for each other ally."),
        Minion("VineProtector", 5, 4, 3, "Nature", "Deathrattle: restore 2 Health to all allies."),
        Minion("King", 3, 10, 5, "Neutral", "Each attack first summons a 2/2 Soldier with Divine Shield."),
        Minion("MountainGiant", 4, 9, 5, "Earth", "Taunt. A minion that attacks it loses 2 Attack.", taunt=True),
        Minion("AncientTreant", 4, 4, 5, "Nature", "Start: all other allies get +3 Attack and +3 Health."),
    )
}
TOKENS = {
    "SlowSkeleton": Minion("SlowSkeleton", 3, 1, 0, "Neutral", "Summoned by ShadowOverlord."),
    "Soldier": Minion("Soldier", 2, 2, 0, "Neutral", "Summoned by King.", shield=True),
    "RockBeetle": DEFENDERS["RockBeetle"],
}
TABLES = (INVADERS, DEFENDERS)


def unit_cost(name: str, gold: bool, role: int) -> int:
    return TABLES[role][name].cost * (GOLD_COST if gold else 1)


def validate(document: Any, role: int, options: dict[str, int]) -> Checked:
    """Check a plan for `role` (0 invader, 1 defender)."""
    who = ("invader", "defender")[role]
    budget = options[f"{who}_budget"]
    if not isinstance(document, dict) or not isinstance(document.get("minions"), list):
        return Checked(None, ((RULE, 'The plan must be a JSON object with a "minions" list.'),), 0, frozenset())
    violations: list[tuple[str, str]] = []
    priority = document.get("target_priority", "leftmost")
    if priority not in PRIORITIES:
        violations.append((RULE, f"target_priority must be one of {', '.join(PRIORITIES)}, got {priority!r}."))
    minions = document["minions"]
    if len(minions) > MAX_MINIONS:
        violations.append((RULE, f"At most {MAX_MINIONS} minions; the plan has {len(minions)}."))
    cost = 0
    chosen: list[dict[str, Any]] = []
    items = [f"target:{priority}"]
    for i, entry in enumerate(minions):
        if isinstance(entry, str):
            entry = {"unit": entry}
        name = entry.get("unit") if isinstance(entry, dict) else None
        gold = entry.get("gold", False) if isinstance(entry, dict) else False
        if name not in TABLES[role]:
            hint = f"{name} is a {('defender', 'invader')[role]} minion. " if name in TABLES[1 - role] else ""
            violations.append((RULE, f"minions[{i}]: {hint}Unknown {who} minion {name!r}."))
            continue
        if not isinstance(gold, bool):
            violations.append((RULE, f"minions[{i}] ({name}): gold must be true or false, got {gold!r}."))
            continue
        cost += unit_cost(name, gold, role)
        chosen.append({"unit": name, "gold": gold})
        items.append(f"{i}:{'gold ' if gold else ''}{name}")
    if cost > budget:
        violations.append((OVER_BUDGET, f"Total cost {cost} is over the {who} budget of {budget}."))
    plan = None if violations else {"minions": chosen, "target_priority": priority}
    return Checked(plan, tuple(violations), cost, frozenset(items))


def random_plan(role: int, options: dict[str, int], rng: random.Random) -> dict[str, Any]:
    """Lv0's plan: random affordable minions (a few gold), random order and priority."""
    budget = options[f"{('invader', 'defender')[role]}_budget"]
    minions: list[dict[str, Any]] = []
    names = list(TABLES[role])
    while len(minions) < MAX_MINIONS and not (minions and rng.random() < 0.1):
        gold = rng.random() < 0.2
        options_now = [n for n in names if unit_cost(n, gold, role) <= budget]
        if not options_now:
            break
        name = rng.choice(options_now)
        budget -= unit_cost(name, gold, role)
        minions.append({"unit": name, "gold": gold})
    return {"minions": minions, "target_priority": rng.choice(PRIORITIES)}


def example_plans(role: int, options: dict[str, int]) -> list[dict[str, Any]]:
    budget = options[f"{('invader', 'defender')[role]}_budget"]
    if role == 0:
        lists = [
            ["LavaGolem", "BattleFrenzy", "MoltenHound", "FireLizard", "WaterElemental"],
            ["TideGuardian", "BanditLeader", "PoisonFrog", "FireLizard"],
        ]
    else:
        lists = [
            ["StoneWarrior", "EliteSoldier", "Paladin", "RockBeetle", "Sapling"],
            ["RockBeetle", "BlackRock", "VineProtector", "Sapling"],
        ]
    plans = []
    for names in lists:
        kept: list[dict[str, Any]] = []
        for name in names:
            if sum(unit_cost(m["unit"], False, role) for m in kept) + unit_cost(name, False, role) <= budget:
                kept.append({"unit": name, "gold": False})
        plans.append({"minions": kept, "target_priority": "leftmost"})
    return plans
