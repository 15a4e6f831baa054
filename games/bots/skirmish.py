"""Skirmish ladder: random commands, a greedy attacker, then focus fire on good ground.

Bots see what their side sees (`Skirmish.visible_enemies`), never the hidden enemy units. Each call
returns one command; a unit that has moved this turn does not move again, so a turn always ends.
"""

from __future__ import annotations

import random

from games.bots.base import Bot, random_chooser
from games.skirmish import Skirmish, SkirmishState
from games.skirmish.hexmap import TERRAIN, distance, mirror, terrain_at
from games.skirmish.units import DEPLOYMENT_CENTRE, Unit, max_movement


def _stamp(state: SkirmishState) -> int:
    return state.clock if state.mode == "real-time" else -1


def _own(state: SkirmishState) -> list[Unit]:
    return [u for u in state.units if u.side == state.side]


def _unmoved(unit: Unit) -> bool:
    return unit.mp == max_movement(unit.kind, unit.count)


def _goal(state: SkirmishState, seen: list[Unit], unit: Unit) -> tuple[int, int]:
    """The nearest enemy in sight, else the middle of the enemy's deployment."""
    if seen:
        return min(seen, key=lambda e: (distance(unit.cell, e.cell), e.uid)).cell
    return DEPLOYMENT_CENTRE if state.side == 1 else mirror(DEPLOYMENT_CENTRE)


def _free_cells(game: Skirmish, state: SkirmishState, unit: Unit, seen: list[Unit]) -> dict:
    occupied = {u.cell for u in state.units if u.side == state.side} | {e.cell for e in seen}
    return {c: v for c, v in game.reachable(state, unit, seen).items() if c not in occupied}


# Shares of commands played at random: pure greed beats random play every time, and pure focus fire beats
# greed every time, so each level slips to keep ladder steps near 70–90% (docs/games.md).
GREEDY_SLIP = 0.8
TACTICIAN_SLIP = 0.65


def _greedy(game: Skirmish, state: SkirmishState, rng: random.Random) -> tuple:
    """Attack the weakest enemy in range; else move an unmoved unit as close as it can to its nearest enemy.
    A share of its commands (GREEDY_SLIP) are random ones instead."""
    if rng.random() < GREEDY_SLIP:
        return game.random_action(state, rng)
    tick = _stamp(state)
    seen = game.visible_enemies(state, state.side)
    for unit in _own(state):
        in_range = [e for e in seen if distance(unit.cell, e.cell) <= unit.stats.reach]
        if unit.ap >= 1 and in_range:
            return ("attack", unit.uid, min(in_range, key=lambda e: (e.count, e.uid)).uid, tick)
    for unit in _own(state):
        if not _unmoved(unit):
            continue
        goal = _goal(state, seen, unit)
        cells = _free_cells(game, state, unit, seen)
        if cells:
            best = min(cells, key=lambda c: (distance(c, goal), cells[c][0], c))
            if distance(best, goal) < distance(unit.cell, goal):
                return ("move", unit.uid, best[0], best[1], tick)
    return ("end", tick)


def _bonus(state: SkirmishState, cell: tuple[int, int]) -> float:
    return TERRAIN[terrain_at(state.terrain, cell)][2]


def _focus(game: Skirmish, state: SkirmishState, seen: list[Unit]) -> Unit | None:
    """The enemy to kill first: the weakest one that some unit can strike this turn, else the weakest seen."""
    if not seen:
        return None
    strikable = []
    for enemy in seen:
        for unit in _own(state):
            if unit.ap < 1:
                continue
            if distance(unit.cell, enemy.cell) <= unit.stats.reach or (
                _unmoved(unit)
                and any(distance(c, enemy.cell) <= unit.stats.reach for c in _free_cells(game, state, unit, seen))
            ):
                strikable.append(enemy)
                break
    return min(strikable or seen, key=lambda e: (e.count, e.uid))


def _tactician(game: Skirmish, state: SkirmishState, rng: random.Random) -> tuple:
    """Focus fire on one target; archers shoot from range; units strike and wait from forest, hills and cities.
    A share of its commands (TACTICIAN_SLIP) are random ones instead."""
    if rng.random() < TACTICIAN_SLIP:
        return game.random_action(state, rng)
    tick = _stamp(state)
    seen = game.visible_enemies(state, state.side)
    focus = _focus(game, state, seen)
    own = sorted(_own(state), key=lambda u: (u.kind != "archer", u.uid))  # archers strike first: no counter
    if focus is not None:
        for unit in own:
            if unit.ap >= 1 and distance(unit.cell, focus.cell) <= unit.stats.reach:
                return ("attack", unit.uid, focus.uid, tick)
        for unit in own:
            if unit.ap < 1 or not _unmoved(unit):
                continue
            cells = _free_cells(game, state, unit, seen)
            spots = [c for c in cells if distance(c, focus.cell) <= unit.stats.reach]
            if spots:

                def spot_value(cell: tuple[int, int], unit: Unit = unit, cells: dict = cells) -> tuple:
                    threats = sum(1 for e in seen if e.stats.reach == 1 and distance(cell, e.cell) == 1)
                    ranged = unit.stats.reach > 1 and distance(cell, focus.cell) > 1
                    return (
                        -(ranged * 3 - threats * (unit.kind == "archer") * 2 + _bonus(state, cell) * 5),
                        cells[cell][0],
                        cell,
                    )

                best = min(spots, key=spot_value)
                return ("move", unit.uid, best[0], best[1], tick)
    for unit in own:
        in_range = [e for e in seen if distance(unit.cell, e.cell) <= unit.stats.reach]
        if unit.ap >= 1 and in_range:
            return ("attack", unit.uid, min(in_range, key=lambda e: (e.count, e.uid)).uid, tick)
    for unit in own:
        if not _unmoved(unit):
            continue
        goal = _goal(state, seen, unit)
        cells = _free_cells(game, state, unit, seen)
        # Advance, but not into the reach of enemies this unit cannot strike first, and prefer good ground;
        # archers hang back behind the melee units.
        hold = 2 if unit.kind == "archer" else 0

        def advance_value(cell: tuple[int, int], goal: tuple = goal, hold: int = hold, cells: dict = cells) -> tuple:
            exposed = any(distance(cell, e.cell) <= e.stats.move // 2 + e.stats.reach for e in seen)
            return (distance(cell, goal) + hold * exposed - 2 * _bonus(state, cell), cells[cell][0], cell)

        if cells:
            best = min(cells, key=advance_value)
            if distance(best, goal) < distance(unit.cell, goal):
                return ("move", unit.uid, best[0], best[1], tick)
    return ("end", tick)


LADDER = [
    Bot("skirmish", 0, "random commands: a random unit that can act (or end) and one of its commands", random_chooser),
    Bot("skirmish", 1, "greedy: attacks the weakest enemy in range, else advances each unit once", _greedy),
    Bot("skirmish", 2, "focus fire on the weakest strikable enemy, archers from range, good ground", _tactician),
]
