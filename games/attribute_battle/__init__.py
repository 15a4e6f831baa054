"""Turn-based attribute battle (AdvGameBench A.3): three elemental characters a side, three skills each.

Invaders are Fire, Water and Dark; defenders Wood, Earth and Light. A plan orders the three
characters and gives each three different skills of its element within the side's skill-cost
budget; skills are used in order, cycling. Tables in `skills.py`, the battle in `simulate.py`,
the match protocol in games.plan_game.
"""

from __future__ import annotations

import random
from typing import Any

from games.attribute_battle import functions, skills
from games.attribute_battle.simulate import simulate
from games.attribute_battle.skills import BEATS, BY_ELEMENT, ELEMENTS, PRIORITIES, SKILLS
from games.plan_game import Battle, Checked, PlanGame

MAX_FRAMES = 120


class AttributeBattle(PlanGame):
    slug = "attribute-battle"
    name = "Attribute Battle"
    version = "1"
    role_names = ("invader", "defender")
    default_options = {"rounds": 5, "invader_budget": 15, "defender_budget": 20, "hp": 150, "max_rounds": 30}
    option_limits = {
        "rounds": (1, 20),
        "invader_budget": (0, 100),
        "defender_budget": (0, 100),
        "hp": (1, 10_000),
        "max_rounds": (1, 500),
    }

    def strategic_functions(self, items: frozenset[str]) -> frozenset[str]:
        return functions.strategic_functions(items)

    def validate_plan(self, document: Any, role: int, options: dict[str, int]) -> Checked:
        return skills.validate(document, role, options)

    def simulate(self, attack: dict[str, Any], defend: dict[str, Any], options: dict[str, int]) -> Battle:
        return simulate(attack, defend, options)[0]

    def random_plan(self, role: int, options: dict[str, int], rng: random.Random) -> dict[str, Any]:
        return skills.random_plan(role, options, rng)

    def plan_summary(self, plan: dict[str, Any], role: int) -> str:
        """ "Water, Fire, Dark characters, target first"."""
        elements = ", ".join(character["element"] for character in plan["characters"])
        return f"{elements} characters, target {plan.get('target_priority', PRIORITIES[0])}"

    def example_plans(self, role: int, options: dict[str, int]) -> list[dict[str, Any]]:
        return skills.example_plans(role, options)

    def _table(self, role: int) -> list[str]:
        return [
            f"- {element}: " + "; ".join(f"{s} (cost {SKILLS[s].cost}): {SKILLS[s].text}" for s in BY_ELEMENT[element])
            for element in ELEMENTS[role]
        ]

    def plan_schema(self, role: int, options: dict[str, int]) -> dict[str, Any]:
        skill_names = [s for element in ELEMENTS[role] for s in BY_ELEMENT[element]]
        character = {
            "type": "object",
            "properties": {
                "element": {"enum": list(ELEMENTS[role])},
                "skills": {"type": "array", "items": {"enum": skill_names}, "minItems": 3, "maxItems": 3},
            },
            "required": ["element", "skills"],
        }
        return {
            "type": "object",
            "properties": {
                "characters": {"type": "array", "items": character, "minItems": 3, "maxItems": 3},
                "target_priority": {"enum": list(PRIORITIES)},
            },
            "required": ["characters"],
        }

    def role_text(self, role: int, options: dict[str, int]) -> str:
        who = self.role_names[role]
        return "\n".join(
            [
                f"You are the {who.upper()} ({', '.join(ELEMENTS[role])}). Skill budget {options[f'{who}_budget']} "
                f"for all nine skills together. Every character has {options['hp']} health. "
                + (
                    "Your three characters act first each round, in your order."
                    if role == 0
                    else "The invaders act first each round; then your three characters, in your order."
                )
                + " Each character uses its three skills in the order given, cycling, on the enemy your "
                "target_priority picks. Damage ×1.2 when effective, ×0.8 when resisted ("
                + ", ".join(f"{a} beats {b}" for a, b in BEATS.items())
                + "), ×1.5 between Light and Dark.",
                'Plan: {"characters": [{"element": "<element>", "skills": ["<skill>", "<skill>", "<skill>"]}, …], '
                f'"target_priority": "{"|".join(PRIORITIES)}"}}',
                "Your skills:",
                *self._table(role),
                "Enemy skills:",
                *self._table(1 - role),
            ]
        )

    def full_rules_text(self) -> str:
        o = self.default_options
        beats = ", ".join(f"{a} beats {b}" for a, b in BEATS.items())
        return "\n".join(
            [
                "Attribute Battle. Invaders field Fire, Water and Dark characters; defenders Wood, Earth and Light; "
                f"each has {o['hp']} health. A plan orders the side's three characters and gives each three different "
                f"skills of its own element, with total skill cost within the side's budget (default "
                f"{o['invader_budget']}). Each round the invaders act in their order, then the defenders. On its turn "
                "a character's over-time effects tick and its timed statuses and shields lose one round (a status "
                "lasting N rounds covers N of its bearer's turns), then it uses its next skill (cycling) on the "
                "enemy its side's target_priority picks (first in order, lowest_hp, highest_hp, or element: the "
                f"best elemental matchup). Elements: {beats} (×1.2 when effective, ×0.8 when resisted); Light and "
                "Dark deal ×1.5 to each other; others ×1. Damage rounds down. A side whose three characters fall "
                f"loses; after {o['max_rounds']} rounds the side with the larger share of health left wins (the "
                "defender on a tie).",
                "Invader skills:",
                *self._table(0),
                "Defender skills:",
                *self._table(1),
            ]
        )

    def battle_view(self, attack: dict[str, Any], defend: dict[str, Any], options: dict[str, int]) -> dict[str, Any]:
        """The six characters after each turn (at most 120 turns shown, always the last)."""
        battle, frames = simulate(attack, defend, options, frames=True)
        step = max(1, -(-len(frames) // MAX_FRAMES))
        kept = frames[::step]
        if kept and kept[-1] is not frames[-1]:
            kept.append(frames[-1])
        shown = [
            {"n": n, "text": f["text"], "actor": f["actor"], "invaders": f["sides"][0], "defenders": f["sides"][1]}
            for n, f in enumerate(kept)
        ]
        return {
            "kind": "duel",
            "frames": shown,
            "last": len(shown) - 1,
            "reason": battle.reason,
            "attacker_won": battle.attacker_won,
        }

    def editor_data(self, role: int, options: dict[str, int]) -> dict[str, Any]:
        return {
            "role": role,
            "budget": options[f"{self.role_names[role]}_budget"],
            "priorities": list(PRIORITIES),
            "elements": [
                {
                    "element": e,
                    "skills": [{"name": s, "cost": SKILLS[s].cost, "text": SKILLS[s].text} for s in BY_ELEMENT[e]],
                }
                for e in ELEMENTS[role]
            ],
        }

    def empty_plan(self, role: int) -> dict[str, Any]:
        return {"characters": [{"element": e, "skills": []} for e in ELEMENTS[role]], "target_priority": "first"}


__all__ = ["AttributeBattle"]
