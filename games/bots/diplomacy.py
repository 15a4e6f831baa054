"""Diplomacy ladder: random orders; greedy orders (hold threatened centres, take free ones, support each other)
on a quarter, then 60% of the decisions; greedy orders throughout. A one-ply search over own orders against
predicted greedy opponents was tried and dropped: it won 7 of 14 games against greedy, at 39 s a game (docs/games.md).

Bots write no messages (Lv0's random ones aside) and read none: they play the board.
"""

from __future__ import annotations

import random
from collections import deque

from games.bots.base import Bot, random_chooser
from games.diplomacy import Diplomacy
from games.diplomacy.engine import Board, geography
from games.diplomacy.rules import Action, DiplomacyState, kind_of


def _loc(unit_or_order: str) -> str:
    """'A PAR - BUR' → 'PAR'; 'F STP/SC H' → 'STP'."""
    return unit_or_order.lstrip("*").split()[1][:3]


def distances_to(targets: frozenset[str] | set[str]) -> dict[str, int]:
    """Steps from every province to the nearest of `targets` (armies and fleets alike)."""
    adjacent, _ = geography()
    dist = dict.fromkeys(targets, 0)
    queue = deque(targets)
    while queue:
        here = queue.popleft()
        for there in adjacent.get(here, ()):
            if there not in dist:
                dist[there] = dist[here] + 1
                queue.append(there)
    return dist


def greedy_orders(now: Board, seat: int, rng: random.Random) -> tuple[str, ...]:
    """One order per unit: take reachable centres not ours, hold threatened own centres, close in on the rest,
    then support an own move into an occupied or contested centre with a unit that has nothing better to do."""
    adjacent, centres = geography()
    phase = now.phase
    mine = set(now.centres[seat])
    targets = set(centres) - mine
    dist = distances_to(targets) if targets else {}
    enemy_at = {_loc(u) for s, units in enumerate(now.units) if s != seat for u in units}
    threatened = {c for c in mine if adjacent.get(c, frozenset()) & enemy_at}
    chosen: dict[str, str] = {}
    taken: set[str] = set()
    options = list(now.options[seat])
    rng.shuffle(options)
    for loc, orders in options:
        here = loc[:3]

        def score(order: str, here: str = here) -> float:
            words = order.split()
            if words[2] == "H":
                return 6.0 if here in threatened else (5.0 if here in targets and phase[0] == "F" else 0.5)
            if words[2] == "-" and "VIA" not in words:
                there = words[3][:3]
                if there in taken:
                    return -10.0
                if there in targets:
                    return 8.0 - (3.0 if there in enemy_at else 0.0)
                return 2.0 - dist.get(there, 9) * 0.5
            return -1.0  # supports and convoys come in the second pass

        best = max(orders, key=lambda o: (score(o), rng.random()))
        chosen[here] = best
        if best.split()[2] == "-":
            taken.add(best.split()[3][:3])
        else:
            taken.add(here)
    # second pass: idle units support an own move into a centre someone else occupies or borders
    contested = {
        o.split()[3][:3]: o
        for o in chosen.values()
        if o.split()[2] == "-"
        and o.split()[3][:3] in targets
        and (adjacent[o.split()[3][:3]] | {o.split()[3][:3]}) & enemy_at
    }
    for loc, orders in options:
        here = loc[:3]
        if chosen[here].split()[2] == "-" and chosen[here].split()[3][:3] in targets:
            continue
        if here in threatened:
            continue
        for move in contested.values():
            support = f"{orders[0].split()[0]} {loc} S {move}"
            if support in orders:
                chosen[here] = support
                break
    return tuple(sorted(chosen.values()))


def greedy_adjustment(now: Board, seat: int, rng: random.Random) -> tuple[str, ...]:
    """Build as many units as allowed (armies inland, fleets on coasts half the time); disband the units
    farthest from any centre we do not own."""
    owed = now.builds[seat]
    options = list(now.options[seat])
    if owed > 0:
        rng.shuffle(options)
        builds = []
        for _, orders in options[:owed]:
            armies = [o for o in orders if o.startswith("A ")]
            fleets = [o for o in orders if o.startswith("F ")]
            builds.append(rng.choice(fleets) if fleets and (not armies or rng.random() < 0.5) else armies[0])
        return tuple(sorted(builds))
    _, centres = geography()
    dist = distances_to(set(centres) - set(now.centres[seat]))
    disbands = [o for _, orders in options for o in orders if o.endswith(" D")]
    disbands.sort(key=lambda o: (-dist.get(_loc(o), 9), rng.random()))
    return tuple(sorted(disbands[:-owed]))


def greedy_retreats(now: Board, seat: int, rng: random.Random) -> tuple[str, ...]:
    """Retreat towards centres we do not own; disband when there is nowhere to go."""
    _, centres = geography()
    dist = distances_to(set(centres) - set(now.centres[seat]))
    chosen = []
    for _, orders in now.options[seat]:
        retreats = [o for o in orders if " R " in o]
        if retreats:
            chosen.append(min(retreats, key=lambda o: (dist.get(o.split()[-1][:3], 9), rng.random())))
        else:
            chosen.append(orders[0])
    return tuple(sorted(chosen))


def greedy(game: Diplomacy, state: DiplomacyState, rng: random.Random) -> Action:
    """Lv3: the greedy orders of the phase, no messages."""
    now = game.board(state)
    seat = game.current_player(state)
    kind = kind_of(now.phase)
    if kind == "A":
        return greedy_adjustment(now, seat, rng), ()
    if kind == "R":
        return greedy_retreats(now, seat, rng), ()
    return greedy_orders(now, seat, rng), ()


#: Shares of greedy decisions for the partly greedy levels (the rest uniformly random), tuned so each step of
#: the ladder wins 70–80% (docs/ladders.md; fully greedy beat random in 99% of games, 0.5 for Lv2 gave 65%).
GREEDY_SHARES = (0.25, 0.6)


def partly_greedy(share: float):
    """A chooser playing Lv-greedy's orders on `share` of its decisions and random legal orders on the rest."""

    def choose(game: Diplomacy, state: DiplomacyState, rng: random.Random) -> Action:
        return greedy(game, state, rng) if rng.random() < share else random_chooser(game, state, rng)

    return choose


LADDER = [
    Bot("diplomacy", 0, "uniform random legal orders (random builds), sometimes a templated message", random_chooser),
    *(
        Bot(
            "diplomacy",
            level,
            f"Lv3's greedy orders on {share:.0%} of decisions, random legal orders else",
            partly_greedy(share),
        )
        for level, share in enumerate(GREEDY_SHARES, start=1)
    ),
    Bot("diplomacy", 3, "greedy: take free centres, hold threatened ones, support own attacks; no messages", greedy),
]
