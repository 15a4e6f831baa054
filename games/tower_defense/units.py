"""Tower defense units (AdvGameBench A.1.2–A.1.3) and plan validation.

Health and damage are kept in tenths (`hp * 10`) so ShieldDemon's "70% less damage" stays exact.
Positions along a row are integers: one cell is `CELL` sub-units and a demon with speed s moves
11·s sub-units per millisecond, so speed 2 crosses the 11 columns in exactly 14 s (A.1.3's note).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.plan_game import OVER_BUDGET, RULE, Checked, counted

ROWS = 5
COLUMNS = 11
CELL = 28_000
SPAWN = COLUMNS * CELL  # demons enter at x = 11, the right edge of column 10
MAX_DEMONS = 60
BURN_MS = 3000  # FlamethrowerSoldier: +1 fire damage every 1000 ms for 3 s after each hit
SLOW_MS = 3000  # IceSoldier: half speed for 3 s after each hit
MAGNET_MS = 3000  # MagneticSoldier: defences off for 3 s after each pulse
SUMMON_MS = 5000
SHIELD_UNITS = frozenset({"ShieldSoldier", "EnhancedShieldSoldier"})


@dataclass(frozen=True)
class Human:
    name: str
    code: str  # two letters for the board
    hp: int
    cost: int
    interval: int  # ms between shots (fuse for bombs); 0 when it never acts
    damage: int
    effect: str  # shot | fire | ice | antiair | magnet | rocket | wall | light | bomb | line
    note: str


@dataclass(frozen=True)
class Demon:
    name: str
    code: str
    hp: int
    speed: int
    cost: int
    damage: int
    note: str
    interval: int = 1000


HUMANS = {
    h.name: h
    for h in (
        Human("HandgunSoldier", "HG", 3, 100, 1000, 1, "shot", "shoots the nearest demon in its row"),
        Human("RifleSoldier", "RS", 3, 200, 500, 1, "shot", "shoots twice as often"),
        Human("MachineGunSoldier", "MG", 3, 400, 250, 1, "shot", "shoots four times as often"),
        Human("ShieldSoldier", "SS", 15, 50, 0, 0, "wall", "blocks; no attack"),
        Human("EnhancedShieldSoldier", "ES", 30, 100, 0, 0, "wall", "blocks; BouncingDemon cannot jump it"),
        Human("FlamethrowerSoldier", "FT", 2, 200, 1000, 1, "fire", "fire shot; burns +1 every 1000 ms for 3 s"),
        Human("IceSoldier", "IS", 2, 200, 1000, 1, "ice", "ice shot; halves the target's speed for 3 s"),
        Human(
            "AntiAirSoldier",
            "AA",
            2,
            175,
            1000,
            1,
            "antiair",
            "hits FlyingDemon in its row and the adjacent rows first",
        ),
        Human("Bomb", "BO", 50, 200, 500, 30, "bomb", "arms when a demon is in its 3×3; 500 ms later 30 to the 3×3"),
        Human("LinearExplosion", "LX", 50, 200, 500, 30, "line", "arms when a demon is within 1 column; 30 to the row"),
        Human("MagneticSoldier", "MS", 2, 100, 2000, 0, "magnet", "pulse: Shield/MachineDemon defences off 3 s"),
        Human("LightMage", "LM", 2, 150, 0, 0, "light", "all shots fired from its row deal light damage"),
        Human("RocketLauncherSoldier", "RL", 2, 600, 1000, 2, "rocket", "2 to the target and demons within 1 cell"),
    )
}
DEMONS = {
    d.name: d
    for d in (
        Demon("NormalDemon", "ND", 10, 2, 100, 1, "no special ability"),
        Demon("GreatDemon", "GD", 20, 2, 175, 1, "higher health"),
        Demon("DemonKing", "DK", 100, 2, 800, 5, "huge health, 5 damage"),
        Demon("SpeedyDemon", "SP", 10, 4, 150, 1, "moves twice as fast"),
        Demon("ShieldDemon", "SH", 10, 2, 175, 1, "takes 70% less damage from normal shots"),
        Demon("MachineDemon", "MA", 20, 2, 250, 3, "half damage from shots; speed 3 below half health"),
        Demon("BouncingDemon", "BD", 10, 2, 150, 1, "jumps over the first unit it meets (not EnhancedShield)"),
        Demon("ShieldBreakerDemon", "SB", 10, 2, 150, 1, "×5 damage against shield soldiers"),
        Demon("FireDemon", "FD", 10, 2, 150, 1, "immune to fire damage"),
        Demon("FrostDemon", "FR", 10, 2, 150, 1, "immune to ice damage and slowing"),
        Demon("FlyingDemon", "FL", 10, 2, 200, 1, "only anti-air can hit it; flies over units"),
        Demon("ShadowDemon", "SD", 10, 2, 300, 1, "other demons in its row take only light damage"),
        Demon("SummoningDemon", "SU", 10, 1, 300, 1, "summons a NormalDemon one cell ahead every 5 s"),
    )
}
TABLES = (DEMONS, HUMANS)  # by role: 0 attacker (demons), 1 defender (humans)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def validate(document: Any, role: int, options: dict[str, int]) -> Checked:
    """Check a plan for `role` (0 attacker, 1 defender); see docs/games.md for the schema."""
    who = ("attacker", "defender")[role]
    budget = options[f"{who}_budget"]
    if not isinstance(document, dict) or not isinstance(document.get("units"), list):
        return Checked(None, ((RULE, 'The plan must be a JSON object with a "units" list.'),), 0, frozenset())
    violations: list[tuple[str, str]] = []
    items: list[str] = []
    placed: list[dict[str, Any]] = []
    occupied: dict[tuple[int, int], str] = {}
    cost = 0
    window = options["spawn_window_s"]
    if len(document["units"]) > (MAX_DEMONS if role == 0 else ROWS * COLUMNS):
        violations.append((RULE, f"Too many units ({len(document['units'])})."))
    for i, entry in enumerate(document["units"]):
        name = entry.get("unit") if isinstance(entry, dict) else None
        if name not in TABLES[role]:
            hint = f"{name} is a {('defender', 'attacker')[role]} unit. " if name in TABLES[1 - role] else ""
            violations.append((RULE, f"units[{i}]: {hint}Unknown {who} unit {name!r}."))
            continue
        cost += TABLES[role][name].cost
        y = entry.get("y")
        if not _is_int(y) or not 0 <= y < ROWS:
            violations.append((RULE, f"units[{i}] ({name}): y must be a row 0–4, got {y!r}."))
            continue
        if role == 1:
            x = entry.get("x")
            if not _is_int(x) or not 0 <= x < COLUMNS:
                violations.append((RULE, f"units[{i}] ({name}): x must be a column 0–10, got {x!r}."))
                continue
            if (x, y) in occupied:
                violations.append(
                    (
                        RULE,
                        f"units[{i}] ({name}): cell x={x}, y={y} is already taken by "
                        f"{occupied[(x, y)]}; one unit per cell.",
                    )
                )
                continue
            occupied[(x, y)] = name
            placed.append({"unit": name, "x": x, "y": y})
            items.append(f"{name}@{x},{y}")
        else:
            time = entry.get("time", 0)
            if not isinstance(time, (int, float)) or isinstance(time, bool) or not 0 <= time <= window:
                violations.append((RULE, f"units[{i}] ({name}): time must be seconds 0–{window}, got {time!r}."))
                continue
            ms = round(time * 1000)
            placed.append({"unit": name, "y": y, "time": ms // 1000 if ms % 1000 == 0 else ms / 1000})
            items.append(f"{name}@y{y}@{ms}ms")
    if cost > budget:
        violations.append((OVER_BUDGET, f"Total cost {cost} is over the {who} budget of {budget}."))
    plan = None if violations else {"units": placed}
    return Checked(plan, tuple(violations), cost, counted(items))


def random_plan(role: int, options: dict[str, int], rng: random.Random) -> dict[str, Any]:
    """Lv0's plan: random affordable units (random cells, rows and times) until the money runs out."""
    budget = options[f"{('attacker', 'defender')[role]}_budget"]
    table = list(TABLES[role].values())
    units: list[dict[str, Any]] = []
    free = [(x, y) for x in range(COLUMNS) for y in range(ROWS)]
    rng.shuffle(free)
    while True:
        affordable = [u for u in table if u.cost <= budget]
        if not affordable or (role == 1 and not free) or (units and rng.random() < 0.08):
            break
        unit = rng.choice(affordable)
        budget -= unit.cost
        if role == 1:
            x, y = free.pop()
            units.append({"unit": unit.name, "x": x, "y": y})
        else:
            time = rng.randrange(0, 2 * options["spawn_window_s"] + 1) / 2
            units.append(
                {"unit": unit.name, "y": rng.randrange(ROWS), "time": int(time) if time.is_integer() else time}
            )
    return {"units": units}


def example_plans(role: int, options: dict[str, int]) -> list[dict[str, Any]]:
    """Two readable, affordable plans per role (shown in prompts and as legal-action examples)."""
    budget = options[f"{('attacker', 'defender')[role]}_budget"]
    if role == 0:
        plans = [
            [("NormalDemon", y, 0) for y in range(5)] + [("GreatDemon", 2, 2), ("SpeedyDemon", 1, 4)],
            [("ShieldDemon", 2, 0), ("NormalDemon", 2, 1), ("NormalDemon", 2, 2), ("FlyingDemon", 4, 3)],
        ]
        shaped = [{"units": [{"unit": u, "y": y, "time": t} for u, y, t in plan]} for plan in plans]
    else:
        plans = [
            [("RifleSoldier", 1, y) for y in range(5)] + [("ShieldSoldier", 4, y) for y in range(5)],
            [("HandgunSoldier", 0, y) for y in range(5)] + [("EnhancedShieldSoldier", 3, 2), ("Bomb", 6, 2)],
        ]
        shaped = [{"units": [{"unit": u, "x": x, "y": y} for u, x, y in plan]} for plan in plans]
    return [_trim(plan, role, budget) for plan in shaped]


def _trim(plan: dict[str, Any], role: int, budget: int) -> dict[str, Any]:
    """Drop units from the end until the plan fits a (possibly small) budget."""
    units = list(plan["units"])
    while units and sum(TABLES[role][u["unit"]].cost for u in units) > budget:
        units.pop()
    return {"units": units}
