"""Battle card (AdvGameBench A.2): each side buys up to 7 minions, orders them, and they fight alone.

Invaders and defenders draw from different tables (`units.py`); the automated combat is in
`simulate.py` and the match protocol (rounds, legs, keep/revise) in games.plan_game.
"""

from __future__ import annotations

import random
from typing import Any

from games.battle_card import functions, units
from games.battle_card.simulate import simulate
from games.battle_card.units import BEATS, GOLD_COST, INVADERS, MAX_MINIONS, PRIORITIES, TABLES, TOKENS
from games.plan_game import Battle, Checked, PlanGame

MAX_FRAMES = 120


class BattleCard(PlanGame):
    slug = "battle-card"
    name = "Battle Card"
    version = "1"
    role_names = ("invader", "defender")
    default_options = {"rounds": 5, "invader_budget": 10, "defender_budget": 10, "max_attacks": 200}
    option_limits = {
        "rounds": (1, 20),
        "invader_budget": (0, 1000),
        "defender_budget": (0, 1000),
        "max_attacks": (10, 2000),
    }

    def strategic_functions(self, items: frozenset[str]) -> frozenset[str]:
        return functions.strategic_functions(items)

    def validate_plan(self, document: Any, role: int, options: dict[str, int]) -> Checked:
        return units.validate(document, role, options)

    def simulate(self, attack: dict[str, Any], defend: dict[str, Any], options: dict[str, int]) -> Battle:
        return simulate(attack, defend, options)[0]

    def random_plan(self, role: int, options: dict[str, int], rng: random.Random) -> dict[str, Any]:
        return units.random_plan(role, options, rng)

    def plan_summary(self, plan: dict[str, Any], role: int) -> str:
        """ "5 minions (1 gold), target leftmost"."""
        gold = sum(bool(minion.get("gold")) for minion in plan["minions"])
        golden = f" ({gold} gold)" if gold else ""
        return f"{len(plan['minions'])} minions{golden}, target {plan.get('target_priority', PRIORITIES[0])}"

    def example_plans(self, role: int, options: dict[str, int]) -> list[dict[str, Any]]:
        return units.example_plans(role, options)

    def _table(self, role: int) -> list[str]:
        return [
            f"- {m.name}: {m.attack}/{m.health} (attack/health), cost {m.cost}, {m.element}; {m.ability}"
            for m in TABLES[role].values()
        ]

    def plan_schema(self, role: int, options: dict[str, int]) -> dict[str, Any]:
        minion = {
            "type": "object",
            "properties": {"unit": {"enum": list(TABLES[role])}, "gold": {"type": "boolean"}},
            "required": ["unit"],
        }
        return {
            "type": "object",
            "properties": {
                "minions": {"type": "array", "items": minion, "maxItems": MAX_MINIONS},
                "target_priority": {"enum": list(PRIORITIES)},
            },
            "required": ["minions"],
        }

    def role_text(self, role: int, options: dict[str, int]) -> str:
        who = self.role_names[role]
        budget = options[f"{who}_budget"]
        first = (
            "You take the first turn when you field at least as many minions as the defender."
            if role == 0
            else ("You take the first turn only when you field more minions than the invader.")
        )
        return "\n".join(
            [
                f"You are the {who.upper()}. Budget {budget}. Buy up to {MAX_MINIONS} minions (bronze at the listed "
                f"cost, or gold at {GOLD_COST}× the cost with every number doubled) and order them: they attack in "
                f"that order, left to right. {first} "
                + (
                    "If both sides die in the same attack, you win."
                    if role == 0
                    else "If both sides die in the same attack, the invader wins; a stalled battle is yours."
                ),
                "Combat is mutual: the attacker and its target deal their Attack to each other. Attackers must hit "
                "a Taunt minion if there is one, else the enemy your target_priority picks. A blow against the "
                "element it beats deals +50% (at least +1): "
                + ", ".join(f"{a} beats {b}" for a, b in BEATS.items())
                + ".",
                'Plan: {"minions": [{"unit": "<name>", "gold": false}, …], "target_priority": '
                f'"{"|".join(PRIORITIES)}"}}',
                "Your minions:",
                *self._table(role),
                "Enemy minions:",
                *self._table(1 - role),
            ]
        )

    def full_rules_text(self) -> str:
        o = self.default_options
        beats = ", ".join(f"{a} beats {b}" for a, b in BEATS.items())
        return "\n".join(
            [
                "Battle Card. Before the battle each side buys up to 7 minions within its budget (default "
                f"{o['invader_budget']} each): bronze at the listed cost, or gold at 3× the cost with attack, "
                "health and every numeric effect doubled. The battle then runs by itself. The defenders' "
                "start-of-game effects resolve first, left to right. The side with more minions takes the first "
                "turn (the invader on a tie); turns alternate. On its turn a side's next minion in left-to-right "
                "order (wrapping round; 0-Attack minions are skipped) attacks: it must attack a Taunt minion if the "
                "enemy has one, else the enemy its side's target_priority picks (leftmost, lowest_health or "
                "highest_attack). Combat is mutual: attacker and target deal their Attack to each other at once. "
                f"Elements: {beats}; a blow against a beaten element deals +50% (at least +1). Divine Shield "
                "absorbs one blow. Dead minions leave and their deathrattles fire; summons take the dead minion's "
                "place (at most 7 per side). A side wiped out loses; if both are wiped out in the same attack "
                f"the invader wins; after {o['max_attacks']} attacks without a winner the defender wins.",
                "Tokens: " + "; ".join(f"{t.name} {t.attack}/{t.health}" for t in TOKENS.values()) + ".",
                "Invader minions:",
                *self._table(0),
                "Defender minions:",
                *self._table(1),
                'Plan: {"minions": [{"unit": "<name>", "gold": false}, …], "target_priority": "leftmost"} '
                "— at most 7 minions, total cost within budget.",
            ]
        )

    def battle_view(self, attack: dict[str, Any], defend: dict[str, Any], options: dict[str, int]) -> dict[str, Any]:
        """The board after each attack (at most 120 steps shown, evenly spaced, always the last)."""
        battle, frames = simulate(attack, defend, options, snapshots=True)
        step = max(1, -(-len(frames) // MAX_FRAMES))
        kept = frames[::step]
        if kept[-1] is not frames[-1]:
            kept.append(frames[-1])
        shown = [
            {"n": n, "text": f["text"], "invaders": f["sides"][0], "defenders": f["sides"][1]}
            for n, f in enumerate(kept)
        ]
        return {
            "kind": "cards",
            "frames": shown,
            "last": len(shown) - 1,
            "reason": battle.reason,
            "attacker_won": battle.attacker_won,
        }

    def editor_data(self, role: int, options: dict[str, int]) -> dict[str, Any]:
        return {
            "role": role,
            "budget": options[f"{self.role_names[role]}_budget"],
            "max": MAX_MINIONS,
            "gold_cost": GOLD_COST,
            "priorities": list(PRIORITIES),
            "units": [
                {
                    "name": m.name,
                    "cost": m.cost,
                    "attack": m.attack,
                    "health": m.health,
                    "element": m.element,
                    "ability": m.ability,
                }
                for m in TABLES[role].values()
            ],
        }

    def empty_plan(self, role: int) -> dict[str, Any]:
        return {"minions": [], "target_priority": "leftmost"}


__all__ = ["INVADERS", "BattleCard"]
