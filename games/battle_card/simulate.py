"""The automated battle of one battle card leg (AdvGameBench A.2.1).

Start: the defenders' start-of-game effects resolve left to right. The side with more minions
takes the first turn (the invader on a tie); turns then alternate. On its turn a side's next
minion in left-to-right order (wrapping; minions with 0 Attack are skipped) attacks one enemy:
a Taunt minion if any, else the one its side's `target_priority` names. Combat is mutual: the
target strikes back with its own Attack. Each blow gets the elemental bonus when the striker's
element beats the target's (+50%, at least +1). Divine Shield absorbs one blow entirely.
After every attack dead minions leave (left to right, the acting side first) and their
deathrattles fire, repeatedly, before anyone's wipe-out is checked; if both sides are wiped out
together, the invader wins. `max_attacks` attacks without a winner ends in the defender's favour.
"""

from __future__ import annotations

from typing import Any

from games.battle_card.units import BEATS, TABLES, TOKENS, Minion
from games.plan_game import Battle

ATTACK, STRIKE_BACK, EFFECT = "attack", "strike back", "effect"


class _Card:
    __slots__ = ("atk", "burn", "gold", "hp", "killer", "max_hp", "reborn", "shield", "side", "spec", "taunt")

    def __init__(self, spec: Minion, gold: bool, side: int) -> None:
        self.spec, self.gold, self.side = spec, gold, side
        m = 2 if gold else 1
        self.atk, self.hp, self.max_hp = spec.attack * m, spec.health * m, spec.health * m
        self.shield, self.taunt = spec.shield, spec.taunt
        self.burn = 0
        self.killer: _Card | None = None
        self.reborn = spec.name == "Phoenix"

    @property
    def name(self) -> str:
        return ("gold " if self.gold else "") + self.spec.name

    def n(self, amount: int) -> int:
        """A numeric ability value: doubled on a gold minion."""
        return amount * (2 if self.gold else 1)


class _Battle:
    def __init__(self, attack: dict[str, Any], defend: dict[str, Any], options: dict[str, int], snapshots: bool):
        self.sides = [
            [_Card(TABLES[s][m["unit"]], m["gold"], s) for m in plan["minions"]]
            for s, plan in enumerate((attack, defend))
        ]
        self.priority = (attack["target_priority"], defend["target_priority"])
        self.limit = options["max_attacks"]
        self.log: list[str] = []
        self.frames: list[dict[str, Any]] | None = [] if snapshots else None

    def snap(self, text: str) -> None:
        if self.frames is not None:
            self.frames.append({"text": text, "sides": [[_show(c) for c in side] for side in self.sides]})

    def start(self) -> None:
        allies = self.sides[1]
        for i, card in enumerate(list(allies)):
            name = card.spec.name
            if name == "ForestSeer":
                for other in allies:
                    if other is not card and other.spec.element == "Nature":
                        other.atk += card.n(1)
                        _grow(other, card.n(2))
            elif name == "EliteSoldier":
                for other in allies[max(0, i - 1) : i + 2]:
                    if other is not card:
                        other.shield = True
                        other.atk += card.n(1)
            elif name == "BlackRock":
                _grow(card, card.n(3) * (len(allies) - 1))
            elif name == "AncientTreant":
                for other in allies:
                    if other is not card:
                        other.atk += card.n(3)
                        _grow(other, card.n(3))
        self.initial = [sum(c.hp for c in side) for side in self.sides]

    def damage(self, source: _Card | None, target: _Card, amount: int, kind: str) -> int:
        """Deal `amount` to `target`; returns the health it lost (0 when a shield took the blow)."""
        if amount <= 0 or target.hp <= 0:
            return 0
        if target.shield:
            target.shield = False
            for ally in self.sides[target.side]:
                if ally.spec.name == "Paladin" and ally.hp > 0:
                    ally.atk += ally.n(2)
            return 0
        before = target.hp
        target.hp -= amount
        target.killer = source
        if source is not None and source.spec.name == "PoisonFrog" and kind != EFFECT:
            target.hp = min(target.hp, 0)
        if target.spec.name == "TideLord":
            target.atk *= 2
        return before - max(target.hp, 0)

    def blow(self, striker: _Card, target: _Card) -> int:
        bonus = (
            max(1, striker.atk // 2) if striker.atk and BEATS.get(striker.spec.element) == target.spec.element else 0
        )
        return striker.atk + bonus

    def pick(self, side: int) -> _Card | None:
        enemies = [c for c in self.sides[1 - side] if c.hp > 0]
        pool = [c for c in enemies if c.taunt] or enemies
        if not pool:
            return None
        rule = self.priority[side]
        if rule == "lowest_health":
            return min(pool, key=lambda c: c.hp)
        if rule == "highest_attack":
            return max(pool, key=lambda c: c.atk)
        return pool[0]

    def attack(self, card: _Card) -> None:
        side, name = card.side, card.spec.name
        if name == "WaterElemental":
            card.atk += card.n(1)
        elif name == "Sapling":
            _grow(card, card.n(1))
        elif name == "King" and len(self.sides[side]) < 7:
            soldier = _Card(TOKENS["Soldier"], card.gold, side)
            self.sides[side].insert(self.sides[side].index(card) + 1, soldier)
        target = self.pick(side)
        if target is None:
            return
        hit, back = self.blow(card, target), self.blow(target, card)
        health = target.hp
        enemies = self.sides[1 - side]
        neighbours = (
            [enemies[j] for j in (enemies.index(target) - 1, enemies.index(target) + 1) if 0 <= j < len(enemies)]
            if name == "Phoenix"
            else []
        )
        lost = self.damage(card, target, hit, ATTACK)
        self.damage(target, card, back, STRIKE_BACK)
        for other in neighbours:
            self.damage(card, other, self.blow(card, other), ATTACK)
        if name == "BanditLeader" and lost and hit > health:
            excess, at = hit - health, enemies.index(target)
            for other in enemies[at + 1 :] + enemies[:at][::-1]:
                if excess <= 0 or other.hp <= 0:
                    continue
                before = other.hp
                self.damage(card, other, excess, ATTACK)
                excess = excess - before if other.hp <= 0 else 0
        if target.spec.name == "LavaGolem":
            card.burn = max(card.burn, target.n(3))
        if target.spec.name == "MountainGiant":
            card.atk = max(0, card.atk - target.n(2))
        if name == "BattleFrenzy":
            card.atk = max(0, card.atk - card.n(4))
        mark = len(self.log)
        self.log.append(f"{('I', 'D')[side]} {card.name} → {target.name}: deals {hit}, takes {back}")
        self.deaths(side)
        self.snap("; ".join(self.log[mark:]))

    def deaths(self, first: int) -> None:
        while True:
            dead = [c for s in (first, 1 - first) for c in self.sides[s] if c.hp <= 0]
            if not dead:
                return
            for card in dead:
                self.die(card)

    def die(self, card: _Card) -> None:
        side, name = card.side, card.spec.name
        allies = self.sides[side]
        at = allies.index(card)
        allies.pop(at)
        self.log.append(f"{('I', 'D')[side]} {card.name} dies")
        enemies = self.sides[1 - side]
        if name == "FireLizard" and card.killer is not None and card.killer.hp > 0:
            self.damage(card, card.killer, card.n(2), EFFECT)
        elif name == "MoltenHound":
            for enemy in list(enemies):
                self.damage(card, enemy, card.n(1), EFFECT)
        elif name in ("StoneWarrior", "ShadowOverlord") and len(allies) < 7:
            token = TOKENS["RockBeetle" if name == "StoneWarrior" else "SlowSkeleton"]
            allies.insert(at, _Card(token, card.gold, side))
        elif name == "VineProtector":
            for ally in allies:
                ally.hp = min(ally.max_hp, ally.hp + card.n(2))
        elif name == "Phoenix" and card.reborn and len(allies) < 7:
            card.reborn, card.hp, card.burn = False, card.max_hp, 0
            allies.insert(at, card)
            self.log.append(f"{('I', 'D')[side]} {card.name} revives")

    def run(self) -> tuple[bool, str]:
        self.start()
        self.snap("start of battle")
        sizes = [len(s) for s in self.sides]
        if not sizes[1]:
            return bool(sizes[0]), "the defender fielded no minions" if sizes[0] else "nobody fielded minions"
        if not sizes[0]:
            return False, "the invader fielded no minions"
        side = 0 if sizes[0] >= sizes[1] else 1
        self.first = side
        nxt = [0, 0]  # index of the next minion to attack, per side
        passes = 0
        for _ in range(self.limit):
            burning = [c for c in self.sides[side] if c.burn and c.hp > 0]
            if burning:
                mark = len(self.log)
                for card in burning:
                    self.log.append(f"{('I', 'D')[side]} {card.name} burns for {card.burn}")
                    self.damage(None, card, card.burn, EFFECT)
                self.deaths(side)
                self.snap("; ".join(self.log[mark:]))
            if (ended := self.ended()) is not None:
                return ended
            ready = [c for c in self.sides[side] if c.atk > 0]
            if ready:
                passes = 0
                row = self.sides[side]
                order = row[nxt[side] % len(row) :] + row[: nxt[side] % len(row)]
                card = next(c for c in order if c.atk > 0)
                for _swing in range(2 if card.spec.name == "TideGuardian" else 1):
                    if card.hp > 0 and self.ended() is None:
                        self.attack(card)
                row = self.sides[side]
                nxt[side] = row.index(card) + 1 if card in row else _after(row, order, card)
            else:
                passes += 1
                if passes >= 2:
                    return False, "neither side can attack: the invasion stalls"
            if (ended := self.ended()) is not None:
                return ended
            side = 1 - side
        return False, f"no side was wiped out after {self.limit} attacks: the invasion stalls"

    def ended(self) -> tuple[bool, str] | None:
        alive = [any(c.hp > 0 for c in s) for s in self.sides]
        if not alive[0] and not alive[1]:
            return True, "both sides were wiped out together: the invader wins"
        if not alive[1]:
            return True, "the defenders were wiped out"
        if not alive[0]:
            return False, "the invaders were wiped out"
        return None


def _after(row: list[_Card], order: list[_Card], card: _Card) -> int:
    """Where the next attacker stands after `card` died: the first survivor that followed it."""
    for other in order[order.index(card) + 1 :]:
        if other in row:
            return row.index(other)
    return 0


def _grow(card: _Card, amount: int) -> None:
    card.hp += amount
    card.max_hp += amount


def _show(c: _Card) -> dict[str, Any]:
    return {
        "name": c.spec.name,
        "gold": c.gold,
        "atk": c.atk,
        "hp": max(c.hp, 0),
        "max": c.max_hp,
        "shield": c.shield,
        "taunt": c.taunt,
        "burn": c.burn,
        "element": c.spec.element,
    }


def simulate(attack: dict[str, Any], defend: dict[str, Any], options: dict[str, int], snapshots: bool = False):
    """Resolve a leg; returns (Battle, frames) — frames only with `snapshots`."""
    fight = _Battle(attack, defend, options, snapshots)
    won, reason = fight.run()
    left = [sum(max(c.hp, 0) for c in side) for side in fight.sides]
    start = getattr(fight, "initial", [0, 0])
    shares = [min(1.0, left[s] / start[s]) if start[s] else 0.0 for s in (0, 1)]
    value = round(shares[0] - shares[1], 3)
    survivors = [len([c for c in side if c.hp > 0]) for side in fight.sides]
    attacks = sum(1 for line in fight.log if "→" in line)
    log = {"attacks": attacks, "survivors": survivors, "lines": fight.log[:400]}
    summary = (
        f"Battle: {attacks} attacks; invaders left {survivors[0]} minions ({left[0]} health), "
        f"defenders left {survivors[1]} ({left[1]} health)."
    )
    first = getattr(fight, "first", None)
    return Battle(won, reason, (value, -value), first, log, (summary, summary)), fight.frames or []
