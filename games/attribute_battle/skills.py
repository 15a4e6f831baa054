"""Attribute battle skills (AdvGameBench A.3.2–A.3.3), elements, and plan validation."""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.plan_game import OVER_BUDGET, RULE, Checked

ELEMENTS = (("Fire", "Water", "Dark"), ("Wood", "Earth", "Light"))  # by role: invader, defender
BEATS = {"Fire": "Wood", "Wood": "Earth", "Earth": "Water", "Water": "Fire"}
PRIORITIES = ("first", "lowest_hp", "highest_hp", "element")


def multiplier(attacker: str, target: str) -> Fraction:
    """A.3.1 rule 4: ×1.2 effective, ×0.8 resisted, Light and Dark ×1.5 against each other."""
    if {attacker, target} == {"Light", "Dark"}:
        return Fraction(3, 2)
    if BEATS.get(attacker) == target:
        return Fraction(6, 5)
    if BEATS.get(target) == attacker:
        return Fraction(4, 5)
    return Fraction(1)


@dataclass(frozen=True)
class Skill:
    name: str
    element: str
    cost: int
    text: str


SKILLS = {
    s.name: s
    for s in (
        Skill("flame_splash", "Fire", 1, "12 damage; +1 Burning layer (5 per layer per round) for 2 rounds."),
        Skill("residual_warmth", "Fire", 1, "Your next damaging skill deals +30%."),
        Skill("burst_flame_bomb", "Fire", 2, "25 damage +3 per Burning layer on the target."),
        Skill("flame_whirlwind", "Fire", 2, "+4 Burning layers on the target for 2 rounds."),
        Skill("magma_eruption", "Fire", 3, "40 damage +5 per Burning layer, then removes its Burning."),
        Skill("hell_curtain", "Fire", 3, "35 damage; you get a 30 shield for 2 rounds that reflects what it absorbs."),
        Skill("stream_pierce", "Water", 1, "10 damage; +1 permanent Tidal Surge."),
        Skill("water_barrier", "Water", 1, "5 shield for 3 rounds; +1 Tidal Surge."),
        Skill("whirlpool_strangle", "Water", 2, "20 damage +4 per Tidal Surge."),
        Skill("ice_branded", "Water", 2, "15 damage; the target takes +50% damage until its next turn."),
        Skill("tsunami_ending", "Water", 3, "30 damage +5 per Tidal Surge, then clears your Tidal Surge."),
        Skill("abyss_resonance", "Water", 3, "3 damage per Tidal Surge; shield 6 per Tidal Surge for 3 rounds."),
        Skill("shadow_claw", "Dark", 1, "14 damage; heals you 30% of the damage dealt."),
        Skill("fear_whisper", "Dark", 1, "The target deals 10% less damage for 3 rounds."),
        Skill("soul_siphon", "Dark", 2, "25 damage, +15 if the target is below 50% health."),
        Skill("night_ambush", "Dark", 2, "20 damage; the target takes +20% damage until its next turn."),
        Skill("final_announcment", "Dark", 3, "45 damage +5 per 10% of health the target has lost."),
        Skill("void_assimilation", "Dark", 3, "Sacrifice 20% of your health; deal twice that, ignoring shields."),
        Skill("bud_healing", "Wood", 1, "Heal 6 at the start of each of your next 3 turns."),
        Skill("parasitic_seed", "Wood", 1, "10 damage; for 3 rounds the target takes 5 whenever it attacks."),
        Skill("life_totem", "Wood", 2, "Heal 25; healing you receive +10% for 3 rounds."),
        Skill("natural_purification", "Wood", 2, "Remove your negative statuses; 30 damage."),
        Skill("forest_reincarnation", "Wood", 3, "Heal 60 (half the excess becomes a 3-round shield); 20 damage."),
        Skill("poison_vine", "Wood", 3, "The target takes 25 at the start of each of its next 3 turns."),
        Skill("rock_armor", "Earth", 1, "12 shield for 3 rounds; attackers take 5 while it holds."),
        Skill("earth_shock", "Earth", 1, "20 damage."),
        Skill("granite_barrier", "Earth", 2, "You take 40% less damage for 3 rounds."),
        Skill(
            "quicksand_trap", "Earth", 2, "For 3 rounds the target's next 3 attacks deal 20% less; each costs it 10."
        ),
        Skill("earth_pulse", "Earth", 3, "Permanent shield: 8 per 10% of your health lost."),
        Skill("core_rebound", "Earth", 3, "Deal 80% of the damage you have taken since the last rebound."),
        Skill("holy_glimmer", "Light", 1, "Remove your newest negative status, heal 8, 8 damage."),
        Skill(
            "faith_emblem", "Light", 1, "Next blow taken before your next turn: −20%, healed back; attacker takes 10."
        ),
        Skill("divine_link", "Light", 2, "Next blow taken before your next turn goes back to the attacker."),
        Skill("luminous_dispel", "Light", 2, "Remove the target's newest buff; it deals 15% less damage for 2 rounds."),
        Skill("angelic_sanctuary", "Light", 3, "Every blow you take is 30 smaller, for 3 rounds."),
        Skill("divine_sword", "Light", 3, "20 damage; your next damaging skill deals +20."),
    )
}
BY_ELEMENT = {e: [s.name for s in SKILLS.values() if s.element == e] for pair in ELEMENTS for e in pair}


def validate(document: Any, role: int, options: dict[str, int]) -> Checked:
    """Check a plan for `role` (0 invader, 1 defender)."""
    who = ("invader", "defender")[role]
    budget = options[f"{who}_budget"]
    elements = ELEMENTS[role]
    if not isinstance(document, dict) or not isinstance(document.get("characters"), list):
        return Checked(None, ((RULE, 'The plan must be a JSON object with a "characters" list.'),), 0, frozenset())
    violations: list[tuple[str, str]] = []
    priority = document.get("target_priority", "first")
    if priority not in PRIORITIES:
        violations.append((RULE, f"target_priority must be one of {', '.join(PRIORITIES)}, got {priority!r}."))
    characters = document["characters"]
    seen = [c.get("element") for c in characters if isinstance(c, dict)]
    if len(characters) != 3 or sorted(map(str, seen)) != sorted(elements):
        violations.append((RULE, f"Field exactly three characters, one each of {', '.join(elements)}."))
    cost = 0
    chosen: list[dict[str, Any]] = []
    items = [f"target:{priority}"]
    for i, entry in enumerate(characters):
        element = entry.get("element") if isinstance(entry, dict) else None
        skills = entry.get("skills") if isinstance(entry, dict) else None
        if element not in elements:
            violations.append((RULE, f"characters[{i}]: {element!r} is not an {who} element ({', '.join(elements)})."))
            continue
        if not isinstance(skills, list) or len(skills) != 3 or len(set(map(str, skills))) != 3:
            violations.append((RULE, f"characters[{i}] ({element}): choose exactly three different skills."))
            continue
        wrong = [s for s in skills if s not in BY_ELEMENT[element]]
        if wrong:
            violations.append(
                (
                    RULE,
                    f"characters[{i}] ({element}): {', '.join(map(repr, wrong))} not {element} "
                    f"skills; choose from {', '.join(BY_ELEMENT[element])}.",
                )
            )
            continue
        cost += sum(SKILLS[s].cost for s in skills)
        chosen.append({"element": element, "skills": list(skills)})
        items += [f"{i}:{element}", *(f"{element}:{k}:{s}" for k, s in enumerate(skills))]
    if cost > budget:
        violations.append((OVER_BUDGET, f"Total skill cost {cost} is over the {who} budget of {budget}."))
    plan = None if violations else {"characters": chosen, "target_priority": priority}
    return Checked(plan, tuple(violations), cost, frozenset(items))


def random_plan(role: int, options: dict[str, int], rng: random.Random) -> dict[str, Any]:
    """Lv0's plan: random order, random affordable skills (cheapest sets when money is short)."""
    budget = options[f"{('invader', 'defender')[role]}_budget"]
    order = list(ELEMENTS[role])
    rng.shuffle(order)
    characters = []
    for n, element in enumerate(order):
        reserve = 4 * (2 - n)  # the cheapest three skills of any element cost 1 + 1 + 2
        pool = BY_ELEMENT[element]
        for _ in range(50):
            skills = rng.sample(pool, 3)
            if sum(SKILLS[s].cost for s in skills) <= budget - reserve:
                break
        else:
            skills = sorted(pool, key=lambda s: SKILLS[s].cost)[:3]
        rng.shuffle(skills)
        budget -= sum(SKILLS[s].cost for s in skills)
        characters.append({"element": element, "skills": skills})
    return {"characters": characters, "target_priority": rng.choice(PRIORITIES)}


def example_plans(role: int, options: dict[str, int]) -> list[dict[str, Any]]:
    if role == 0:
        sets = [
            [
                ("Water", ["stream_pierce", "ice_branded", "whirlpool_strangle"]),
                ("Fire", ["flame_splash", "burst_flame_bomb", "residual_warmth"]),
                ("Dark", ["shadow_claw", "soul_siphon", "fear_whisper"]),
            ],
            [
                ("Fire", ["flame_splash", "residual_warmth", "burst_flame_bomb"]),
                ("Dark", ["night_ambush", "shadow_claw", "fear_whisper"]),
                ("Water", ["water_barrier", "stream_pierce", "whirlpool_strangle"]),
            ],
        ]
    else:
        sets = [
            [
                ("Earth", ["earth_shock", "rock_armor", "granite_barrier"]),
                ("Wood", ["parasitic_seed", "bud_healing", "natural_purification"]),
                ("Light", ["holy_glimmer", "faith_emblem", "divine_link"]),
            ],
            [
                ("Light", ["holy_glimmer", "luminous_dispel", "faith_emblem"]),
                ("Wood", ["parasitic_seed", "life_totem", "bud_healing"]),
                ("Earth", ["earth_shock", "rock_armor", "quicksand_trap"]),
            ],
        ]
    budget = options[f"{('invader', 'defender')[role]}_budget"]
    plans = []
    for chars in sets:
        characters = [{"element": e, "skills": list(s)} for e, s in chars]
        for c in characters:  # a small budget: fall back to the cheapest skills
            if sum(SKILLS[s].cost for ch in characters for s in ch["skills"]) > budget:
                c["skills"] = sorted(BY_ELEMENT[c["element"]], key=lambda s: SKILLS[s].cost)[:3]
        plans.append({"characters": characters, "target_priority": "first"})
    return plans
