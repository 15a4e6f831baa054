"""The strategic function of each Tower Defense unit: what it does for its side (AdvGameBench App. B.3's
functional similarity compares the sets of functions two plans field). Read from Appendix A.1's unit tables;
the names of the functions are Arena's (the paper gives only "defensive formations, offensive pushes, …")."""

from __future__ import annotations

from games.tower_defense.units import HUMANS

#: A defender's functions follow from its effect (units.Human.effect).
BY_EFFECT = {
    "shot": {"sustained damage"},
    "fire": {"sustained damage", "damage over time"},
    "ice": {"sustained damage", "slowing"},
    "antiair": {"anti-air"},
    "magnet": {"armour breaking"},
    "rocket": {"area damage"},
    "wall": {"blocking"},
    "light": {"support"},
    "bomb": {"area damage", "trap"},
    "line": {"area damage", "trap"},
}
FUNCTIONS: dict[str, frozenset[str]] = {
    **{name: frozenset(BY_EFFECT[human.effect]) for name, human in HUMANS.items()},
    **{
        name: frozenset(functions)
        for name, functions in (
            ("NormalDemon", {"swarm"}),
            ("GreatDemon", {"durable"}),
            ("DemonKing", {"durable", "heavy damage"}),
            ("SpeedyDemon", {"rush"}),
            ("ShieldDemon", {"armoured"}),
            ("MachineDemon", {"armoured", "heavy damage"}),
            ("BouncingDemon", {"bypass"}),
            ("ShieldBreakerDemon", {"anti-blocking"}),
            ("FireDemon", {"fire immunity"}),
            ("FrostDemon", {"ice immunity"}),
            ("FlyingDemon", {"bypass", "air"}),
            ("ShadowDemon", {"support"}),
            ("SummoningDemon", {"summoning", "swarm"}),
        )
    },
}


def strategic_functions(items: frozenset[str]) -> frozenset[str]:
    """The functions a plan fields: its items' units ("RifleSoldier@1,2", "NormalDemon@y2@1000ms")."""
    return frozenset().union(*(FUNCTIONS.get(item.split("@", 1)[0], ()) for item in items))
