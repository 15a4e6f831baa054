"""Arctic Scavengers' cards (GameBench's base set) and the arithmetic of playing them.

A card has tribe members (its people, the score), and per skill (dig, draw, hunt, fight, medicine) a value that is
either standard (a person doing it) or a modifier (a tool or Group Leaders enhancing people who do it).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

SKILLS = ("dig", "draw", "hunt", "fight", "medicine")


@dataclass(frozen=True)
class Card:
    name: str
    people: int = 0
    standard: tuple[tuple[str, int], ...] = ()
    modifier: tuple[tuple[str, int], ...] = ()
    food_cost: int = 0
    medicine_cost: int = 0
    special: str = ""

    def value(self, skill: str) -> int | None:
        """This card's value for `skill` (standard or modifier), None when it cannot take part."""
        return dict(self.standard).get(skill, dict(self.modifier).get(skill))

    def is_tool(self) -> bool:
        """A modifier that is no person: one per person doing the skill (a saboteur's target)."""
        return bool(self.modifier) and not self.people

    def describe(self) -> str:
        parts = [f"{self.people} tribe member{'s' * (self.people != 1)}" if self.people else "no tribe members"]
        parts += [f"{skill.upper()} {value}" for skill, value in self.standard]
        parts += [f"{skill.upper()} +{value} (modifier)" for skill, value in self.modifier]
        if self.special:
            parts.append(self.special)
        return f"{self.name}: {', '.join(parts)}"


# Values and supply sizes as in GameBench's games/arctic_scavengers/cards/game_cards.py (base game cards).
CARDS: dict[str, Card] = {
    c.name: c
    for c in (
        Card("Refugee", 1, (("dig", 0), ("hunt", 0))),
        Card("Scavenger", 1, (("draw", 1), ("dig", 1), ("hunt", 1), ("fight", 1)), food_cost=1),
        Card("Brawler", 1, (("dig", 1), ("fight", 2)), food_cost=2),
        Card("Hunter", 1, (("hunt", 2), ("fight", 1)), medicine_cost=1),
        Card(
            "Saboteur", 1, (("dig", 1), ("fight", 1)), food_cost=1, medicine_cost=1, special="sabotage: discard a tool"
        ),
        Card("Scout", 1, (("draw", 2), ("fight", 2)), food_cost=2, medicine_cost=1),
        Card(
            "Group Leaders",
            2,
            modifier=(("draw", 2), ("dig", 2), ("hunt", 2), ("fight", 2)),
            food_cost=2,
            medicine_cost=2,
            special="enhances an action on top of a tool",
        ),
        Card("Sniper Team", 2, food_cost=2, medicine_cost=2, special="snipe: discard a tribe member"),
        Card("Thug", 3, (("dig", 1), ("fight", 3)), food_cost=6),
        Card("Junk"),
        Card("Multitool", modifier=(("dig", 1), ("hunt", 1), ("fight", 1))),
        Card("Net", modifier=(("hunt", 2), ("fight", 1))),
        Card("Spear", modifier=(("hunt", 1), ("fight", 2))),
        Card("Pickaxe", modifier=(("dig", 1), ("fight", 2))),
        Card("Shovel", modifier=(("dig", 2), ("fight", 1))),
        Card("Pills", standard=(("medicine", 1),)),
        Card("Medkit", standard=(("medicine", 2),)),
        Card("Wolf Pack", modifier=(("hunt", 3), ("fight", 2))),
        Card("Grenade", modifier=(("fight", 3),)),
        Card("Sled Team", 2, (("draw", 2), ("fight", 1))),
        Card("Field Crew", 4, (("dig", 2), ("hunt", 2), ("fight", 2))),
        Card("Tribe Family", 5, (("hunt", 0), ("fight", 0))),
    )
}
ORDER = {name: i for i, name in enumerate(CARDS)}
STARTING_DECK = ("Refugee",) * 4 + ("Scavenger",) * 3 + ("Brawler", "Spear", "Shovel")
MERCENARIES = (
    ("Brawler", 8),
    ("Hunter", 8),
    ("Saboteur", 8),
    ("Scout", 8),
    ("Group Leaders", 5),
    ("Sniper Team", 5),
    ("Thug", 5),
    ("Scavenger", 14),
)
JUNKYARD = (
    ("Junk", 7),
    ("Multitool", 4),
    ("Net", 4),
    ("Spear", 4),
    ("Pickaxe", 4),
    ("Shovel", 4),
    ("Medkit", 6),
    ("Pills", 9),
)
CONTESTED = ("Wolf Pack", "Grenade", "Sled Team", "Field Crew", "Tribe Family")
GROUP_LEADERS = "Group Leaders"
SNIPER = "Sniper Team"
SABOTEUR = "Saboteur"


def sort_cards(names) -> tuple[str, ...]:
    """Cards in catalogue order: the canonical order of a hand or of the cards an action plays."""
    return tuple(sorted(names, key=ORDER.__getitem__))


@lru_cache(maxsize=1 << 16)  # pure, and asked for the same few hands' selections over and over
def action_value(skill: str, names: tuple[str, ...]) -> int | None:
    """What `names` played together for `skill` are worth; None when the combination is not allowed.

    Every card must have the skill, at least one must be a person doing it (standard), and each tool needs its
    own person (Group Leaders count on top of tools, as their card says)."""
    cards = [CARDS[n] for n in names]
    if not cards or any(c.value(skill) is None for c in cards):
        return None
    people = sum(1 for c in cards if skill in dict(c.standard))
    tools = sum(1 for c in cards if c.is_tool())
    if people == 0 or tools > people:
        return None
    return sum(c.value(skill) for c in cards)  # type: ignore[misc]


@lru_cache(maxsize=1 << 16)
def fight_score(hand: tuple[str, ...]) -> int:
    """A skirmish hand's strength: every fighter, the best tool for each fighter, Group Leaders when anyone fights."""
    cards = [CARDS[n] for n in hand]
    fighters = [dict(c.standard)["fight"] for c in cards if "fight" in dict(c.standard)]
    if not fighters:
        return 0
    tools = sorted((dict(c.modifier)["fight"] for c in cards if c.is_tool() and c.value("fight")), reverse=True)
    leaders = sum(dict(c.modifier)["fight"] for c in cards if c.people and "fight" in dict(c.modifier))
    return sum(fighters) + sum(tools[: len(fighters)]) + leaders


def tribe_size(cards) -> int:
    """Tribe members among `cards`: the score at the end of the game."""
    return sum(CARDS[n].people for n in cards)


def count_text(names) -> str:
    """'2 Refugee, Shovel' for a hand or pile, in catalogue order ('' when empty)."""
    counts = Counter(names)
    return ", ".join(f"{counts[n]} {n}" if counts[n] > 1 else n for n in sort_cards(counts))
