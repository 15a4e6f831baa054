"""Skirmish: STAR's RoTK hex wargame, compact. Two armies of five units on a 12×10 hex map under fog of war.

A turn is a sequence of commands ("move U3 to e4", "attack U3 U7") ending with "end". Commands are checked
against what the acting side can see; a move that runs into an unseen enemy stops in front of it and is
counted as a failed command in the state (STAR's error counts). Option mode="real-time" stamps every
command with a game-clock tick ("@12 move U3 to e4"); see docs/games.md for the exact clock rules.
"""

from __future__ import annotations

import heapq
import math
import re
from dataclasses import replace
from typing import Any

from games.base import Game, IllegalAction, Outcome
from games.skirmish.hexmap import (
    COLS,
    ROWS,
    TERRAIN,
    WATER,
    cell_name,
    distance,
    generate,
    line_of_sight,
    mirror,
    neighbours,
    parse_cell,
    terrain_at,
)
from games.skirmish.player_views import SkirmishViews
from games.skirmish.state import TICKS_PER_SECOND, SkirmishState
from games.skirmish.units import ACTION_POINTS, ARMY, DEPLOYMENT, Unit, casualties, max_movement

SIDES = ("Red", "Blue")
DEFAULT_MAX_TURNS = 12
DEFAULT_WINDOW_TICKS = 10


def unit_name(uid: int) -> str:
    return f"U{uid}"


class Skirmish(SkirmishViews, Game[SkirmishState, tuple]):
    slug = "skirmish"
    name = "Skirmish"
    hidden_information = True
    seat_names = SIDES
    variants = {"real-time": {"mode": "real-time"}}

    def initial_state(self, *, seed: int, **options: Any) -> SkirmishState:
        mode = options.pop("mode", "turn-based")
        max_turns = options.pop("max_turns", DEFAULT_MAX_TURNS)
        window = options.pop("window_ticks", DEFAULT_WINDOW_TICKS)
        if options:
            raise ValueError(f"skirmish takes the options mode, max_turns, window_ticks; got {sorted(options)}")
        if mode not in ("turn-based", "real-time"):
            raise ValueError(f"mode must be 'turn-based' or 'real-time', got {mode!r}")
        if not isinstance(max_turns, int) or not 1 <= max_turns <= 100:
            raise ValueError(f"max_turns must be a whole number from 1 to 100, got {max_turns!r}")
        if not isinstance(window, int) or not 1 <= window <= 1000:
            raise ValueError(f"window_ticks must be a whole number from 1 to 1000, got {window!r}")
        terrain = generate(seed, set(DEPLOYMENT))
        units = []
        for side in (0, 1):
            for index, (kind, cell) in enumerate(zip(ARMY, DEPLOYMENT, strict=True)):
                col, row = cell if side == 0 else mirror(cell)
                units.append(
                    Unit(side * 5 + index + 1, side, kind, col, row, 100, max_movement(kind, 100), ACTION_POINTS)
                )
        return SkirmishState(
            seed, 0, terrain, tuple(units), 0, 1, max_turns, mode, 0, window, (0, 0), (0, 0), (), -1, ""
        )

    # -- geometry and knowledge ---------------------------------------------------------

    def unit(self, state: SkirmishState, uid: int) -> Unit | None:
        return next((u for u in state.units if u.uid == uid), None)

    def visible_enemies(self, state: SkirmishState, side: int) -> list[Unit]:
        """Enemy units some unit of `side` sees: within its vision range and with a clear line of sight."""
        own = [u for u in state.units if u.side == side]
        return [
            e
            for e in state.units
            if e.side != side
            and any(
                distance(u.cell, e.cell) <= u.stats.vision and line_of_sight(state.terrain, u.cell, e.cell) for u in own
            )
        ]

    def reachable(self, state: SkirmishState, unit: Unit, seen: list[Unit]) -> dict[tuple[int, int], tuple[int, Any]]:
        """Cells `unit` can reach with its movement points as its side sees the map: cell → (cost, previous cell).

        Water and seen enemies block; own units may be passed through but not stopped on.
        """
        blocked = {e.cell for e in seen}
        best: dict[tuple[int, int], tuple[int, Any]] = {unit.cell: (0, None)}
        queue = [(0, unit.cell)]
        while queue:
            cost, cell = heapq.heappop(queue)
            if cost > best[cell][0]:
                continue
            for nxt in neighbours(*cell):
                step = TERRAIN[terrain_at(state.terrain, nxt)][1]
                if step is None or nxt in blocked:
                    continue
                total = cost + step
                if total <= unit.mp and (nxt not in best or total < best[nxt][0]):
                    best[nxt] = (total, cell)
                    heapq.heappush(queue, (total, nxt))
        return best

    def clock_runs(self, state: SkirmishState) -> bool:
        return state.mode == "real-time"

    def arrival(self, state: SkirmishState, action: tuple, thinking_s: float) -> tuple:
        """Real-time: a command arrives `thinking_s` × TICKS_PER_SECOND ticks after the clock it was issued at."""
        if state.mode != "real-time":
            return action
        return (*action[:-1], max(action[-1], state.clock + math.ceil(thinking_s * TICKS_PER_SECOND)))

    def window_end(self, state: SkirmishState) -> int:
        """Real-time: the tick at which the acting side's window closes (windows alternate Red, Blue, …)."""
        return ((state.turn - 1) * 2 + state.side + 1) * state.window_ticks

    # -- legality -----------------------------------------------------------------------

    def current_player(self, state: SkirmishState) -> int | None:
        return None if state.winner >= 0 else state.side

    def commands(self, state: SkirmishState, tick: int) -> list[tuple]:
        """Every command the acting side may give, stamped with `tick` (-1 in turn-based mode)."""
        if self.current_player(state) is None:
            return []
        seen = self.visible_enemies(state, state.side)
        occupied = {u.cell for u in state.units if u.side == state.side} | {e.cell for e in seen}
        actions: list[tuple] = []
        for unit in state.units:
            if unit.side != state.side:
                continue
            if unit.ap >= 1:
                for enemy in seen:
                    if distance(unit.cell, enemy.cell) <= unit.stats.reach:
                        actions.append(("attack", unit.uid, enemy.uid, tick))
            for cell in sorted(self.reachable(state, unit, seen)):
                if cell not in occupied:
                    actions.append(("move", unit.uid, cell[0], cell[1], tick))
        actions.append(("end", tick))
        return actions

    def legal_actions(self, state: SkirmishState) -> list[tuple]:
        """Commands stamped with the current clock in real-time mode (any later tick is legal too)."""
        return self.commands(state, state.clock if state.mode == "real-time" else -1)

    def problem(self, state: SkirmishState, action: tuple) -> str | None:
        """Why `action` is not a legal command now (judged on what the acting side sees), or None."""
        if self.current_player(state) is None:
            return "The game is over."
        if not isinstance(action, tuple) or not action or action[0] not in ("move", "attack", "end"):
            return f"{action!r} is not a command; use 'move U<n> to <cell>', 'attack U<n> U<m>' or 'end'."
        sizes = {"move": 5, "attack": 4, "end": 2}
        if len(action) != sizes[action[0]] or not all(isinstance(x, int) for x in action[1:]):
            return f"{action!r} is not a well-formed command."
        tick = action[-1]
        if state.mode == "turn-based" and tick != -1:
            return "This game is turn-based: commands carry no '@tick'."
        if state.mode == "real-time" and tick < state.clock:
            return f"Tick {tick} is in the past: the clock is at tick {state.clock}."
        if action[0] == "end":
            return None
        unit = self.unit(state, action[1])
        if unit is None:
            return f"There is no living unit {unit_name(action[1])}."
        if unit.side != state.side:
            return f"{unit_name(unit.uid)} is not yours; your units are " + ", ".join(
                unit_name(u.uid) for u in state.units if u.side == state.side
            )
        seen = self.visible_enemies(state, state.side)
        if action[0] == "attack":
            target = next((e for e in seen if e.uid == action[2]), None)
            if target is None:
                return f"{unit_name(action[2])} is not an enemy unit you can see."
            if unit.ap < 1:
                return f"{unit_name(unit.uid)} has no action points left this turn."
            gap = distance(unit.cell, target.cell)
            if gap > unit.stats.reach:
                reach = unit.stats.reach
                return (
                    f"{unit_name(target.uid)} is {gap} hexes from {unit_name(unit.uid)}; its attack range is {reach}."
                )
            return None
        col, row = action[2], action[3]
        if not (0 <= col < COLS and 0 <= row < ROWS):
            return "That cell is off the map (a1–l10)."
        dest = (col, row)
        if terrain_at(state.terrain, dest) == WATER:
            return f"{cell_name(col, row)} is water, which no unit can enter."
        if dest == unit.cell:
            return f"{unit_name(unit.uid)} is already at {cell_name(col, row)}."
        if any(u.cell == dest for u in state.units if u.side == state.side) or any(e.cell == dest for e in seen):
            return f"{cell_name(col, row)} is occupied."
        if dest not in self.reachable(state, unit, seen):
            return f"{cell_name(col, row)} is out of reach: {unit_name(unit.uid)} has {unit.mp} movement points left."
        return None

    def is_legal(self, state: SkirmishState, action: tuple) -> bool:
        return self.problem(state, action) is None

    def require_legal(self, state: SkirmishState, action: tuple) -> None:
        problem = self.problem(state, action)
        if problem:
            raise IllegalAction("The game is over; no more moves can be made." if self.is_terminal(state) else problem)

    def random_action(self, state: SkirmishState, rng: Any) -> tuple:
        """A random unit that can act (or ending the turn, as one more choice), then one of its commands."""
        actions = self.legal_actions(state)
        groups: dict[int, list[tuple]] = {}
        for action in actions:
            groups.setdefault(action[1] if action[0] != "end" else 0, []).append(action)
        return rng.choice(groups[rng.choice(sorted(groups))])

    # -- resolution ---------------------------------------------------------------------

    def apply(self, state: SkirmishState, action: tuple) -> SkirmishState:
        self.require_legal(state, action)
        state = replace(state, ply=state.ply + 1)
        side = state.side
        if state.mode == "real-time":
            tick, end = action[-1], self.window_end(state)
            if tick >= end:
                # Late: the window closed before the command arrived; it is dropped (an automatic wait).
                text = f"{SIDES[side]}'s command arrived at tick {tick}, after its window closed at {end}; dropped."
                state = replace(state, failed=_bump(state.failed, side), log=(*state.log, (state.turn, side, text)))
                return self._end_turn(state)
            if action[0] == "end":
                return self._end_turn(state)
            state = replace(state, clock=tick + 1)
        elif action[0] == "end":
            return self._end_turn(state)
        state = self._move(state, action) if action[0] == "move" else self._attack(state, action)
        if state.winner < 0 and state.mode == "real-time" and state.clock >= self.window_end(state):
            return self._end_turn(state)
        return state

    def _move(self, state: SkirmishState, action: tuple) -> SkirmishState:
        unit = self.unit(state, action[1])
        routes = self.reachable(state, unit, self.visible_enemies(state, state.side))
        path = [(action[2], action[3])]
        while routes[path[-1]][1] is not None:
            path.append(routes[path[-1]][1])
        path.reverse()  # from the unit's cell to the destination
        hidden = {u.cell for u in state.units if u.side != state.side}
        stop = len(path) - 1
        for index, cell in enumerate(path[1:], start=1):
            if cell in hidden:
                stop = index - 1
                break
        dest = path[stop]
        # An own unit may stand on the cell where the ambush halts the march: stop further back.
        while stop > 0 and any(u.cell == dest and u.uid != unit.uid for u in state.units):
            stop -= 1
            dest = path[stop]
        moved = unit._replace(col=dest[0], row=dest[1], mp=unit.mp - routes[dest][0])
        state = self._replace_unit(state, moved)
        target = cell_name(action[2], action[3])
        if stop < len(path) - 1:
            text = (
                f"{unit_name(unit.uid)}'s march to {target} ran into an unseen enemy; it halted at {cell_name(*dest)}."
            )
            return replace(
                state,
                failed=_bump(state.failed, state.side),
                spatial=_bump(state.spatial, state.side),
                log=(*state.log, (state.turn, state.side, text)),
            )
        return replace(state, log=(*state.log, (state.turn, state.side, f"{unit_name(unit.uid)} moved to {target}.")))

    def _attack(self, state: SkirmishState, action: tuple) -> SkirmishState:
        attacker, defender = self.unit(state, action[1]), self.unit(state, action[2])
        bonus = TERRAIN[terrain_at(state.terrain, defender.cell)][2]
        hit = min(defender.count, casualties(attacker.kind, attacker.count, defender.kind, bonus))
        attacker = attacker._replace(ap=attacker.ap - 1)
        defender = defender._replace(count=defender.count - hit)
        text = (
            f"{unit_name(attacker.uid)} ({attacker.kind}) attacked "
            f"{unit_name(defender.uid)} ({defender.kind}): {hit} fell"
        )
        if defender.count > 0 and distance(attacker.cell, defender.cell) <= defender.stats.reach:
            counter_bonus = TERRAIN[terrain_at(state.terrain, attacker.cell)][2]
            back = min(attacker.count, casualties(defender.kind, defender.count, attacker.kind, counter_bonus, 0.5))
            attacker = attacker._replace(count=attacker.count - back)
            text += f"; the counter-attack cost {back}"
        text += "." + (f" {unit_name(defender.uid)} was destroyed." if defender.count == 0 else "")
        text += f" {unit_name(attacker.uid)} was destroyed." if attacker.count == 0 else ""
        for unit in (attacker, defender):
            state = self._replace_unit(state, unit)
        state = replace(state, log=(*state.log, (state.turn, -1, text)))
        for side in (0, 1):
            if not any(u.side == side for u in state.units):
                reason = f"{SIDES[1 - side]} destroyed {SIDES[side]}'s whole army"
                return replace(state, winner=1 - side, reason=reason)
        return state

    def _replace_unit(self, state: SkirmishState, unit: Unit) -> SkirmishState:
        units = tuple(unit if u.uid == unit.uid else u for u in state.units if u.uid != unit.uid or unit.count > 0)
        return replace(state, units=units)

    def _end_turn(self, state: SkirmishState) -> SkirmishState:
        side = 1 - state.side
        turn = state.turn + (1 if side == 0 else 0)
        clock = self.window_end(state) if state.mode == "real-time" else 0
        if turn > state.max_turns:
            totals = [sum(u.count for u in state.units if u.side == s) for s in (0, 1)]
            if totals[0] == totals[1]:
                winner, reason = 2, f"turn limit: both sides have {totals[0]} soldiers"
            else:
                winner = 0 if totals[0] > totals[1] else 1
                reason = f"turn limit: {SIDES[winner]} has more soldiers ({max(totals)} to {min(totals)})"
            return replace(state, winner=winner, reason=reason, clock=clock)
        units = tuple(
            u._replace(mp=max_movement(u.kind, u.count), ap=ACTION_POINTS) if u.side == side else u for u in state.units
        )
        return replace(state, side=side, turn=turn, clock=clock, units=units)

    def outcome(self, state: SkirmishState) -> Outcome | None:
        if state.winner < 0:
            return None
        if state.winner == 2:
            return Outcome.draw(state.reason)
        return Outcome.win(state.winner, state.reason)

    # -- JSON and notation ---------------------------------------------------------------

    def to_json(self, state: SkirmishState) -> dict[str, Any]:
        data = {f: getattr(state, f) for f in SkirmishState.__dataclass_fields__}
        data["units"] = [list(u) for u in state.units]
        data["failed"], data["spatial"] = list(state.failed), list(state.spatial)
        data["log"] = [list(e) for e in state.log]
        return data

    def from_json(self, data: dict[str, Any]) -> SkirmishState:
        return SkirmishState(
            seed=int(data["seed"]),
            ply=int(data["ply"]),
            terrain=str(data["terrain"]),
            units=tuple(
                Unit(int(a), int(b), str(c), int(d), int(e), int(f), int(g), int(h))
                for a, b, c, d, e, f, g, h in data["units"]
            ),
            side=int(data["side"]),
            turn=int(data["turn"]),
            max_turns=int(data["max_turns"]),
            mode=str(data["mode"]),
            clock=int(data["clock"]),
            window_ticks=int(data["window_ticks"]),
            failed=(int(data["failed"][0]), int(data["failed"][1])),
            spatial=(int(data["spatial"][0]), int(data["spatial"][1])),
            log=tuple((int(t), int(a), str(x)) for t, a, x in data["log"]),
            winner=int(data["winner"]),
            reason=str(data["reason"]),
        )

    def round_label(self, state: SkirmishState) -> str:
        return f"Turn {state.turn}"

    def action_to_text(self, state: SkirmishState, action: tuple) -> str:
        stamp = f"@{action[-1]} " if action[-1] >= 0 else ""
        if action[0] == "move":
            return f"{stamp}move {unit_name(action[1])} to {cell_name(action[2], action[3])}"
        if action[0] == "attack":
            return f"{stamp}attack {unit_name(action[1])} {unit_name(action[2])}"
        return f"{stamp}end"

    def parse_action(self, state: SkirmishState, text: str) -> tuple:
        return parse_command(state, text)

    def action_cells(self, state: SkirmishState, action: tuple) -> tuple[str, ...]:
        if action[0] == "end":
            return ("end",)
        unit = self.unit(state, action[1])
        if action[0] == "move":
            return (cell_name(*unit.cell), cell_name(action[2], action[3]))
        return (cell_name(*unit.cell), cell_name(*self.unit(state, action[2]).cell))

    def public_history(self, state: SkirmishState) -> str:
        return "\n".join(f"Turn {turn}: {text}" for turn, audience, text in state.log if audience == -1)


def _bump(pair: tuple[int, int], side: int) -> tuple[int, int]:
    return (pair[0] + 1, pair[1]) if side == 0 else (pair[0], pair[1] + 1)


# Numbers are ASCII and at most 9 digits: anything longer names no tick or unit, and int() of a
# long enough digit string raises ValueError rather than the IllegalAction a person should see.
COMMAND = re.compile(
    r"^(?:@(?P<tick>[0-9]{1,9})\s+)?(?:(?P<end>end|wait|end_turn|end turn)"
    r"|move\s+u?(?P<mover>[0-9]{1,9})\s+(?:to\s+)?(?P<cell>[a-z]+[0-9]{1,9})"
    r"|attack\s+u?(?P<attacker>[0-9]{1,9})\s+(?:on\s+)?u?(?P<target>[0-9]{1,9}))\.?$"
)


def parse_command(state: SkirmishState, text: str) -> tuple:
    """'move U3 to e4', 'attack U3 U7', 'end' (or 'wait'); '@<tick> ' first in real-time mode."""
    match = COMMAND.match(" ".join(text.strip().lower().split()))
    if not match:
        raise IllegalAction(
            f"Could not read {text.strip()[:80]!r}; write 'move U<n> to <cell>' (e.g. 'move U3 to e4'), "
            "'attack U<n> U<m>' or 'end'" + (", after '@<tick> '." if state.mode == "real-time" else ".")
        )
    # An unstamped command in real-time mode arrives now, at the current tick.
    tick = int(match["tick"]) if match["tick"] is not None else (state.clock if state.mode == "real-time" else -1)
    if match["end"]:
        return ("end", tick)
    if match["attacker"]:
        return ("attack", int(match["attacker"]), int(match["target"]), tick)
    cell = parse_cell(match["cell"])
    if cell is None:
        raise IllegalAction(f"{match['cell']!r} is not a cell of the map; cells run from a1 to l10.")
    return ("move", int(match["mover"]), cell[0], cell[1], tick)


def classify_command_error(state: SkirmishState, text: str) -> str:
    """'spatial' when a rejected command broke a spatial constraint (off the map, water, out of move or attack
    range, occupied or same cell), else 'other' (unreadable, wrong unit, no action points, wrong tick…)."""
    try:
        action = parse_command(state, text)
    except IllegalAction as error:
        return "spatial" if "not a cell of the map" in str(error) else "other"
    problem = SKIRMISH.problem(state, action)
    if problem is None:
        return "other"
    spatial_marks = ("off the map", "is water", "out of reach", "attack range", "is occupied", "already at")
    return "spatial" if any(mark in problem for mark in spatial_marks) else "other"


SKIRMISH = Skirmish()
