"""Tower defense ladder: random plans, heuristic formations, then simulation-based planners.

Lv0 fields a random affordable plan; Lv1–Lv3 a heuristic formation (a shooter in every row behind
walls, with a counter theme — anti-air, light, magnets or bombs; demons massed in one to three
rows) 30%, 60% and 85% of the time, else a random plan. Lv4 always fields a formation and keeps a
plan that won. Lv5 simulates 10 formations against 10 sampled opponent formations and fields the
best; Lv6 weighs the opponent's revealed plans for the facing role too (learning from the
previous rounds). Search bots score with a coarse 250 ms tick for speed; the match itself always
uses the game's tick. Measured rates: docs/ladders.md.
"""

from __future__ import annotations

import random
from typing import Any

from games.bots.base import Bot, random_chooser
from games.bots.planning import formation, planner, sometimes
from games.tower_defense.units import COLUMNS, DEMONS, HUMANS, ROWS

GROUND = (
    "NormalDemon",
    "GreatDemon",
    "SpeedyDemon",
    "ShieldDemon",
    "MachineDemon",
    "BouncingDemon",
    "ShieldBreakerDemon",
    "FireDemon",
    "FrostDemon",
)
SHOOTERS = ("HandgunSoldier", "RifleSoldier", "MachineGunSoldier", "FlamethrowerSoldier", "IceSoldier")


def attack_plan(role: int, options: dict[str, int], rng: random.Random) -> dict[str, Any]:
    """A heuristic attack: demons massed in one to three rows, in a rush or a short wave."""
    budget = options["attacker_budget"]
    style = rng.choice(("rush", "rush", "pair", "wave", "air", "shadow", "king", "mixed"))
    rows = rng.sample(range(ROWS), 1 if style in ("rush", "shadow", "king") else rng.choice((2, 3)))
    kinds = [rng.choice(GROUND)] if style in ("rush", "pair", "wave") else rng.sample(GROUND, 2)
    plan: list[dict[str, Any]] = []
    if style == "air":
        kinds = ["FlyingDemon", rng.choice(GROUND)]
    if style == "king" and budget >= DEMONS["DemonKing"].cost:
        plan.append({"unit": "DemonKing", "y": rows[0], "time": 0})
        budget -= DEMONS["DemonKing"].cost
    if style == "shadow" and budget >= DEMONS["ShadowDemon"].cost:
        plan.append({"unit": "ShadowDemon", "y": rows[0], "time": 2})  # behind the pack it protects
        budget -= DEMONS["ShadowDemon"].cost
    spread = options["spawn_window_s"] // 3 if style == "wave" else 2
    while True:
        affordable = [k for k in kinds if DEMONS[k].cost <= budget]
        if not affordable:
            break
        kind = rng.choice(affordable)
        budget -= DEMONS[kind].cost
        plan.append({"unit": kind, "y": rng.choice(rows), "time": rng.randint(0, spread)})
    return {"units": plan}


def defend_plan(role: int, options: dict[str, int], rng: random.Random) -> dict[str, Any]:
    """A heuristic defence: a shooter in every row at the back, walls in front, extras while money lasts."""
    budget = options["defender_budget"]
    taken: dict[tuple[int, int], str] = {}

    def put(name: str, x: int, y: int) -> bool:
        nonlocal budget
        if HUMANS[name].cost > budget or (x, y) in taken or not (0 <= x < COLUMNS and 0 <= y < ROWS):
            return False
        taken[(x, y)] = name
        budget -= HUMANS[name].cost
        return True

    shooter = rng.choice(SHOOTERS[:3])
    for y in rng.sample(range(ROWS), ROWS):
        put(shooter, 0, y)
    for theme in rng.sample(("aa", "light", "magnet", "bomb", "none", "none"), 2):
        if theme == "aa":
            for x, y in ((1, 1), (1, 3), (1, 0), (1, 4), (2, 1), (2, 3), (1, 2)):
                put("AntiAirSoldier", x, y)
        elif theme == "light":
            for y in rng.sample(range(ROWS), 3):
                put("LightMage", 1, y)
        elif theme == "magnet":
            for y in rng.sample(range(ROWS), 3):
                put("MagneticSoldier", 2, y)
        elif theme == "bomb":
            for x, y in ((7, 1), (7, 3), (9, 2)):
                put("Bomb", x, y)
    wall_x = rng.randint(3, 6)
    wall = rng.choice(("ShieldSoldier", "EnhancedShieldSoldier"))
    if rng.random() < 0.7:
        for y in rng.sample(range(ROWS), ROWS):
            put(wall, wall_x, y)
    extras = ("shooter", "shooter", "aa", "light", "bomb", "line", "wall", "rocket", "magnet", "special")
    for _ in range(40):
        if budget < 50:
            break
        y = rng.randrange(ROWS)
        extra = rng.choice(extras)
        if extra == "shooter":
            put(rng.choice(SHOOTERS), rng.randint(1, 2), y)
        elif extra == "special":
            put(rng.choice(SHOOTERS[3:]), rng.randint(0, 2), y)
        elif extra == "aa":
            put("AntiAirSoldier", rng.randint(0, 2), y)
        elif extra == "light":
            put("LightMage", rng.randint(0, 2), y)
        elif extra == "bomb":
            put("Bomb", rng.randint(wall_x + 1, 9), rng.choice((1, 3)))
        elif extra == "line":
            put("LinearExplosion", rng.randint(wall_x + 1, 9), y)
        elif extra == "wall":
            put(wall, wall_x + 1, y)
        elif extra == "rocket":
            put("RocketLauncherSoldier", 1, rng.choice((1, 2, 3)))
        else:
            put("MagneticSoldier", rng.randint(0, 2), y)
    return {"units": [{"unit": name, "x": x, "y": y} for (x, y), name in sorted(taken.items())]}


def heuristic(role: int, options: dict[str, int], rng: random.Random) -> dict[str, Any]:
    return attack_plan(role, options, rng) if role == 0 else defend_plan(role, options, rng)


def _coarse(options: dict[str, int]) -> dict[str, int]:
    return {**options, "tick_ms": 250}


LADDER = [
    Bot("tower-defense", 0, "random affordable plan", random_chooser),
    Bot("tower-defense", 1, "a heuristic formation 30% of the time, else a random plan", sometimes(0.3, heuristic)),
    Bot("tower-defense", 2, "a heuristic formation 60% of the time, else a random plan", sometimes(0.6, heuristic)),
    Bot("tower-defense", 3, "a heuristic formation 85% of the time, else a random plan", sometimes(0.85, heuristic)),
    Bot("tower-defense", 4, "heuristic formation; keeps a plan that won", formation(heuristic)),
    Bot(
        "tower-defense",
        5,
        "best of 10 formations against 10 sampled opponents",
        planner(heuristic, 10, 10, 0.0, _coarse),
    ),
    Bot(
        "tower-defense",
        6,
        "best of 12 formations against samples and the opponent's revealed plans",
        planner(heuristic, 12, 6, 3.0, _coarse),
    ),
]
