"""The turn-based battle of one attribute battle leg (AdvGameBench A.3.1).

Each round the three invader characters act in plan order, then the three defenders. A
character's turn: its damage- and heal-over-time effects tick, every timed status and shield on
it loses one round (expiring at 0), and, if still standing, it uses its next skill (cycling) on
the enemy its side's `target_priority` picks. "N rounds" therefore means N of the bearer's own
turns. A blow: base damage (+20 from divine_sword, ×1.3 from residual_warmth), the striker's
fear/weakness/quicksand, the element multiplier, then the target's vulnerability, granite and
sanctuary; rounded down; then faith/divine link, then shields. Effect damage (burning, poison,
reflections, counters) is plain: only shields stop it. All arithmetic is exact (fractions).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from games.attribute_battle.skills import ELEMENTS, multiplier
from games.plan_game import Battle

NEGATIVE = frozenset({"burning", "poison", "vulnerable", "exposed", "fear", "weakened", "parasite", "quicksand"})


class _Status:
    __slots__ = ("kind", "turns", "value")

    def __init__(self, kind: str, turns: int, value: int = 0) -> None:
        self.kind, self.turns, self.value = kind, turns, value  # turns -1: permanent


class _Char:
    __slots__ = ("element", "hp", "max_hp", "next", "side", "skills", "statuses", "stored", "surge")

    def __init__(self, element: str, skills: list[str], side: int, hp: int) -> None:
        self.element, self.skills, self.side = element, skills, side
        self.hp = self.max_hp = hp
        self.next = self.surge = self.stored = 0
        self.statuses: list[_Status] = []  # in the order applied; shields are statuses ending in "shield"

    def get(self, kind: str) -> _Status | None:
        return next((s for s in self.statuses if s.kind == kind), None)

    def drop(self, kind: str) -> None:
        self.statuses = [s for s in self.statuses if s.kind != kind]

    def add(self, kind: str, turns: int, value: int = 0) -> _Status:
        found = self.get(kind)
        if found is None:
            found = _Status(kind, turns, value)
            self.statuses.append(found)
        else:
            found.turns, found.value = max(found.turns, turns), value
        return found


class _Fight:
    def __init__(self, attack: dict[str, Any], defend: dict[str, Any], options: dict[str, int], frames: bool):
        hp = options["hp"]
        self.sides = [
            [_Char(c["element"], c["skills"], s, hp) for c in plan["characters"]]
            for s, plan in enumerate((attack, defend))
        ]
        self.priority = (attack["target_priority"], defend["target_priority"])
        self.rounds = options["max_rounds"]
        self.log: list[str] = []
        self.frames: list[dict[str, Any]] | None = [] if frames else None
        self.round = 0

    # -- damage and healing ------------------------------------------------------------------

    def plain(self, target: _Char, amount: int) -> int:
        """Effect damage: shields absorb it (oldest first), nothing else changes it. Returns what Hell Curtain took."""
        if amount <= 0 or target.hp <= 0:
            return 0
        target.stored += amount
        curtain = 0
        for shield in [s for s in target.statuses if s.kind.endswith("shield")]:
            taken = min(shield.value, amount)
            shield.value -= taken
            amount -= taken
            curtain += taken if shield.kind == "hell shield" else 0
            if shield.value == 0:
                target.statuses.remove(shield)
        target.hp -= amount
        return curtain

    def heal(self, target: _Char, amount: int) -> int:
        """Heal; returns the excess over max health."""
        if target.get("totem"):
            amount = amount * 11 // 10
        excess = max(0, target.hp + amount - target.max_hp)
        target.hp = min(target.max_hp, target.hp + amount)
        return excess

    def strike(self, user: _Char, target: _Char, base: int) -> int:
        """A blow from a skill; returns the damage dealt before shields (0 when turned back)."""
        amount = Fraction(base)
        if sword := user.get("sword"):
            amount += sword.value
        if user.get("warmth"):
            amount *= Fraction(13, 10)
        user.drop("sword")
        user.drop("warmth")
        if user.get("fear"):
            amount *= Fraction(9, 10)
        if user.get("weakened"):
            amount *= Fraction(17, 20)
        sand = user.get("quicksand")
        trapped = sand is not None and sand.value > 0
        if trapped:
            amount *= Fraction(4, 5)
            sand.value -= 1
        amount *= multiplier(user.element, target.element)
        if target.get("vulnerable"):
            amount *= Fraction(3, 2)
        if target.get("exposed"):
            amount *= Fraction(6, 5)
        if target.get("granite"):
            amount *= Fraction(3, 5)
        if target.get("sanctuary"):
            amount -= 30
        dealt = max(0, int(amount))  # int() rounds down for non-negative values
        if trapped:
            self.plain(user, 10)
        if user.get("parasite"):
            self.plain(user, 5)
        if target.get("link"):
            target.drop("link")
            self.plain(user, dealt)
            return 0
        saved = 0
        if target.get("faith"):
            target.drop("faith")
            saved = dealt - dealt * 4 // 5
            dealt -= saved
            self.plain(user, 10)
        if target.get("rock shield") and dealt > 0:
            self.plain(user, 5)
        self.plain(user, self.plain(target, dealt))  # Hell Curtain sends back what it absorbed
        if saved and target.hp > 0:
            self.heal(target, saved)  # Faith Emblem: the fifth it prevented comes back as healing
        return dealt

    # -- turns -------------------------------------------------------------------------------

    def pick(self, user: _Char) -> _Char | None:
        enemies = [c for c in self.sides[1 - user.side] if c.hp > 0]
        if not enemies:
            return None
        rule = self.priority[user.side]
        if rule == "lowest_hp":
            return min(enemies, key=lambda c: c.hp)
        if rule == "highest_hp":
            return max(enemies, key=lambda c: c.hp)
        if rule == "element":
            return max(enemies, key=lambda c: multiplier(user.element, c.element))
        return enemies[0]

    def turn(self, c: _Char) -> None:
        notes = []
        if burning := c.get("burning"):
            self.plain(c, 5 * burning.value)
            notes.append(f"burns {5 * burning.value}")
        if c.get("poison"):
            self.plain(c, 25)
            notes.append("poison 25")
        if c.get("bud") and c.hp > 0:
            self.heal(c, 6)
            notes.append("bud heals 6")
        for s in c.statuses:
            s.turns -= s.turns > 0
        c.statuses = [s for s in c.statuses if s.turns != 0]
        if c.hp <= 0:
            self.note(c, "; ".join([*notes, "falls"]))
            return
        skill = c.skills[c.next]
        c.next = (c.next + 1) % 3
        target = self.pick(c)
        if target is None:
            return
        before = target.hp
        self.use(c, skill, target)
        hit = f" → {target.element} {before}→{max(target.hp, 0)}" if target.hp != before else f" → {target.element}"
        self.note(c, "; ".join([*notes, f"{skill}{hit}"]))

    def use(self, c: _Char, skill: str, t: _Char) -> None:
        if skill == "flame_splash":
            self.strike(c, t, 12)
            t.add("burning", 2, (t.get("burning").value if t.get("burning") else 0) + 1)
        elif skill == "residual_warmth":
            c.add("warmth", 2)
        elif skill == "burst_flame_bomb":
            self.strike(c, t, 25 + 3 * _layers(t))
        elif skill == "flame_whirlwind":
            t.add("burning", 2, _layers(t) + 4)
        elif skill == "magma_eruption":
            self.strike(c, t, 40 + 5 * _layers(t))
            t.drop("burning")
        elif skill == "hell_curtain":
            self.strike(c, t, 35)
            c.add("hell shield", 2, 30)
        elif skill == "stream_pierce":
            self.strike(c, t, 10)
            c.surge += 1
        elif skill == "water_barrier":
            c.add("water shield", 3, 5)
            c.surge += 1
        elif skill == "whirlpool_strangle":
            self.strike(c, t, 20 + 4 * c.surge)
        elif skill == "ice_branded":
            self.strike(c, t, 15)
            t.add("vulnerable", 1)
        elif skill == "tsunami_ending":
            self.strike(c, t, 30 + 5 * c.surge)
            c.surge = 0
        elif skill == "abyss_resonance":
            self.strike(c, t, 3 * c.surge)
            if c.surge:
                c.add("abyss shield", 3, 6 * c.surge)
        elif skill == "shadow_claw":
            self.heal(c, self.strike(c, t, 14) * 3 // 10)
        elif skill == "fear_whisper":
            t.add("fear", 3)
        elif skill == "soul_siphon":
            self.strike(c, t, 25 + (15 if 2 * t.hp < t.max_hp else 0))
        elif skill == "night_ambush":
            self.strike(c, t, 20)
            t.add("exposed", 1)
        elif skill == "final_announcment":
            self.strike(c, t, 45 + 5 * ((t.max_hp - t.hp) * 10 // t.max_hp))
        elif skill == "void_assimilation":
            cost = c.hp // 5
            c.hp -= cost
            t.hp -= 2 * cost  # penetration: no shield, modifier or reaction applies
            t.stored += 2 * cost
            if c.get("parasite"):
                self.plain(c, 5)
        elif skill == "bud_healing":
            c.add("bud", 3)
        elif skill == "parasitic_seed":
            self.strike(c, t, 10)
            t.add("parasite", 3)
        elif skill == "life_totem":
            self.heal(c, 25)
            c.add("totem", 3)
        elif skill == "natural_purification":
            c.statuses = [s for s in c.statuses if s.kind not in NEGATIVE]
            self.strike(c, t, 30)
        elif skill == "forest_reincarnation":
            if excess := self.heal(c, 60) // 2:
                c.add("forest shield", 3, excess)
            self.strike(c, t, 20)
        elif skill == "poison_vine":
            t.add("poison", 3)
        elif skill == "rock_armor":
            c.add("rock shield", 3, 12)
        elif skill == "earth_shock":
            self.strike(c, t, 20)
        elif skill == "granite_barrier":
            c.add("granite", 3)
        elif skill == "quicksand_trap":
            t.add("quicksand", 3, 3)
        elif skill == "earth_pulse":
            if shield := 8 * ((c.max_hp - c.hp) * 10 // c.max_hp):
                c.add("pulse shield", -1, shield)
        elif skill == "core_rebound":
            stored, c.stored = c.stored, 0
            self.strike(c, t, stored * 4 // 5)
        elif skill == "holy_glimmer":
            negatives = [s for s in c.statuses if s.kind in NEGATIVE]
            if negatives:
                c.statuses.remove(negatives[-1])
            self.heal(c, 8)
            self.strike(c, t, 8)
        elif skill == "faith_emblem":
            c.add("faith", 1)
        elif skill == "divine_link":
            c.add("link", 1)
        elif skill == "luminous_dispel":
            buffs = [s for s in t.statuses if s.kind not in NEGATIVE]
            if buffs:
                t.statuses.remove(buffs[-1])
            t.add("weakened", 2)
        elif skill == "angelic_sanctuary":
            c.add("sanctuary", 3)
        elif skill == "divine_sword":
            self.strike(c, t, 20)
            c.add("sword", 2, 20)

    def note(self, c: _Char, text: str) -> None:
        line = f"R{self.round} {('I', 'D')[c.side]} {c.element}: {text}"
        self.log.append(line)
        if self.frames is not None:
            self.frames.append({"text": line, "actor": c.element, "sides": [[_show(x) for x in s] for s in self.sides]})

    def run(self) -> tuple[bool, str]:
        for number in range(1, self.rounds + 1):
            self.round = number
            for side in (0, 1):
                for c in self.sides[side]:
                    if c.hp > 0:
                        self.turn(c)
                    alive = [any(x.hp > 0 for x in s) for s in self.sides]
                    if not alive[1]:
                        return True, f"the defenders fell in round {self.round}"
                    if not alive[0]:
                        return False, f"the invaders fell in round {self.round}"
        shares = self.shares()
        return shares[0] > shares[1], (
            f"round limit ({self.rounds}): the side with more health left wins "
            f"({100 * shares[0]:.0f}% against {100 * shares[1]:.0f}%; ties go to the defender)"
        )

    def shares(self) -> list[float]:
        return [sum(max(c.hp, 0) for c in s) / sum(c.max_hp for c in s) for s in self.sides]


def _layers(c: _Char) -> int:
    burning = c.get("burning")
    return burning.value if burning else 0


def _show(c: _Char) -> dict[str, Any]:
    return {
        "element": c.element,
        "hp": max(c.hp, 0),
        "max": c.max_hp,
        "low": c.max_hp // 3,
        "statuses": [f"{s.kind}{' ' + str(s.value) if s.value else ''}" for s in c.statuses],
        "surge": c.surge,
        "next": c.skills[c.next],
    }


def simulate(attack: dict[str, Any], defend: dict[str, Any], options: dict[str, int], frames: bool = False):
    """Resolve a leg; returns (Battle, frames) — frames only when asked."""
    fight = _Fight(attack, defend, options, frames)
    won, reason = fight.run()
    shares = fight.shares()
    value = round(shares[0] - shares[1], 3)
    summary = (
        f"Battle: {len(fight.log)} turns over {fight.round} rounds; invaders kept "
        f"{100 * shares[0]:.0f}% of their health, defenders {100 * shares[1]:.0f}%."
    )
    log = {"rounds": fight.round, "health": [[max(c.hp, 0) for c in s] for s in fight.sides], "lines": fight.log}
    return Battle(won, reason, (value, -value), 0, log, (summary, summary)), fight.frames or []


__all__ = ["ELEMENTS", "simulate"]
