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
    tick = options["tick_ms"]
    limit = options["max_seconds"] * 1000
    units = sorted((_Unit(HUMANS[u["unit"]], u["x"], u["y"]) for u in defend["units"]), key=lambda u: (u.y, u.x))
    placed = len(units)
    schedule = sorted(
        ((round(d["time"] * 1000) // tick * tick, i, DEMONS[d["unit"]], d["y"]) for i, d in enumerate(attack["units"])),
        key=lambda s: (s[0], s[1]),
    )
    demons: list[_Demon] = []
    events: list[list[Any]] = []
    frames: list[dict[str, Any]] = []
    furthest = SPAWN
    spawned = killed = 0
    next_spawn = 0
    t = 0
    shadows = [0] * 5
    winner_attacker, reason = False, ""

    def hurt(d: _Demon, amount: int, kind: str) -> None:
        if d.hp <= 0:
            return
        name = d.spec.name
        if kind != LIGHT and shadows[d.y] - (name == "ShadowDemon") > 0:
            return  # dark magic: only light damage gets through
        if (kind == FIRE and name == "FireDemon") or (kind == ICE and name == "FrostDemon"):
            return
        if t >= d.magnet_until:
            if name == "ShieldDemon" and kind == NORMAL:
                amount = amount * 3 // 10
            elif name == "MachineDemon" and kind != BLAST:
                amount //= 2
        d.hp -= amount
        if d.hp <= 0 and name == "ShadowDemon":
            shadows[d.y] -= 1

    while True:
        while next_spawn < len(schedule) and schedule[next_spawn][0] <= t:
            _, _, spec, y = schedule[next_spawn]
            demons.append(_Demon(spec, y, SPAWN, t, spawned))
            shadows[y] += spec.name == "ShadowDemon"
            spawned += 1
            next_spawn += 1
        for d in demons:
            if d.burn_until >= 0 and t >= d.burn_next:
                hurt(d, 10, FIRE)
                d.burn_next += 1000
                if d.burn_next > d.burn_until:
                    d.burn_until = -1
        rows: list[list[_Demon]] = [[], [], [], [], []]
        for d in demons:
            if d.hp > 0:
                rows[d.y].append(d)
        light = {u.y for u in units if u.spec.effect == "light" and u.hp > 0}
        for u in units:
            if u.hp <= 0:
                continue
            effect = u.spec.effect
            if effect in ("bomb", "line"):
                if u.armed:
                    u.fuse -= tick
                    if u.fuse <= 0:
                        hits = _blast_targets(u, rows)
                        for d in hits:
                            hurt(d, u.spec.damage * 10, BLAST)
                        u.hp = 0
                        events.append(["boom", t, u.spec.name, u.x, u.y, len(hits)])
                elif any(
                    abs(d.y - u.y) <= (1 if effect == "bomb" else 0) and abs(d.column() - u.x) <= 1
                    for d in _ground(rows, u.y - 1, u.y + 1)
                ):
                    u.armed, u.fuse = True, u.spec.interval
                continue
            if not u.spec.interval:
                continue
            if u.cd > 0:
                u.cd -= tick
                if u.cd > 0:
                    continue
            ahead = [d for d in rows[u.y] if d.hp > 0 and d.pos > u.x * CELL]
            if effect == "magnet":
                struck = [d for d in ahead if d.spec.name in ("ShieldDemon", "MachineDemon")]
                for d in struck:
                    d.magnet_until = t + MAGNET_MS
                if struck:
                    u.cd = u.spec.interval
                continue
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
                continue
            target = min(ahead, key=lambda d: (d.pos, d.number))
            kind = LIGHT if u.y in light else {"fire": FIRE, "ice": ICE}.get(effect, NORMAL)
            hurt(target, u.spec.damage * 10, kind)
            if effect == "fire" and target.spec.name != "FireDemon":
                if target.burn_until < 0:
                    target.burn_next = t + 1000
                target.burn_until = t + BURN_MS
            elif effect == "ice" and target.spec.name != "FrostDemon":
                target.slow_until = t + SLOW_MS
            elif effect == "rocket":
                for d in _ground(rows, u.y - 1, u.y + 1):
                    if d is not target and abs(d.pos - target.pos) <= CELL:
                        hurt(d, u.spec.damage * 10, kind)
            u.cd = u.spec.interval
        for d in demons:
            if d.hp <= 0:
                killed += 1
                events.append(["kill", t, d.spec.name, d.y, d.column()])
        demons = [d for d in demons if d.hp > 0]
        for d in list(demons):
            if d.cd > 0:
                d.cd -= tick
            if d.spec.name == "SummoningDemon" and t >= d.summon_at:
                d.summon_at += SUMMON_MS
                ahead = d.pos - CELL
                if ahead <= 0 or any(
                    u.hp > 0 and u.y == d.y and ahead < (u.x + 1) * CELL and u.x * CELL < d.pos for u in units
                ):
                    ahead = d.pos  # the cell to its left is taken (or is the edge): summon beside it
                demons.append(_Demon(DEMONS["NormalDemon"], d.y, ahead, t, spawned))
                spawned += 1
                events.append(["summon", t, d.y, ahead // CELL])
            blocker = None if d.spec.name == "FlyingDemon" else _blocker(units, d)
            if blocker is not None and d.pos == (blocker.x + 1) * CELL:
                if d.spec.name == "BouncingDemon" and not d.jumped and blocker.spec.name != "EnhancedShieldSoldier":
                    d.pos, d.jumped = blocker.x * CELL, True
                elif d.cd <= 0:
                    breaker = d.spec.name == "ShieldBreakerDemon" and blocker.spec.name in SHIELD_UNITS
                    blocker.hp -= d.spec.damage * 10 * (5 if breaker else 1)
                    d.cd = d.spec.interval
                    if blocker.hp <= 0:
                        events.append(["lost", t, blocker.spec.name, blocker.x, blocker.y])
                furthest = min(furthest, d.pos)
                continue
            speed = 3 if d.spec.name == "MachineDemon" and 2 * d.hp <= d.max_hp else d.spec.speed
            step = 11 * speed * tick
            if t < d.slow_until and d.spec.name != "FrostDemon":
                step //= 2
            d.pos -= step
            if blocker is not None:
                d.pos = max(d.pos, (blocker.x + 1) * CELL)
            furthest = min(furthest, d.pos)
        units = [u for u in units if u.hp > 0]
        if frame_ms and t % frame_ms == 0:
            frames.append(_frame(t, units, demons))
        breach = next((d for d in demons if d.pos <= 0), None)
        if breach is not None:
            winner_attacker, reason = (
                True,
                f"{breach.spec.name} reached the left edge in row {breach.y} at {t / 1000:g} s",
            )
            events.append(["breach", t, breach.spec.name, breach.y])
            break
        if next_spawn == len(schedule) and not demons:
            reason = f"every demon was destroyed by {t / 1000:g} s" if spawned else "the attacker sent no demons"
            break
        if t + tick > limit:
            reason = f"time limit: no demon broke through in {options['max_seconds']} s"
            break
        t += tick
    if frame_ms and (not frames or frames[-1]["t"] != t):
        frames.append(_frame(t, units, demons))
    progress = 1.0 if winner_attacker else (SPAWN - furthest) / SPAWN if spawned else 0.0
    value = round(2 * progress - 1, 3)
    column = 0 if winner_attacker else min(10, furthest // CELL)
    lost = placed - len(units)
    log = {
        "end_ms": t,
        "spawned": spawned,
        "killed": killed,
        "placed": placed,
        "lost": lost,
        "furthest_column": column if spawned else 11,
        "events": events,
    }
    reach = f"the furthest demon reached column {column}" if spawned else "no demon entered"
    summary = (
        f"Battle: {killed} of {spawned} demons (summons included) destroyed; {reach}; "
        f"the defender lost {lost} of {placed} units; it ended at {t / 1000:g} s."
    )
    return Battle(winner_attacker, reason, (value, -value), None, log, (summary, summary)), frames


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
