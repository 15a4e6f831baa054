"""Tower defense (AdvGameBench A.1): humans hold a 5 × 11 field, demons try to walk across it.

The defender places units, one per cell, on rows y 0–4 and columns x 0–10; the attacker buys
demons and gives each a row and a spawn time. The tick simulation is in `simulate.py`, the unit
tables in `units.py` and the match protocol (rounds, legs, keep/revise) in games.plan_game.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.plan_game import Battle, Checked, PlanGame, PlanState
from games.tower_defense import functions, units
from games.tower_defense.simulate import simulate
from games.tower_defense.units import COLUMNS, DEMONS, HUMANS, ROWS

MAX_FRAMES = 60
TICKS = (10, 25, 50, 125, 250)  # divisors of 250 ms, so every interval is a whole number of ticks


class TowerDefense(PlanGame):
    slug = "tower-defense"
    name = "Tower Defense"
    version = "1"
    role_names = ("attacker", "defender")
    default_options = {
        "rounds": 5,
        "attacker_budget": 1000,
        "defender_budget": 4000,
        "tick_ms": 50,
        "spawn_window_s": 30,
        "max_seconds": 180,
    }
    option_limits = {
        "rounds": (1, 20),
        "attacker_budget": (0, 100_000),
        "defender_budget": (0, 100_000),
        "tick_ms": (10, 250),
        "spawn_window_s": (0, 120),
        "max_seconds": (10, 600),
    }

    def initial_state(self, *, seed: int, **options: Any) -> PlanState:
        state = super().initial_state(seed=seed, **options)
        if state.option("tick_ms") not in TICKS:
            raise ValueError(f"tower-defense option tick_ms must be one of {TICKS}")
        return state

    def strategic_functions(self, items: frozenset[str]) -> frozenset[str]:
        return functions.strategic_functions(items)

    def validate_plan(self, document: Any, role: int, options: dict[str, int]) -> Checked:
        return units.validate(document, role, options)

    def simulate(self, attack: dict[str, Any], defend: dict[str, Any], options: dict[str, int]) -> Battle:
        return simulate(attack, defend, options)[0]

    def random_plan(self, role: int, options: dict[str, int], rng: random.Random) -> dict[str, Any]:
        return units.random_plan(role, options, rng)

    def plan_summary(self, plan: dict[str, Any], role: int) -> str:
        """ "7 units: 5 NormalDemon, 1 GreatDemon, 1 SpeedyDemon"."""
        counts = Counter(unit["unit"] for unit in plan["units"])
        return f"{len(plan['units'])} units: " + ", ".join(f"{n} {name}" for name, n in counts.most_common())

    def example_plans(self, role: int, options: dict[str, int]) -> list[dict[str, Any]]:
        return units.example_plans(role, options)

    def plan_schema(self, role: int, options: dict[str, int]) -> dict[str, Any]:
        if role == 0:
            unit = {
                "unit": {"enum": list(DEMONS)},
                "y": {"type": "integer", "minimum": 0, "maximum": ROWS - 1},
                "time": {"type": "number", "minimum": 0, "maximum": options["spawn_window_s"]},
            }
        else:
            unit = {
                "unit": {"enum": list(HUMANS)},
                "x": {"type": "integer", "minimum": 0, "maximum": COLUMNS - 1},
                "y": {"type": "integer", "minimum": 0, "maximum": ROWS - 1},
            }
        item = {"type": "object", "properties": unit, "required": list(unit)}
        return {"type": "object", "properties": {"units": {"type": "array", "items": item}}, "required": ["units"]}

    def role_text(self, role: int, options: dict[str, int]) -> str:
        budget = options[f"{self.role_names[role]}_budget"]
        goal = (
            f"You are the ATTACKER. Budget {budget}. Buy demons and give each a row y (0–4) and a spawn time "
            f"(seconds, 0–{options['spawn_window_s']}). They enter at x = 11 and walk left; you win the leg "
            f"as soon as one reaches the left edge; you lose if all die (or nobody gets through in "
            f"{options['max_seconds']} s). Plan: "
            '{"units": [{"unit": "NormalDemon", "y": 2, "time": 0}, …]}'
            if role == 0
            else f"You are the DEFENDER. Budget {budget}. Place units on the 5 rows (y 0–4) × 11 columns "
            "(x 0–10, x = 0 is the edge you guard), at most one per cell. Demons enter at x = 11 and walk "
            "left; you win the leg if every demon dies (or none gets through in "
            f"{options['max_seconds']} s). Plan: "
            '{"units": [{"unit": "RifleSoldier", "x": 1, "y": 2}, …]}'
        )
        return "\n".join([goal, "Your units:", *self._table(role), "Enemy units:", *self._table(1 - role)])

    def _table(self, role: int) -> list[str]:
        if role == 0:
            return [
                f"- {d.name}: cost {d.cost}, health {d.hp}, speed {d.speed}, damage {d.damage}/s; {d.note}"
                for d in DEMONS.values()
            ]
        lines = []
        for h in HUMANS.values():
            attack = f"{h.damage} damage every {h.interval} ms" if h.interval and h.damage else "no shot"
            if h.effect in ("bomb", "line"):
                attack = f"fuse {h.interval} ms, {h.damage} damage"
            lines.append(f"- {h.name}: cost {h.cost}, health {h.hp}, {attack}; {h.note}")
        return lines

    def full_rules_text(self) -> str:
        o = self.default_options
        return "\n".join(
            [
                "Tower Defense. The battlefield has 5 rows (y 0–4) and 11 columns (x 0–10) where the defender "
                "places human units, at most one per cell; units never move. Demons enter at x = 11 in their row "
                "at their spawn time and walk left (speed 2 crosses the field in 14 s). A demon touching a unit "
                "stops and hits it once per second; FlyingDemon flies over units. Shooters hit the nearest demon "
                "ahead of them in their own row at once, then wait their interval; ordinary shots cannot hit "
                "FlyingDemon. The attacker wins the leg when any demon reaches the left edge; the defender when "
                f"every demon is dead or after {o['max_seconds']} s. Default budgets: attacker "
                f"{o['attacker_budget']}, defender {o['defender_budget']}; spawn times 0–{o['spawn_window_s']} s; "
                f"the simulation ticks every {o['tick_ms']} ms.",
                "Damage types: ordinary shots are normal; FlamethrowerSoldier fire (+1 fire damage each second for "
                "3 s), IceSoldier ice (half speed for 3 s); every shot fired from a row holding a LightMage is light "
                "instead; bombs are blasts. ShadowDemon: other demons in its row take only light damage. "
                "MagneticSoldier pulses switch off Shield/MachineDemon defences for 3 s.",
                "Human units:",
                *self._table(1),
                "Demons:",
                *self._table(0),
                'Defender plan: {"units": [{"unit": "<human unit>", "x": 0-10, "y": 0-4}, …]} — total cost within '
                "budget, one unit per cell.",
                'Attacker plan: {"units": [{"unit": "<demon>", "y": 0-4, "time": <seconds>}, …]} — total cost '
                "within budget; the same row and time may hold several demons.",
            ]
        )

    def battle_view(self, attack: dict[str, Any], defend: dict[str, Any], options: dict[str, int]) -> dict[str, Any]:
        """Frames of the battle on the grid (every 250 ms of game time or coarser, at most 60)."""
        battle, frames = simulate(attack, defend, options, frame_ms=250)  # 250 ms is a whole number of ticks
        step = max(1, -(-len(frames) // MAX_FRAMES))
        kept = frames[::step]
        if kept[-1] is not frames[-1]:
            kept.append(frames[-1])
        shown = []
        for n, frame in enumerate(kept):
            cells: dict[tuple[int, int], dict[str, Any]] = {}
            for code, x, y, hp, name in frame["units"]:
                cells[(x, y)] = {"x": x, "y": y, "unit": code, "unit_name": name, "hp": hp, "demons": []}
            for code, x, y, hp, name in frame["demons"]:
                cell = cells.setdefault((x, y), {"x": x, "y": y, "unit": "", "unit_name": "", "hp": 0, "demons": []})
                cell["demons"].append({"code": code, "name": name, "hp": hp})
            shown.append(
                {
                    "n": n,
                    "t": frame["t"],
                    "label": f"t = {frame['t'] / 1000:g} s",
                    "cells": list(cells.values()),
                    "demons": len(frame["demons"]),
                    "units": len(frame["units"]),
                }
            )
        return {
            "kind": "grid",
            "frames": shown,
            "last": len(shown) - 1,
            "reason": battle.reason,
            "attacker_won": battle.attacker_won,
            "columns": list(range(COLUMNS + 1)),
            "rows": list(range(ROWS)),
        }

    def editor_data(self, role: int, options: dict[str, int]) -> dict[str, Any]:
        table = DEMONS if role == 0 else HUMANS
        return {
            "role": role,
            "budget": options[f"{self.role_names[role]}_budget"],
            "rows": ROWS,
            "columns": COLUMNS,
            "window": options["spawn_window_s"],
            "units": [
                {"name": u.name, "code": u.code, "cost": u.cost, "hp": u.hp, "note": u.note} for u in table.values()
            ],
            "grid": [list(range(COLUMNS)) for _ in range(ROWS)],
            "row_list": list(range(ROWS)),
        }

    def empty_plan(self, role: int) -> dict[str, Any]:
        return {"units": []}


__all__ = ["TowerDefense"]
