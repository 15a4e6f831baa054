"""Skirmish units and STAR's combat formula.

A_eff = A_base × σ(R_count) × S_status × T_terrain (STAR eq. 5), with σ the blend of a linear and a
polynomial decay that makes a unit below ~30% headcount lose its punch ("critical mass"); constants are
STAR's repository's. S_status is 1 (this compact game has no status effects); T_terrain = 1 / (1 + the
defender's terrain bonus). Casualties = A_eff × DAMAGE_SCALE / the defender's defence, rounded half up.
"""

from __future__ import annotations

import math
from typing import NamedTuple

MAX_COUNT = 100
ACTION_POINTS = 2
DAMAGE_SCALE = 20
COUNTER_SHARE = 0.5  # a defender that survives strikes back at half strength if the attacker is in its range
CRITICAL_SHARE, FLOOR, POWER, STEEPNESS = 0.3, 0.92, 0.5550325, 0.035


class UnitType(NamedTuple):
    name: str
    move: int
    attack: int
    defence: int
    reach: int
    vision: int


# STAR repository values: all units start with 100 soldiers.
UNIT_TYPES = {
    "infantry": UnitType("infantry", 4, 10, 10, 1, 2),
    "cavalry": UnitType("cavalry", 8, 14, 6, 1, 3),
    "archer": UnitType("archer", 4, 12, 6, 3, 4),
}
ARMY = ("infantry", "infantry", "cavalry", "archer", "archer")


class Unit(NamedTuple):
    uid: int  # U1–U5 are Red's, U6–U10 Blue's
    side: int
    kind: str
    col: int
    row: int
    count: int
    mp: int
    ap: int

    @property
    def cell(self) -> tuple[int, int]:
        return self.col, self.row

    @property
    def stats(self) -> UnitType:
        return UNIT_TYPES[self.kind]


def critical_mass(ratio: float) -> float:
    """σ(x) = w·L(x) + (1−w)·P(x): about 1 at full strength, 0.92 at 30%, 0.5 at 10%."""
    w = 1 / (1 + math.exp(-(ratio - CRITICAL_SHARE) / STEEPNESS))
    linear = FLOOR + (1 - FLOOR) / (1 - CRITICAL_SHARE) * (ratio - CRITICAL_SHARE)
    polynomial = FLOOR * (max(ratio, 0.0) / CRITICAL_SHARE) ** POWER
    return w * linear + (1 - w) * polynomial


def max_movement(kind: str, count: int) -> int:
    """Base movement, −1 per full 20% of the headcount lost, at least 1 (STAR's repository rule)."""
    return max(1, UNIT_TYPES[kind].move - (MAX_COUNT - count) // 20)


def casualties(
    attacker_kind: str, attacker_count: int, defender_kind: str, defence_bonus: float, share: float = 1.0
) -> int:
    """Soldiers the defender loses: at least 1, rounded half up."""
    effective = UNIT_TYPES[attacker_kind].attack * critical_mass(attacker_count / MAX_COUNT) / (1 + defence_bonus)
    raw = share * effective * DAMAGE_SCALE / UNIT_TYPES[defender_kind].defence
    return max(1, math.floor(raw + 0.5))


DEPLOYMENT = ((1, 3), (1, 6), (0, 5), (0, 2), (0, 7))  # Red's cells for ARMY; Blue's are their point mirrors
DEPLOYMENT_CENTRE = (1, 5)
