"""Sea Battle bots: each scores the 16 orders of the ship to order by a one-round forecast.

Bots read only what their seat may know: positions, hulls, rocks and their own team's sealed orders — never
the other team's orders for the round.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.base import Game
from games.bots.base import Bot, random_chooser
from games.sea_battle import (
    BROADSIDES,
    HULL,
    MOVES,
    RANGE,
    ROCK_DAMAGE,
    SHOT_DAMAGE,
    STEP,
    Action,
    Cell,
    SeaBattleState,
    Ship,
    on_board,
    plus,
    side_step,
    turned,
)


def sail(ship: Ship, move: str, rocks: frozenset[Cell]) -> tuple[Cell, str, int]:
    """Where `ship` ends after `move` if no other ship is in its way: (cell, heading, rock damage)."""
    if move == "stay":
        return ship.cell, ship.heading, 0
    cell, damage = ship.cell, 0
    steps = [STEP[ship.heading]] + ([side_step(ship.heading, move)] if move != "forward" else [])
    for step in steps:
        nxt = plus(cell, step)
        if not on_board(nxt):
            break
        if nxt in rocks:
            damage += ROCK_DAMAGE
            break
        cell = nxt
    return cell, turned(ship.heading, move), damage


def line_of_fire(cell: Cell, heading: str, side: str, rocks: frozenset[Cell]) -> list[Cell]:
    """The squares a broadside from `cell` crosses, nearest first, up to a rock or the edge."""
    squares = []
    step = side_step(heading, side)
    for k in range(1, RANGE + 1):
        square = plus(cell, step, k)
        if not on_board(square) or square in rocks:
            break
        squares.append(square)
    return squares


def first_hit(squares: list[Cell], spots: dict[Cell, float]) -> tuple[Cell | None, float]:
    """The first square in `squares` where a ship may be, and how likely it is there."""
    for square in squares:
        if square in spots:
            return square, spots[square]
    return None, 0.0


class Forecast:
    """What one seat expects of the coming round: friends where their orders take them, enemies' likely squares."""

    def __init__(self, state: SeaBattleState, me: Ship, spread: bool) -> None:
        self.rocks = state.rocks
        orders = {ship: move for ship, move, _ in state.sealed}
        self.friends: dict[Cell, float] = {}
        self.enemies: dict[Cell, float] = {}
        self.enemy_ships = [s for s in state.ships if s.afloat and s.team != me.team]
        for s in state.ships:
            if not s.afloat or s.name == me.name:
                continue
            if s.team == me.team:
                # own team's sealed orders are this seat's own knowledge
                self.friends[sail(s, orders.get(s.name, "stay"), self.rocks)[0]] = 1.0
            elif spread:
                for move in MOVES:
                    cell = sail(s, move, self.rocks)[0]
                    self.enemies[cell] = self.enemies.get(cell, 0.0) + 0.25
            else:
                self.enemies[s.cell] = 1.0

    def fire_value(self, cell: Cell, heading: str, fire: str) -> float:
        """Expected damage dealt to enemies minus damage dealt to friends by `fire` from `cell`."""
        value = 0.0
        for side in BROADSIDES[fire]:
            squares = line_of_fire(cell, heading, side, self.rocks)
            friend, _ = first_hit(squares, self.friends)
            enemy, chance = first_hit(squares, self.enemies)
            if friend is not None and (enemy is None or squares.index(friend) < squares.index(enemy)):
                value -= SHOT_DAMAGE
            elif enemy is not None:
                value += SHOT_DAMAGE * chance
        return value

    def danger(self, cell: Cell) -> float:
        """Expected damage taken at `cell` if every enemy fires both broadsides from where it may sail."""
        total = 0.0
        for enemy in self.enemy_ships:
            for move in MOVES:
                spot, heading, _ = sail(enemy, move, self.rocks)
                for side in ("left", "right"):
                    if cell in line_of_fire(spot, heading, side, self.rocks):
                        total += SHOT_DAMAGE / 4
        return total

    def closeness(self, cell: Cell) -> float:
        """Minus the distance to the nearest enemy: the fleets must meet for anything to happen."""
        if not self.enemy_ships:
            return 0.0
        return -min(abs(cell[0] - e.cell[0]) + abs(cell[1] - e.cell[1]) for e in self.enemy_ships)


Chooser = Callable[[Game, SeaBattleState, random.Random], Action]


def forecast_chooser(*, wander: float, spread: bool, caution: float) -> Chooser:
    """Picks the order with the best forecast; with chance `wander` it keeps a random move and aims only its fire."""

    def choose(game: Game, state: SeaBattleState, rng: random.Random) -> Action:
        me = game.ship_to_order(state)  # type: ignore[attr-defined]
        forecast = Forecast(state, me, spread)
        actions = game.legal_actions(state)
        aim_moves = rng.random() >= wander
        if not aim_moves:
            move = rng.choice(MOVES)
            actions = [a for a in actions if a[1] == move]
        best, best_score = [], float("-inf")
        for action in actions:
            cell, heading, rock_damage = sail(me, action[1], state.rocks)
            score = forecast.fire_value(cell, heading, action[2]) - rock_damage
            if aim_moves:
                crowded = cell in forecast.friends or cell in forecast.enemies
                score += 0.1 * forecast.closeness(cell) - (1.0 if crowded else 0.0)
                score -= caution * forecast.danger(cell) * (1.5 if me.damage + SHOT_DAMAGE >= HULL else 1.0)
            if score > best_score + 1e-9:
                best, best_score = [action], score
            elif abs(score - best_score) <= 1e-9:
                best.append(action)
        return rng.choice(best)

    return choose


LADDER = [
    Bot("sea-battle", 0, "Uniformly random legal order.", random_chooser),
    Bot(
        "sea-battle",
        1,
        "Lv2 that sails at random on 55% of its orders; fires only where an enemy is first in line, as things stand.",
        forecast_chooser(wander=0.55, spread=False, caution=0.0),
    ),
    Bot(
        "sea-battle",
        2,
        "Closes on the nearest enemy, avoids rocks and crowding, fires where an enemy stands now.",
        forecast_chooser(wander=0.0, spread=False, caution=0.0),
    ),
    Bot(
        "sea-battle",
        3,
        "Lv2 plus a forecast of every enemy move: aims at where enemies may sail and keeps out of their broadsides.",
        forecast_chooser(wander=0.0, spread=True, caution=0.25),
    ),
]
