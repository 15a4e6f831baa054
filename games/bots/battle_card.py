"""Battle card ladder: random line-ups, budget-filling heuristics, then simulation-based planners.

Lv0 fields a random affordable line-up; Lv1 a budget-filling one (taunts in front, now and then a
gold minion) half the time; Lv2 always, keeping a line-up that won. Lv3 and Lv4 simulate 4 and 8
candidates against as many sampled heuristic opponents and field the best; Lv5 tries 16 and also
weighs the opponent's revealed line-ups for the facing role, learning from the previous rounds.
Measured rates: docs/games.md.
"""

from __future__ import annotations

import random
from typing import Any

from games.battle_card.units import MAX_MINIONS, PRIORITIES, TABLES, unit_cost
from games.bots.base import Bot, random_chooser
from games.bots.planning import formation, planner, sometimes


def heuristic(role: int, options: dict[str, int], rng: random.Random) -> dict[str, Any]:
    """Spend the whole budget on up to 7 minions, taunts first, the occasional gold one."""
    budget = options[f"{('invader', 'defender')[role]}_budget"]
    names = list(TABLES[role])
    minions: list[dict[str, Any]] = []
    while len(minions) < MAX_MINIONS:
        gold = rng.random() < 0.15
        affordable = [n for n in names if unit_cost(n, gold, role) <= budget]
        if not affordable and gold:
            gold = False
            affordable = [n for n in names if unit_cost(n, False, role) <= budget]
        if not affordable:
            break
        name = rng.choice(affordable)
        budget -= unit_cost(name, gold, role)
        minions.append({"unit": name, "gold": gold})
    rng.shuffle(minions)
    minions.sort(key=lambda m: not TABLES[role][m["unit"]].taunt)
    return {"minions": minions, "target_priority": rng.choice(PRIORITIES)}


LADDER = [
    Bot("battle-card", 0, "random affordable line-up", random_chooser),
    Bot("battle-card", 1, "a budget-filling line-up half the time, else a random one", sometimes(0.5, heuristic)),
    Bot("battle-card", 2, "budget-filling line-up, taunts first; keeps a line-up that won", formation(heuristic)),
    Bot("battle-card", 3, "best of 4 line-ups against 4 sampled opponents", planner(heuristic, 4, 4, 0.0)),
    Bot("battle-card", 4, "best of 8 line-ups against 8 sampled opponents", planner(heuristic, 8, 8, 0.0)),
    Bot(
        "battle-card",
        5,
        "best of 16 line-ups against samples and the opponent's revealed line-ups",
        planner(heuristic, 16, 8, 3.0),
    ),
]
