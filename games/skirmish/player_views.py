"""What each viewer of a skirmish sees (fog of war), and the texts for people and models."""

from __future__ import annotations

import math
from typing import Any

from games.skirmish.hexmap import COLS, LETTERS, ROWS, TERRAIN, cell_name, terrain_at
from games.skirmish.state import TICKS_PER_SECOND, SkirmishState
from games.skirmish.units import MAX_COUNT, UNIT_TYPES, max_movement

HEX_W, HEX_H = 15.0, 17.32  # SVG units between column and row centres of flat-topped hexes of radius 10
HEX_POINTS = "-10,0 -5,-8.66 5,-8.66 10,0 5,8.66 -5,8.66"


def _unit_json(unit: Any, state: SkirmishState) -> dict[str, Any]:
    return {
        "id": f"U{unit.uid}",
        "side": unit.side,
        "type": unit.kind,
        "cell": cell_name(*unit.cell),
        "count": unit.count,
        "max_count": MAX_COUNT,
        "mp": unit.mp,
        "ap": unit.ap,
        "letter": unit.kind[0].upper(),
    }


RULES = (
    "Skirmish, a two-player hex wargame after STAR's Romance of the Three Kingdoms battle. Red and Blue each "
    "command five units: two infantry, one cavalry and two archers (Red U1–U5, Blue U6–U10), 100 soldiers each.\n"
    "Map: 12 columns a–l by 10 rows 1–10 of flat-topped hexes in even-q offset coordinates: a cell is "
    "<column letter><row number>, columns grow to the right and rows grow upward; even columns (a, c, e, …) sit "
    "half a row higher. The hex of an even column (c, r) touches (c, r±1) and (c±1, r), (c±1, r+1); an odd "
    "column's touches (c, r±1) and (c±1, r−1), (c±1, r). Distances are hex distances (convert to axial "
    "coordinates), never Euclidean or Manhattan.\n"
    "Terrain (move cost, defence bonus, blocks sight): plain 1, 0%, no; forest 2, +20%, yes; hill 2, +30%, yes; "
    "mountain 3, +50%, yes; city 1, +40%, yes; water impassable.\n"
    "Units (movement, attack, defence, attack range, sight): infantry 4, 10, 10, 1, 2; cavalry 8, 14, 6, 1, 3; "
    "archer 4, 12, 6, 3, 4. Each unit gets its movement points and 2 action points at the start of its side's "
    "turn; it loses 1 movement point per full 20 soldiers lost (at least 1). Moving costs the terrain cost of "
    "every hex entered; units may pass through their own units but not stop on them, and cannot pass an "
    "enemy they see. An attack costs 1 action point and needs the target within attack range.\n"
    "Combat: effective attack = attack × σ(soldiers/100) / (1 + defender's terrain bonus), where σ is about 1 "
    "at full strength, 0.92 at 30% and 0.5 at 10% (units below 30% lose their punch fast). The defender loses "
    "effective attack × 20 / its defence soldiers (rounded, at least 1). If it survives and the attacker is "
    "within its own range, it strikes back at half strength.\n"
    "Fog of war: you see enemy units within the sight range of one of your units, unless a forest, hill, "
    "mountain or city hex lies between them. Commands are judged on what you see: a march into a hidden enemy "
    "halts in front of it and counts as a failed command.\n"
    "A side wins by destroying every enemy unit. After 12 rounds the side with more soldiers wins "
    "(equal: a draw).\n"
    "A turn is a sequence of commands, one per answer: 'move U3 to e4', 'attack U3 U7' (your U3 attacks "
    "enemy U7) and finally 'end'. In real-time games every command starts with the game tick at which it is "
    "sent, e.g. '@12 move U3 to e4'."
)


def _cell(name: str) -> tuple[int, int]:
    return LETTERS.index(name[0]), int(name[1:]) - 1


class SkirmishViews:
    """The views and texts of `Skirmish`; a mixin that relies on the game's fog of war and clock."""

    def player_view(self, state: SkirmishState, player: int | None) -> dict[str, Any]:
        return self.board_view(state, player, reveal=False)

    def full_view(self, state: SkirmishState) -> dict[str, Any]:
        return self.board_view(state, None, reveal=True)

    def rules_text(self) -> str:
        return RULES

    def shown_units(self, state: SkirmishState, viewer: int | None, reveal: bool) -> list:
        """A side sees its own units and the enemies in its sight; a spectator sees units their enemy sees."""
        if reveal:
            return list(state.units)
        if viewer is None:
            public = {u.uid for side in (0, 1) for u in self.visible_enemies(state, side)}
            return [u for u in state.units if u.uid in public]
        seen = {u.uid for u in self.visible_enemies(state, viewer)}
        return [u for u in state.units if u.side == viewer or u.uid in seen]

    def board_view(self, state: SkirmishState, viewer: int | None, reveal: bool) -> dict[str, Any]:
        units = self.shown_units(state, viewer, reveal)
        by_cell = {u.cell: u for u in units}
        cells = []
        for col in range(COLS):
            for row in range(ROWS):
                kind = terrain_at(state.terrain, (col, row))
                unit = by_cell.get((col, row))
                cells.append(
                    {
                        "name": cell_name(col, row),
                        "terrain": TERRAIN[kind][0],
                        "x": round(10 + HEX_W * col, 2),
                        "y": round(HEX_H * (ROWS - row) - (HEX_H / 2 if col % 2 == 0 else 0), 2),
                        "unit": _unit_json(unit, state) if unit else None,
                    }
                )
        to_act = self.current_player(state)
        real_time = state.mode == "real-time"
        window_end = self.window_end(state) if real_time and to_act is not None else None
        view: dict[str, Any] = {
            "game": self.slug,
            "viewer": viewer,
            "side_names": ["Red", "Blue"],
            "cells": cells,
            "hex_points": HEX_POINTS,
            "width": round(20 + HEX_W * (COLS - 1), 2),
            "height": round(HEX_H * (ROWS + 0.5), 2),
            "units": [_unit_json(u, state) for u in units],
            "turn": min(state.turn, state.max_turns),
            "max_turns": state.max_turns,
            "to_act": to_act,
            "mode": state.mode,
            "clock": state.clock,
            "window_end": window_end,
            "ticks_per_second": TICKS_PER_SECOND if real_time else None,
            # The most whole seconds of thinking (since the last command, or the start) with which the acting side's
            # command still arrives inside its window: arrival = clock + ⌈thinking × ticks per second⌉ < window end.
            "window_s": math.floor((window_end - state.clock - 1) / TICKS_PER_SECOND)
            if window_end is not None
            else None,
            "failed_commands": list(state.failed),
            "spatial_errors": list(state.spatial),
            "log": [text for turn, audience, text in state.log if reveal or audience == -1 or audience == viewer][-12:],
            "winner": state.winner,
            "reason": state.reason,
        }
        if reveal:
            view["seed"] = state.seed
        return view

    def observation_text(self, state: SkirmishState, player: int) -> str:
        view = self.board_view(state, player, reveal=False)
        side = ("Red", "Blue")[player]
        lines = [f"You command {side}. Round {view['turn']} of {state.max_turns}."]
        if state.mode == "real-time" and view["window_end"] is not None:
            lines.append(
                f"Real-time: the clock is at tick {state.clock}; "
                f"the current window closes at tick {view['window_end']}."
            )
        lines.append("Map, top row first (P plain, F forest, H hill, M mountain, C city, W water; units shown by id):")
        units_at = {u["cell"]: u["id"] for u in view["units"]}
        lines.append("     " + " ".join(f"{c:>3}" for c in LETTERS[:COLS]))
        for row in reversed(range(ROWS)):
            marks = []
            for col in range(COLS):
                name = cell_name(col, row)
                marks.append(f"{units_at.get(name, terrain_at(state.terrain, (col, row))):>3}")
            lines.append(f"{row + 1:>4} " + " ".join(marks))
        lines.append("Your units:")
        for unit in (u for u in view["units"] if u["side"] == player):
            stats = UNIT_TYPES[unit["type"]]
            terrain = TERRAIN[terrain_at(state.terrain, _cell(unit["cell"]))][0]
            lines.append(
                f"  {unit['id']} {unit['type']} at {unit['cell']} ({terrain}): {unit['count']}/{MAX_COUNT} soldiers, "
                f"movement {unit['mp']}/{max_movement(unit['type'], unit['count'])}, action points {unit['ap']}, "
                f"attack {stats.attack}, defence {stats.defence}, range {stats.reach}, sight {stats.vision}"
            )
        enemies = [u for u in view["units"] if u["side"] != player]
        lines.append("Enemy units in sight:" if enemies else "No enemy unit in sight.")
        for unit in enemies:
            terrain = TERRAIN[terrain_at(state.terrain, _cell(unit["cell"]))][0]
            lines.append(f"  {unit['id']} {unit['type']} at {unit['cell']} ({terrain}): {unit['count']} soldiers")
        lines.append(f"Your failed commands so far: {state.failed[player]} ({state.spatial[player]} spatial).")
        if view["log"]:
            lines.append("Recent events:\n" + "\n".join(f"  {text}" for text in view["log"]))
        if view["winner"] >= 0:
            lines.append(f"Game over: {view['reason']}.")
        return "\n".join(lines)
