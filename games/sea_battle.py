"""Sea Battle (GameBench): two teams of three ships on a 24×24 sea with rocks; moves and broadsides resolve together.

Each round every live ship gets one sealed order — a move (forward, left, right, stay) and a broadside (none,
port, starboard, both) — Blue's ships A, B, C first, then Red's X, Y, Z; no seat sees the other's orders before
the round resolves. Then all ships move at once (rocks, collisions), then all fire at once, then ships with no
hull left sink. A team wins when it still floats and the other does not. Rule choices are in docs/games.md.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from typing import Any

from games.base import Game, IllegalAction, Outcome

SIZE = 24
HULL = 6
SHOT_DAMAGE = 2
ROCK_DAMAGE = 1
COLLISION_DAMAGE = 1
RANGE = 3
MAX_ROUNDS = 60
ROCK_PAIRS = 14
SIDES = ("Blue", "Red")
SHIP_NAMES = (("A", "B", "C"), ("X", "Y", "Z"))
HEADINGS = "NESW"
STEP = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
MOVES = ("forward", "left", "right", "stay")
FIRES = ("none", "port", "starboard", "both")
#: The sides ("left" is port, "right" starboard) each broadside order fires.
BROADSIDES = {"none": (), "port": ("left",), "starboard": ("right",), "both": ("left", "right")}
COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWX"
# Blue starts in row 16 sailing north, Red in row 9 sailing south: the board turned half round.
STARTS = (((15, 8), (15, 11), (15, 14)), ((8, 15), (8, 12), (8, 9)))

Cell = tuple[int, int]
Action = tuple[str, str, str]  # (ship, move, fire)


@dataclass(frozen=True)
class Ship:
    name: str
    team: int
    cell: Cell
    heading: str
    damage: int

    @property
    def afloat(self) -> bool:
        return self.damage < HULL


@dataclass(frozen=True)
class SeaBattleState:
    seed: int
    ply: int
    round: int  # rounds resolved so far
    rocks: frozenset[Cell]
    ships: tuple[Ship, ...]  # A, B, C, X, Y, Z, sunk ones included
    sealed: tuple[Action, ...]  # this round's orders so far (hidden from the other seat until it resolves)
    report: tuple[str, ...]  # what happened in the last resolved round (public)


def cell_name(cell: Cell) -> str:
    """`(0, 0)` is A1, the top-left corner; rows count down, columns run A–X."""
    return f"{COLUMNS[cell[1]]}{cell[0] + 1}"


def on_board(cell: Cell) -> bool:
    return 0 <= cell[0] < SIZE and 0 <= cell[1] < SIZE


def turned(heading: str, move: str) -> str:
    """The heading after `move`: left and right turn a quarter, the others keep it."""
    shift = {"left": -1, "right": 1}.get(move, 0)
    return HEADINGS[(HEADINGS.index(heading) + shift) % 4]


def side_step(heading: str, side: str) -> Cell:
    """The unit step to port ('left') or starboard ('right') of `heading`."""
    return STEP[turned(heading, side)]


def plus(cell: Cell, step: Cell, times: int = 1) -> Cell:
    return cell[0] + step[0] * times, cell[1] + step[1] * times


def make_rocks(rng: random.Random) -> frozenset[Cell]:
    """Rocks drawn from `rng`, symmetric under a half turn so neither side starts better placed."""
    keep_clear = {plus(c, STEP[h], k) for team, h in ((0, "N"), (1, "S")) for c in STARTS[team] for k in (0, 1, 2)}
    rocks: set[Cell] = set()
    while len(rocks) < 2 * ROCK_PAIRS:
        cell = (rng.randrange(SIZE), rng.randrange(SIZE))
        mirror = (SIZE - 1 - cell[0], SIZE - 1 - cell[1])
        if cell != mirror and cell not in keep_clear and mirror not in keep_clear:
            rocks.update((cell, mirror))
    return frozenset(rocks)


def _resolve_steps(
    ships: dict[str, Ship], steps: dict[str, Cell], rocks: frozenset[Cell], damage: dict[str, int], events: list[str]
) -> set[str]:
    """Move every ship in `steps` one square at once; return those blocked (by a rock, the edge or a ship)."""
    target = {name: plus(ships[name].cell, step) for name, step in steps.items()}
    blocked: set[str] = set()
    bumped: set[str] = set()
    for name, cell in target.items():
        if not on_board(cell):
            blocked.add(name)
            events.append(f"{name} is stopped by the edge of the sea")
        elif cell in rocks:
            blocked.add(name)
            damage[name] += ROCK_DAMAGE
            events.append(f"{name} runs onto the rock at {cell_name(cell)} (-{ROCK_DAMAGE})")
    changed = True
    while changed:  # a ship blocked in turn blocks any ship sailing into its square
        changed = False
        moving = {n: c for n, c in target.items() if n not in blocked}
        occupant = {s.cell: n for n, s in ships.items() if s.afloat}
        for name, cell in moving.items():
            rivals = [n for n, c in moving.items() if c == cell and n != name]
            there = occupant.get(cell)
            head_on = there is not None and there in moving and moving[there] == ships[name].cell
            standing = there is not None and there not in moving
            if rivals or head_on or standing:
                blocked.update([name, *rivals] + ([there] if head_on else []))
                bumped.update([name, *rivals] + ([there] if there is not None and (head_on or standing) else []))
                changed = True
                break
    for name in sorted(bumped):
        damage[name] += COLLISION_DAMAGE
        events.append(f"{name} is damaged in a collision (-{COLLISION_DAMAGE})")
    for name, cell in target.items():
        if name not in blocked:
            ships[name] = replace(ships[name], cell=cell)
    return blocked


def resolve_round(state: SeaBattleState) -> SeaBattleState:
    """Carry out every sealed order: moves (forward step, then the turn's side step), then broadsides, then sinking."""
    ships = {s.name: s for s in state.ships}
    orders = {ship: (move, fire) for ship, move, fire in state.sealed}
    damage = dict.fromkeys(ships, 0)
    events: list[str] = []
    movers = {n: STEP[ships[n].heading] for n, (move, _) in orders.items() if move != "stay"}
    blocked = _resolve_steps(ships, movers, state.rocks, damage, events)
    turners = {
        n: side_step(ships[n].heading, move)
        for n, (move, _) in orders.items()
        if move in ("left", "right") and n not in blocked
    }
    _resolve_steps(ships, turners, state.rocks, damage, events)
    for name, (move, _) in orders.items():
        ships[name] = replace(ships[name], heading=turned(ships[name].heading, move))
    sailed = [f"{n} sails to {cell_name(ships[n].cell)} heading {ships[n].heading}" for n in movers]
    events[:0] = sailed
    occupant = {s.cell: n for n, s in ships.items() if s.afloat}
    for name, (_, fire) in orders.items():
        for side in BROADSIDES[fire]:
            step = side_step(ships[name].heading, side)
            hit = None
            for k in range(1, RANGE + 1):
                cell = plus(ships[name].cell, step, k)
                if not on_board(cell) or cell in state.rocks:
                    break
                if cell in occupant:
                    hit = occupant[cell]
                    break
            word = "port" if side == "left" else "starboard"
            if hit:
                damage[hit] += SHOT_DAMAGE
                events.append(f"{name} fires to {word} and hits {hit} (-{SHOT_DAMAGE})")
            else:
                events.append(f"{name} fires to {word} and misses")
    for name, taken in damage.items():
        if taken:
            ships[name] = replace(ships[name], damage=min(HULL, ships[name].damage + taken))
            if not ships[name].afloat:
                events.append(f"{name} sinks")
    return replace(
        state,
        ply=state.ply + 1,
        round=state.round + 1,
        ships=tuple(ships[s.name] for s in state.ships),
        sealed=(),
        report=tuple(events) or ("All ships hold still.",),
    )


class SeaBattle(Game[SeaBattleState, Action]):
    slug = "sea-battle"
    name = "Sea Battle"
    seat_names = SIDES
    hidden_information = True  # a round's orders stay sealed until both seats have given theirs
    chance = True  # only the rocks, drawn from the seed

    # -- rules --------------------------------------------------------------------------------

    def initial_state(self, *, seed: int, **options: Any) -> SeaBattleState:
        ships = tuple(
            Ship(name, team, STARTS[team][i], "N" if team == 0 else "S", 0)
            for team in (0, 1)
            for i, name in enumerate(SHIP_NAMES[team])
        )
        bare = SeaBattleState(seed, 0, 0, frozenset(), ships, (), ())
        return replace(bare, rocks=make_rocks(self.rng(bare)))

    def ship_to_order(self, state: SeaBattleState) -> Ship | None:
        """The next live ship without an order this round (Blue's first), or None when the game is over."""
        if self._over(state):
            return None
        ordered = {order[0] for order in state.sealed}
        return next((s for s in state.ships if s.afloat and s.name not in ordered), None)

    def current_player(self, state: SeaBattleState) -> int | None:
        ship = self.ship_to_order(state)
        return None if ship is None else ship.team

    def legal_actions(self, state: SeaBattleState) -> list[Action]:
        ship = self.ship_to_order(state)
        return [] if ship is None else [(ship.name, move, fire) for move in MOVES for fire in FIRES]

    def apply(self, state: SeaBattleState, action: Action) -> SeaBattleState:
        self.require_legal(state, action)
        sealed = replace(state, ply=state.ply + 1, sealed=(*state.sealed, action))
        if self.ship_to_order(sealed) is not None:
            return sealed
        return resolve_round(replace(sealed, ply=state.ply))  # the last order of a round resolves it

    def _over(self, state: SeaBattleState) -> Outcome | None:
        afloat = [any(s.afloat for s in state.ships if s.team == team) for team in (0, 1)]
        if not any(afloat):
            return Outcome.draw("both fleets sank in the same round")
        if afloat.count(True) == 1:
            winner = afloat.index(True)
            return Outcome.win(winner, f"{SIDES[winner]} sank the whole {SIDES[1 - winner]} fleet")
        if state.round >= MAX_ROUNDS:
            return Outcome.draw(f"both fleets still float after {MAX_ROUNDS} rounds")
        return None

    def outcome(self, state: SeaBattleState) -> Outcome | None:
        return self._over(state)

    # -- storage and notation -------------------------------------------------------------------

    def to_json(self, state: SeaBattleState) -> dict[str, Any]:
        return {
            "seed": state.seed,
            "ply": state.ply,
            "round": state.round,
            "rocks": sorted([r, c] for r, c in state.rocks),
            "ships": [[s.name, s.team, s.cell[0], s.cell[1], s.heading, s.damage] for s in state.ships],
            "sealed": [list(order) for order in state.sealed],
            "report": list(state.report),
        }

    def from_json(self, data: dict[str, Any]) -> SeaBattleState:
        return SeaBattleState(
            seed=int(data["seed"]),
            ply=int(data["ply"]),
            round=int(data["round"]),
            rocks=frozenset((int(r), int(c)) for r, c in data["rocks"]),
            ships=tuple(Ship(str(n), int(t), (int(r), int(c)), str(h), int(d)) for n, t, r, c, h, d in data["ships"]),
            sealed=tuple((str(s), str(m), str(f)) for s, m, f in data["sealed"]),
            report=tuple(str(line) for line in data["report"]),
        )

    def action_to_text(self, state: SeaBattleState, action: Action) -> str:
        return " ".join(action)

    def parse_action(self, state: SeaBattleState, text: str) -> Action:
        ship = self.ship_to_order(state)
        words = re.findall(r"[a-z]+", text.lower())
        if ship is not None and words and words[0] == ship.name.lower():
            words = words[1:]
        move = [m for m in MOVES if words and m == words[0]]
        fire = [f for f in FIRES if len(words) == 2 and f == words[1]]
        if ship is None or len(words) != 2 or not move or not fire:
            raise IllegalAction(
                f"Could not read {text.strip()[:80]!r}; write the ship, a move and a broadside, "
                f"e.g. '{ship.name if ship else 'A'} forward port' (moves: {', '.join(MOVES)}; "
                f"broadsides: {', '.join(FIRES)})."
            )
        return ship.name, move[0], fire[0]

    def public_action_text(self, text: str) -> str:
        return "(order sealed)"  # the other seat must not read it before the round resolves

    # -- views -----------------------------------------------------------------------------------

    def _view(self, state: SeaBattleState, viewer: int | None, reveal: bool) -> dict[str, Any]:
        outcome = self._over(state)
        ship = self.ship_to_order(state)
        by_cell = {s.cell: s for s in state.ships if s.afloat}
        rows = [
            {
                "number": r + 1,
                "cells": [
                    {
                        "name": cell_name((r, c)),
                        "rock": (r, c) in state.rocks,
                        "ship": by_cell[(r, c)].name if (r, c) in by_cell else "",
                        "side": SIDES[by_cell[(r, c)].team].lower() if (r, c) in by_cell else "",
                        "heading": by_cell[(r, c)].heading if (r, c) in by_cell else "",
                    }
                    for c in range(SIZE)
                ],
            }
            for r in range(SIZE)
        ]
        shown = [o for o in state.sealed if reveal or self._team_of_ship(state, o[0]) == viewer]
        return {
            "viewer": viewer,
            "round": state.round + 1,
            "max_rounds": MAX_ROUNDS,
            "columns": list(COLUMNS),
            "rows": rows,
            "fleet": [
                {
                    "name": s.name,
                    "side": SIDES[s.team].lower(),
                    "cell": cell_name(s.cell) if s.afloat else "",
                    "heading": s.heading,
                    "hull": HULL - s.damage,
                    "afloat": s.afloat,
                }
                for s in state.ships
            ],
            "to_act": None if ship is None else ship.team,
            "ship_to_order": "" if ship is None else ship.name,
            "orders": [" ".join(o) for o in shown],
            "orders_given": len(state.sealed),
            "moves": list(MOVES),
            "fires": list(FIRES),
            "report": list(state.report),
            "result": outcome.reason if outcome else "",
        }

    def _team_of_ship(self, state: SeaBattleState, name: str) -> int:
        return next(s.team for s in state.ships if s.name == name)

    def player_view(self, state: SeaBattleState, player: int | None) -> dict[str, Any]:
        return self._view(state, player, reveal=False)

    def full_view(self, state: SeaBattleState) -> dict[str, Any]:
        return self._view(state, None, reveal=True)

    def public_history(self, state: SeaBattleState) -> str:
        """What the last resolved round did (where each ship is now says the rest)."""
        return "\n".join([f"Round {state.round}:", *(f"- {line}" for line in state.report)]) if state.report else ""

    def board_text(self, state: SeaBattleState) -> str:
        """The sea as text: '#' rock, '.' water, a ship's letter followed by its heading (two characters a cell)."""
        by_cell = {s.cell: s for s in state.ships if s.afloat}
        lines = ["    " + " ".join(f"{c} " for c in COLUMNS)]
        for r in range(SIZE):
            cells = []
            for c in range(SIZE):
                ship = by_cell.get((r, c))
                cells.append(f"{ship.name}{ship.heading}" if ship else "##" if (r, c) in state.rocks else "..")
            lines.append(f"{r + 1:>3} " + " ".join(cells))
        return "\n".join(lines)

    def observation_text(self, state: SeaBattleState, player: int) -> str:
        ship = self.ship_to_order(state)
        lines = [f"You are {SIDES[player]} (ships {', '.join(SHIP_NAMES[player])}). Round {state.round + 1}.", ""]
        lines.append(self.board_text(state))
        lines.append("")
        for s in state.ships:
            owner = "yours" if s.team == player else "enemy"
            if s.afloat:
                lines.append(
                    f"{s.name} ({owner}) at {cell_name(s.cell)} heading {s.heading}, hull {HULL - s.damage}/{HULL}"
                )
            else:
                lines.append(f"{s.name} ({owner}) has sunk")
        mine = [" ".join(o) for o in state.sealed if self._team_of_ship(state, o[0]) == player]
        if mine:
            lines += ["", f"Your orders so far this round: {'; '.join(mine)}"]
        if ship is not None and ship.team == player:
            lines += [
                "",
                f"Give {ship.name}'s order: '{ship.name} <move> <broadside>', e.g. '{ship.name} forward both'.",
            ]
        return "\n".join(lines)

    def rules_text(self) -> str:
        return (
            "Sea Battle (GameBench). "
            "Sink all of your opponent team's ships before they sink all of your team's ships.\n"
            "- Damage: Players can be damaged in three ways: (1) by getting shot at by another player, (2) by sailing "
            "into a rock, (3) by colliding with another ship.\n"
            "- Sinking: After a player has sustained enough damage, they sink and cannot play the rest of the round.\n"
            "- Winning: A team wins if they have at least one live ship when all of their opponents have sunken.\n"
            "- Board: The board is a 24x24 grid. Some squares are occupied by rocks and some are occupied by players' "
            "ships.\n"
            "- Gameplay: Each turn, all players choose how they want to move and how they want to shoot. All players' "
            "choices are executed simultaneously.\n"
            "- Teams: At the start of the game, there are three players on each team.\n\n"
            "Details. You command one team: Blue has ships A, B, C; Red has X, Y, Z. Columns are A-X left to right, "
            "rows 1-24 top to bottom; N is up. Each round you give every one of your live ships one order, "
            "'<ship> <move> <broadside>', one ship per answer (e.g. 'A forward port'). Moves: forward (one square "
            "ahead), left / right (one square ahead, then one square to that side, ending turned a quarter that "
            "way), stay. Broadsides: none, port (the ship's left side), starboard (its right side), both. Orders "
            "stay sealed until both teams have given theirs; then all ships move together (a ship sailing into a "
            f"rock stops and loses {ROCK_DAMAGE} hull; ships meeting in or sailing into the same square stop and each "
            f"lose {COLLISION_DAMAGE}; the edge of the sea stops a ship without damage), then all fire together: a "
            f"cannonball flies up to {RANGE} squares straight out from the chosen side, stops at a rock and hits the "
            f"first ship in its way, friend or foe, for {SHOT_DAMAGE}. A ship has {HULL} hull and sinks at 0. "
            f"After {MAX_ROUNDS} rounds with both teams afloat the game is a draw.\n"
            "Answer with one order for the ship named in the observation."
        )

    # -- UI ------------------------------------------------------------------------------------

    def action_cells(self, state: SeaBattleState, action: Action) -> tuple[str, ...]:
        return (f"{action[1]}-{action[2]}",)
