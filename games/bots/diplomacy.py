"""Diplomacy ladder: random orders; greedy orders (hold threatened centres, take free ones, support each other)
on a share of the decisions; greedy orders throughout. A one-ply search over own orders against predicted greedy
opponents was tried and dropped: it won 7 of 14 games against greedy, at 39 s a game (docs/games.md).

Lv2 and up negotiate: in each movement phase's first round they propose a pact (PROPOSAL) to their nearest
neighbours; a pact stands when two powers proposed it to each other, and in the phase's last round a power keeping
it makes no move against its partner and backs the partner's units with its idle ones. Lv2 always keeps its pacts;
Lv3 keeps them in Spring and breaks them in Fall, when centres change hands. Lv0 and Lv1 send random templated
messages or none, and read none.
"""

from __future__ import annotations

import random
from collections import deque

from games.bots.base import Bot, random_chooser
from games.diplomacy import Diplomacy
from games.diplomacy.engine import Board, geography
from games.diplomacy.rules import SEAT_NAMES, Action, DiplomacyState, kind_of


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


def greedy_orders(now: Board, seat: int, rng: random.Random, partners: frozenset[int] = frozenset()) -> tuple[str, ...]:
    """One order per unit: take reachable centres not ours, hold threatened own centres, close in on the rest,
    then support an own move into an occupied or contested centre with a unit that has nothing better to do.
    Pact `partners` are spared: no move into their centres or units, and idle units support their units."""
    adjacent, centres = geography()
    phase = now.phase
    mine = set(now.centres[seat])
    held = {_loc(u) for p in partners for u in now.units[p]}  # where the partners' units stand
    spared = held | {c for p in partners for c in now.centres[p]}
    targets = set(centres) - mine - spared
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
                if there in taken or there in spared:
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
        else:
            # nothing of our own to support: back a partner's unit next door in holding its ground
            friendly = [o for o in orders if len(o.split()) == 5 and o.split()[2] == "S" and o.split()[4][:3] in held]
            if friendly:
                chosen[here] = min(friendly)
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


#: What Lv2 and up propose; a partner's message counts as a proposal only in these exact words.
PROPOSAL = "Peace this year: I will not move against you and my idle units will support yours. Will you do the same?"
#: How many neighbours a negotiating bot proposes a pact to per movement phase.
PACTS = 2


def neighbours(now: Board, seat: int) -> list[int]:
    """Other powers with units next to ours, most such units first (ties by seat)."""
    adjacent, _ = geography()
    near = {there for unit in now.units[seat] for there in adjacent.get(_loc(unit), ())}
    counts = {s: sum(_loc(u) in near for u in units) for s, units in enumerate(now.units) if s != seat}
    return sorted((s for s, n in counts.items() if n), key=lambda s: (-counts[s], s))


def proposals(game: Diplomacy, state: DiplomacyState, now: Board, seat: int) -> tuple[tuple[str, str], ...]:
    """In a movement phase's first round: PROPOSAL to the nearest neighbours; no messages otherwise."""
    if not game.talking(state) or state.round:
        return ()
    return tuple(sorted((SEAT_NAMES[p], PROPOSAL) for p in neighbours(now, seat)[:PACTS]))


def pact_partners(game: Diplomacy, state: DiplomacyState, now: Board, seat: int) -> frozenset[int]:
    """The powers that `seat` and that proposed a pact to each other this phase (as far as `seat` has heard)."""
    sent, received = set(), set()
    for phase, _, sender, recipient, text in game.visible_messages(state, seat, reveal=False):
        if phase == now.phase and text == PROPOSAL:
            if sender == seat:
                sent.add(recipient)
            elif recipient == seat:
                received.add(sender)
    return frozenset(sent & received)


def greedy_action(
    game: Diplomacy, state: DiplomacyState, rng: random.Random, partners: frozenset[int] = frozenset()
) -> Action:
    """The greedy orders of the phase (sparing pact `partners` in movement), no messages."""
    now = game.board(state)
    seat = game.current_player(state)
    kind = kind_of(now.phase)
    if kind == "A":
        return greedy_adjustment(now, seat, rng), ()
    if kind == "R":
        return greedy_retreats(now, seat, rng), ()
    return greedy_orders(now, seat, rng, partners), ()


def partly_greedy(share: float):
    """A chooser playing the greedy orders (no pacts) on `share` of its decisions and random legal orders
    (with Lv0's random messages) on the rest."""

    def choose(game: Diplomacy, state: DiplomacyState, rng: random.Random) -> Action:
        return greedy_action(game, state, rng) if rng.random() < share else random_chooser(game, state, rng)

    return choose


def negotiating(share: float, *, breaks_in_fall: bool):
    """A chooser that proposes pacts (`proposals`), keeps them (`breaks_in_fall`: except in Fall), and plays the
    greedy orders on `share` of its decisions, random legal orders on the rest."""

    def choose(game: Diplomacy, state: DiplomacyState, rng: random.Random) -> Action:
        now = game.board(state)
        seat = game.current_player(state)
        messages = proposals(game, state, now, seat)
        if rng.random() >= share:
            return random_chooser(game, state, rng)[0], messages
        keeps = not (breaks_in_fall and now.phase.startswith("F"))
        partners = pact_partners(game, state, now, seat) if keeps else frozenset()
        return greedy_action(game, state, rng, partners)[0], messages

    return choose


#: Shares of greedy decisions per level, tuned so each step of the ladder wins 70–90% (docs/ladders.md).
GREEDY_SHARES = {1: 0.25, 2: 0.6}

LADDER = [
    Bot("diplomacy", 0, "uniform random legal orders (random builds), sometimes a templated message", random_chooser),
    Bot(
        "diplomacy",
        1,
        f"Lv3's greedy orders on {GREEDY_SHARES[1]:.0%} of decisions, random legal orders else; no pacts",
        partly_greedy(GREEDY_SHARES[1]),
    ),
    Bot(
        "diplomacy",
        2,
        f"proposes pacts to its two nearest neighbours, keeps mutual ones; greedy orders on {GREEDY_SHARES[2]:.0%} of "
        "decisions, random legal orders else",
        negotiating(GREEDY_SHARES[2], breaks_in_fall=False),
    ),
    Bot(
        "diplomacy",
        3,
        "greedy: take free centres, hold threatened ones, support own attacks; proposes pacts to its two nearest "
        "neighbours, keeps mutual ones in Spring, breaks them in Fall",
        negotiating(1.0, breaks_in_fall=True),
    ),
]
