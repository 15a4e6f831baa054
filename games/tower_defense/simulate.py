"""The deterministic tick simulation of one tower defense leg.

Each tick of `tick_ms` (default 50 ms), at time t = 0, tick, 2·tick, …:
1. demons whose spawn time is ≤ t enter at x = 11 in their row (plan order);
2. burning demons take 1 fire damage on each full second after the hit that set them alight;
3. human units act, row by row from y = 0 and left to right: a shooter whose cooldown has run
   out fires at the nearest demon ahead of it in its row (instant hit) and waits its interval;
   a bomb arms when a demon enters its trigger area and explodes 500 ms later;
4. dead demons leave; 5. demons act in spawn order: one touching a unit attacks it when its
   cooldown has run out (first blow at once), otherwise it walks left, stopping at the next
   unit; a SummoningDemon summons every 5 s; 6. dead units leave;
7. a demon at x ≤ 0 wins the leg for the attacker; no demons left and none to come wins it for
   the defender; so does reaching `max_seconds`.
"""

from __future__ import annotations

from typing import Any

from games.plan_game import Battle
from games.tower_defense.units import (
    BURN_MS,
    CELL,
    DEMONS,
    HUMANS,
    MAGNET_MS,
    SHIELD_UNITS,
    SLOW_MS,
    SPAWN,
    SUMMON_MS,
    Demon,
    Human,
)

NORMAL, FIRE, ICE, LIGHT, BLAST = "normal", "fire", "ice", "light", "blast"


class _Unit:
    __slots__ = ("armed", "cd", "fuse", "hp", "spec", "x", "y")

    def __init__(self, spec: Human, x: int, y: int) -> None:
        self.spec, self.x, self.y = spec, x, y
        self.hp = spec.hp * 10
        self.cd = 0
        self.armed = False
        self.fuse = 0


class _Demon:
    __slots__ = (
        "burn_next",
        "burn_until",
        "cd",
        "furthest",
        "hp",
        "jumped",
        "magnet_until",
        "max_hp",
        "number",
        "pos",
        "slow_until",
        "spec",
        "summon_at",
        "y",
    )

    def __init__(self, spec: Demon, y: int, pos: int, t: int, number: int) -> None:
        self.spec, self.y, self.pos, self.number = spec, y, pos, number
        self.hp = self.max_hp = spec.hp * 10
        self.cd = 0
        self.burn_until = self.burn_next = self.slow_until = self.magnet_until = -1
        self.jumped = False
        self.summon_at = t + SUMMON_MS
        self.furthest = pos

    def column(self) -> int:
        return max(0, (self.pos - 1) // CELL)


def simulate(attack: dict[str, Any], defend: dict[str, Any], options: dict[str, int], frame_ms: int = 0):
    """Resolve a leg; returns (Battle, frames) where frames are taken every `frame_ms` (0: none)."""
    field = _Field(attack, defend, options)
    frames: list[dict[str, Any]] = []
    while True:
        field.spawn_due_demons()
        field.burn()
        field.humans_act()
        field.remove_dead_demons()
        field.demons_act()
        field.remove_dead_units()
        if frame_ms and field.t % frame_ms == 0:
            frames.append(_frame(field.t, field.units, field.demons))
        if field.ended():
            break
        field.t += field.tick
    if frame_ms and (not frames or frames[-1]["t"] != field.t):
        frames.append(_frame(field.t, field.units, field.demons))
    return field.battle(), frames


class _Field:
    """One leg's battlefield as it stands at time `t`; each method below is one phase of a tick."""

    def __init__(self, attack: dict[str, Any], defend: dict[str, Any], options: dict[str, int]) -> None:
        self.tick = tick = options["tick_ms"]
        self.limit = options["max_seconds"] * 1000
        self.max_seconds = options["max_seconds"]
        self.units = sorted(
            (_Unit(HUMANS[u["unit"]], u["x"], u["y"]) for u in defend["units"]), key=lambda u: (u.y, u.x)
        )
        self.placed = len(self.units)
        self.schedule = sorted(
            (
                (round(d["time"] * 1000) // tick * tick, i, DEMONS[d["unit"]], d["y"])
                for i, d in enumerate(attack["units"])
            ),
            key=lambda s: (s[0], s[1]),
        )
        self.demons: list[_Demon] = []
        self.events: list[list[Any]] = []
        self.furthest = SPAWN
        self.spawned = self.killed = 0
        self.next_spawn = 0
        self.t = 0
        self.shadows = [0] * 5  # living ShadowDemons per row: while any lives, only light damage hurts there
        self.winner_attacker, self.reason = False, ""

    def hurt(self, d: _Demon, amount: int, kind: str) -> None:
        if d.hp <= 0:
            return
        name = d.spec.name
        if kind != LIGHT and self.shadows[d.y] - (name == "ShadowDemon") > 0:
            return  # dark magic: only light damage gets through
        if (kind == FIRE and name == "FireDemon") or (kind == ICE and name == "FrostDemon"):
            return
        if self.t >= d.magnet_until:
            if name == "ShieldDemon" and kind == NORMAL:
                amount = amount * 3 // 10
            elif name == "MachineDemon" and kind != BLAST:
                amount //= 2
        d.hp -= amount
        if d.hp <= 0 and name == "ShadowDemon":
            self.shadows[d.y] -= 1

    # -- 1. spawns --------------------------------------------------------------------------

    def spawn_due_demons(self) -> None:
        while self.next_spawn < len(self.schedule) and self.schedule[self.next_spawn][0] <= self.t:
            _, _, spec, y = self.schedule[self.next_spawn]
            self.demons.append(_Demon(spec, y, SPAWN, self.t, self.spawned))
            self.shadows[y] += spec.name == "ShadowDemon"
            self.spawned += 1
            self.next_spawn += 1

    # -- 2. fire damage ---------------------------------------------------------------------

    def burn(self) -> None:
        for d in self.demons:
            if d.burn_until >= 0 and self.t >= d.burn_next:
                self.hurt(d, 10, FIRE)
                d.burn_next += 1000
                if d.burn_next > d.burn_until:
                    d.burn_until = -1

    # -- 3. human units ---------------------------------------------------------------------

    def humans_act(self) -> None:
        rows: list[list[_Demon]] = [[], [], [], [], []]
        for d in self.demons:
            if d.hp > 0:
                rows[d.y].append(d)
        light = {u.y for u in self.units if u.spec.effect == "light" and u.hp > 0}
        tick = self.tick
        for u in self.units:
            if u.hp <= 0:
                continue
            if u.spec.effect in ("bomb", "line"):
                self.bomb_acts(u, rows)
            elif u.spec.interval:
                if u.cd > 0:
                    u.cd -= tick
                if u.cd <= 0:
                    self.shooter_fires(u, rows, light)

    def bomb_acts(self, u: _Unit, rows: list[list[_Demon]]) -> None:
        """An armed bomb counts down its fuse and explodes; an unarmed one arms when a demon comes near."""
        if u.armed:
            u.fuse -= self.tick
            if u.fuse <= 0:
                hits = _blast_targets(u, rows)
                for d in hits:
                    self.hurt(d, u.spec.damage * 10, BLAST)
                u.hp = 0
                self.events.append(["boom", self.t, u.spec.name, u.x, u.y, len(hits)])
        elif any(
            abs(d.y - u.y) <= (1 if u.spec.effect == "bomb" else 0) and abs(d.column() - u.x) <= 1
            for d in _ground(rows, u.y - 1, u.y + 1)
        ):
            u.armed, u.fuse = True, u.spec.interval

    def shooter_fires(self, u: _Unit, rows: list[list[_Demon]], light: set[int]) -> None:
        """A shooter whose cooldown has run out fires at the nearest demon ahead of it (if any)."""
        effect = u.spec.effect
        ahead = [d for d in rows[u.y] if d.hp > 0 and d.pos > u.x * CELL]
        if effect == "magnet":
            struck = [d for d in ahead if d.spec.name in ("ShieldDemon", "MachineDemon")]
            for d in struck:
                d.magnet_until = self.t + MAGNET_MS
            if struck:
                u.cd = u.spec.interval
            return
        if effect == "antiair":  # its fire covers flyers in the adjacent rows too, flyers first
            flyers = [
                d
                for y in range(max(0, u.y - 1), min(4, u.y + 1) + 1)
                for d in rows[y]
                if d.hp > 0 and d.spec.name == "FlyingDemon" and d.pos > u.x * CELL
            ]
            ahead = flyers or ahead
        else:
            ahead = [d for d in ahead if d.spec.name != "FlyingDemon"]
        if not ahead:
            return
        target = min(ahead, key=lambda d: (d.pos, d.number))
        kind = LIGHT if u.y in light else {"fire": FIRE, "ice": ICE}.get(effect, NORMAL)
        self.hurt(target, u.spec.damage * 10, kind)
        if effect == "fire" and target.spec.name != "FireDemon":
            if target.burn_until < 0:
                target.burn_next = self.t + 1000
            target.burn_until = self.t + BURN_MS
        elif effect == "ice" and target.spec.name != "FrostDemon":
            target.slow_until = self.t + SLOW_MS
        elif effect == "rocket":
            for d in _ground(rows, u.y - 1, u.y + 1):
                if d is not target and abs(d.pos - target.pos) <= CELL:
                    self.hurt(d, u.spec.damage * 10, kind)
        u.cd = u.spec.interval

    # -- 4. dead demons leave ---------------------------------------------------------------

    def remove_dead_demons(self) -> None:
        for d in self.demons:
            if d.hp <= 0:
                self.killed += 1
                self.events.append(["kill", self.t, d.spec.name, d.y, d.column()])
        self.demons = [d for d in self.demons if d.hp > 0]

    # -- 5. demons ---------------------------------------------------------------------------

    def demons_act(self) -> None:
        for d in list(self.demons):  # demons summoned in this phase act from the next tick
            if d.cd > 0:
                d.cd -= self.tick
            if d.spec.name == "SummoningDemon" and self.t >= d.summon_at:
                self.summon(d)
            blocker = None if d.spec.name == "FlyingDemon" else _blocker(self.units, d)
            if blocker is not None and d.pos == (blocker.x + 1) * CELL:
                self.demon_meets(d, blocker)
            else:
                self.demon_walks(d, blocker)
            self.furthest = min(self.furthest, d.pos)

    def summon(self, d: _Demon) -> None:
        d.summon_at += SUMMON_MS
        ahead = d.pos - CELL
        if ahead <= 0 or any(
            u.hp > 0 and u.y == d.y and ahead < (u.x + 1) * CELL and u.x * CELL < d.pos for u in self.units
        ):
            ahead = d.pos  # the cell to its left is taken (or is the edge): summon beside it
        self.demons.append(_Demon(DEMONS["NormalDemon"], d.y, ahead, self.t, self.spawned))
        self.spawned += 1
        self.events.append(["summon", self.t, d.y, ahead // CELL])

    def demon_meets(self, d: _Demon, blocker: _Unit) -> None:
        """A demon touching a unit jumps it (a BouncingDemon, once) or attacks it when its cooldown allows."""
        if d.spec.name == "BouncingDemon" and not d.jumped and blocker.spec.name != "EnhancedShieldSoldier":
            d.pos, d.jumped = blocker.x * CELL, True
        elif d.cd <= 0:
            breaker = d.spec.name == "ShieldBreakerDemon" and blocker.spec.name in SHIELD_UNITS
            blocker.hp -= d.spec.damage * 10 * (5 if breaker else 1)
            d.cd = d.spec.interval
            if blocker.hp <= 0:
                self.events.append(["lost", self.t, blocker.spec.name, blocker.x, blocker.y])

    def demon_walks(self, d: _Demon, blocker: _Unit | None) -> None:
        """A free demon walks left (slowed by ice), stopping in front of the next unit."""
        speed = 3 if d.spec.name == "MachineDemon" and 2 * d.hp <= d.max_hp else d.spec.speed
        step = 11 * speed * self.tick
        if self.t < d.slow_until and d.spec.name != "FrostDemon":
            step //= 2
        d.pos -= step
        if blocker is not None:
            d.pos = max(d.pos, (blocker.x + 1) * CELL)

    # -- 6. dead units leave ----------------------------------------------------------------

    def remove_dead_units(self) -> None:
        self.units = [u for u in self.units if u.hp > 0]

    # -- 7. the end ---------------------------------------------------------------------------

    def ended(self) -> bool:
        """Whether the leg is over after this tick: a breach, no demons left to fight, or the time limit."""
        breach = next((d for d in self.demons if d.pos <= 0), None)
        if breach is not None:
            self.winner_attacker = True
            self.reason = f"{breach.spec.name} reached the left edge in row {breach.y} at {self.t / 1000:g} s"
            self.events.append(["breach", self.t, breach.spec.name, breach.y])
            return True
        if self.next_spawn == len(self.schedule) and not self.demons:
            self.reason = (
                f"every demon was destroyed by {self.t / 1000:g} s" if self.spawned else "the attacker sent no demons"
            )
            return True
        if self.t + self.tick > self.limit:
            self.reason = f"time limit: no demon broke through in {self.max_seconds} s"
            return True
        return False

    def battle(self) -> Battle:
        """The finished leg's result, its log and the summary both seats read."""
        spawned, killed, placed, t = self.spawned, self.killed, self.placed, self.t
        progress = 1.0 if self.winner_attacker else (SPAWN - self.furthest) / SPAWN if spawned else 0.0
        value = round(2 * progress - 1, 3)
        column = 0 if self.winner_attacker else min(10, self.furthest // CELL)
        lost = placed - len(self.units)
        log = {
            "end_ms": t,
            "spawned": spawned,
            "killed": killed,
            "placed": placed,
            "lost": lost,
            "furthest_column": column if spawned else 11,
            "events": self.events,
        }
        reach = f"the furthest demon reached column {column}" if spawned else "no demon entered"
        summary = (
            f"Battle: {killed} of {spawned} demons (summons included) destroyed; {reach}; "
            f"the defender lost {lost} of {placed} units; it ended at {t / 1000:g} s."
        )
        return Battle(self.winner_attacker, self.reason, (value, -value), None, log, (summary, summary))


def _ground(rows: list[list[_Demon]], low: int, high: int) -> list[_Demon]:
    return [
        d for y in range(max(0, low), min(4, high) + 1) for d in rows[y] if d.hp > 0 and d.spec.name != "FlyingDemon"
    ]


def _blast_targets(u: _Unit, rows: list[list[_Demon]]) -> list[_Demon]:
    if u.spec.effect == "line":
        return _ground(rows, u.y, u.y)
    return [d for d in _ground(rows, u.y - 1, u.y + 1) if abs(d.column() - u.x) <= 1]


def _blocker(units: list[_Unit], d: _Demon) -> _Unit | None:
    """The nearest living unit in the demon's row that it has not yet passed."""
    best = None
    for u in units:
        if u.y == d.y and u.hp > 0 and (u.x + 1) * CELL <= d.pos and (best is None or u.x > best.x):
            best = u
    return best


def _frame(t: int, units: list[_Unit], demons: list[_Demon]) -> dict[str, Any]:
    return {
        "t": t,
        "units": [[u.spec.code, u.x, u.y, max(1, 100 * u.hp // (u.spec.hp * 10)), u.spec.name] for u in units],
        "demons": [
            [d.spec.code, min(11, d.pos // CELL), d.y, max(1, 100 * d.hp // d.max_hp), d.spec.name]
            for d in demons
            if d.hp > 0
        ],
    }
