"""Arctic Scavengers bots: each reads only its own hand, food and dug cards, and what the skirmish shows.

Lv0 moves at random and so trashes its own tribe members; Lv2 moves at random but never does. Lv4 plans its hand:
it hunts with the fewest cards that pay for the best hire and keeps the rest to fight, digs and draws only with
cards the fight can spare, and strikes the other hand's best fighter or tool. Lv1 and Lv3 mix the levels around
them, since each pure level beats the one below it almost always.
"""

from __future__ import annotations

import random

from games.arctic_scavengers.cards import CARDS, action_value, fight_score
from games.arctic_scavengers.rules import MERCENARY_NAMES, STOP, Action, ArcticState, remove, sub_multisets
from games.base import Game
from games.bots.base import Bot, random_chooser

#: The order Lv4 keeps a dug card in: medicine pays for hires, then tools by their fight bonus.
KEEP = ("Medkit", "Pills", "Grenade", "Wolf Pack", "Spear", "Pickaxe", "Multitool", "Net", "Shovel", "Junk")
#: How often Lv1 moves as Lv2 (else at random) and Lv3 as Lv4 (else as Lv2): the pure bots beat the level below
#: in over 95% of games, these mixtures in about 75% (docs/ladders.md).
CAREFUL_SHARE = 0.6
PLANNER_SHARE = 0.6


def worth(name: str) -> int:
    """A card's lasting value to a tribe: three per tribe member (the score), plus what it adds to a fight."""
    card = CARDS[name]
    return 3 * card.people + (card.value("fight") or 0)


def best(actions: list[Action], verb: str, key) -> Action | None:
    """The `verb` action with the highest `key`, or None."""
    found = [a for a in actions if a[0] == verb]
    return max(found, key=key) if found else None


def keep_or_strike(game: Game, state: ArcticState) -> Action | None:
    """The dug card to keep, or the strike to make in the skirmish (the other hand's strongest card)."""
    actions = game.legal_actions(state)
    if state.phase == "dig":
        kept = {a[2]: a for a in actions}
        return next(kept[n] for n in (*KEEP, *kept) if n in kept)
    if state.phase == "skirmish":
        strikes = [a for a in actions if a != STOP]
        return max(strikes, key=lambda a: (CARDS[a[2]].value("fight") or 0, CARDS[a[2]].people), default=STOP)
    return None


def careful_chooser(game: Game, state: ArcticState, rng: random.Random) -> Action:
    """Lv2: a random legal move, except that it never trashes a tribe member."""
    actions = game.legal_actions(state)
    return rng.choice([a for a in actions if a[0] != "trash" or not any(CARDS[n].people for n in a[1])])


def plan_hunt(state: ArcticState, hand: tuple[str, ...]) -> tuple[tuple[str, ...], float]:
    """The hunting cards that pay for the best hire while keeping the strongest skirmish hand, and that plan's value.

    Each plan is scored as the hired card's worth plus the fight score of the cards it leaves in hand."""
    seat = state.turn
    plans: list[tuple[float, tuple[str, ...]]] = [(fight_score(hand), ())]
    for hunted in sub_multisets(hand):
        food = state.food[seat] + (action_value("hunt", hunted) or 0)
        if food == state.food[seat]:
            continue
        rest = remove(hand, hunted)
        medicine = sum(CARDS[n].value("medicine") or 0 for n in rest)
        affordable = [
            n
            for n, left in zip(MERCENARY_NAMES, state.supply, strict=True)
            if left and CARDS[n].food_cost <= food and CARDS[n].medicine_cost <= medicine
        ]
        if affordable:
            hired = max(affordable, key=worth)
            kept = tuple(n for n in rest if CARDS[n].value("medicine") is None)
            plans.append((worth(hired) + fight_score(kept), hunted))
    value, hunted = max(plans, key=lambda p: (p[0], -len(p[1])))
    return hunted, value


def planner_chooser(game: Game, state: ArcticState, rng: random.Random) -> Action:
    """Lv4: hunt only what the best hire needs, keep fighters for the skirmish, dig and draw with idle cards."""
    if (chosen := keep_or_strike(game, state)) is not None:
        return chosen
    actions = game.legal_actions(state)
    hand = state.hands[state.turn]
    hire = best(actions, "hire", lambda a: (worth(a[2]), -len(a[1])))
    if hire:
        return hire
    for verb in ("draw", "dig"):
        # Cards that would add nothing to the fight (Refugees, spare tools) do the digging and drawing.
        spare = [a for a in actions if a[0] == verb and fight_score(remove(hand, a[1])) >= fight_score(hand) - 1]
        if spare:
            return max(spare, key=lambda a, v=verb: (action_value(v, a[1]) or 0, -len(a[1])))
    if any(a[0] == "hunt" for a in actions):
        hunted, _ = plan_hunt(state, hand)
        if hunted:
            return ("hunt", hunted, "")
    junk = [a for a in actions if a[0] == "trash" and set(a[1]) == {"Junk"}]
    return max(junk, key=lambda a: len(a[1])) if junk else STOP


def mixed(share: float, first, second):
    """A chooser that moves as `first` with probability `share`, else as `second`."""

    def choose(game: Game, state: ArcticState, rng: random.Random) -> Action:
        return (first if rng.random() < share else second)(game, state, rng)

    return choose


LADDER = [
    Bot("arctic-scavengers", 0, "Uniformly random legal move (trashing its own tribe included).", random_chooser),
    Bot(
        "arctic-scavengers",
        1,
        f"Moves as Lv2 {CAREFUL_SHARE:.0%} of the time, else uniformly at random.",
        mixed(CAREFUL_SHARE, careful_chooser, random_chooser),
    ),
    Bot("arctic-scavengers", 2, "Random legal move, but never trashes a tribe member.", careful_chooser),
    Bot(
        "arctic-scavengers",
        3,
        f"Moves as Lv4 {PLANNER_SHARE:.0%} of the time, else as Lv2.",
        mixed(PLANNER_SHARE, planner_chooser, careful_chooser),
    ),
    Bot(
        "arctic-scavengers",
        4,
        "Plans its hand: hunts with the fewest cards that pay for the best hire, keeps fighters for the skirmish, "
        "digs and draws with cards the fight can spare, strikes the best card, keeps medicine from digs.",
        planner_chooser,
    ),
]
