"""Attribute battle ladder: random skill sets, budget-spending heuristics, then simulation-based planners.

Lv0 fields random affordable skills; Lv1 budget-spending skill sets (Water before Dark, so their
vulnerability debuffs help the next striker) 60% of the time; Lv2 always, keeping a plan that won.
Lv3 simulates 4 candidates against 4 sampled heuristic opponents and fields the best; Lv4 tries 6
against 6 and also weighs the opponent's revealed plans for the facing role, learning from the
previous rounds. Measured rates: docs/games.md.
"""

from __future__ import annotations

import random
from typing import Any

from games.attribute_battle.skills import BY_ELEMENT, ELEMENTS, PRIORITIES, SKILLS
from games.bots.base import Bot, random_chooser
from games.bots.planning import formation, planner, sometimes


def heuristic(role: int, options: dict[str, int], rng: random.Random) -> dict[str, Any]:
    """Spend (nearly) the whole budget: for each character the dearest of a few affordable skill triples."""
    budget = options[f"{('invader', 'defender')[role]}_budget"]
    order = list(ELEMENTS[role])
    rng.shuffle(order)
    if role == 0 and order.index("Water") > order.index("Dark"):
        order[order.index("Water")], order[order.index("Dark")] = "Dark", "Water"
    characters = []
    for n, element in enumerate(order):
        room = max(4, budget // (3 - n))  # an even share of what is left
        triples = [rng.sample(BY_ELEMENT[element], 3) for _ in range(12)]
        fitting = [t for t in triples if sum(SKILLS[s].cost for s in t) <= room]
        skills = max(fitting, key=lambda t: sum(SKILLS[s].cost for s in t)) if fitting else None
        if skills is None:
            skills = sorted(BY_ELEMENT[element], key=lambda s: SKILLS[s].cost)[:3]
            rng.shuffle(skills)
        budget -= sum(SKILLS[s].cost for s in skills)
        characters.append({"element": element, "skills": skills})
    return {"characters": characters, "target_priority": rng.choice(PRIORITIES)}


LADDER = [
    Bot("attribute-battle", 0, "random affordable skills", random_chooser),
    Bot("attribute-battle", 1, "budget-spending skills 60% of the time, else random ones", sometimes(0.6, heuristic)),
    Bot("attribute-battle", 2, "budget-spending skill sets; keeps a plan that won", formation(heuristic)),
    Bot("attribute-battle", 3, "best of 4 plans against 4 sampled opponents", planner(heuristic, 4, 4, 0.0)),
    Bot(
        "attribute-battle",
        4,
        "best of 6 plans against samples and the opponent's revealed plans",
        planner(heuristic, 6, 6, 1.0),
    ),
]
