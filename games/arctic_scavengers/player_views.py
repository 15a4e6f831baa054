"""What each viewer of an Arctic Scavengers table may see, and the cells a person clicks to move.

Hidden: hands (until the skirmish shows both), decks, discard piles (to all but their owner), the cards a dig
turned up (to all but the digger), the contested pile's order. Public: every action and the cards it played,
food, card counts, tribe sizes (every change to a tribe is a public action), contested resources won.
"""

from __future__ import annotations

from typing import Any

from games.arctic_scavengers.cards import CARDS, count_text, fight_score, sort_cards, tribe_size
from games.arctic_scavengers.rules import (
    GATHER_VERBS,
    MERCENARY_NAMES,
    ROUNDS,
    SEATS,
    Action,
    ArcticState,
    legal,
    owned,
)
from games.arctic_scavengers.text import action_text

LOG_LINES = 12


def card_slug(name: str) -> str:
    return name.lower().replace(" ", "-")


def hand_cells(hand: tuple[str, ...], cards: tuple[str, ...], prefix: str) -> tuple[str, ...]:
    """The hand positions (`<prefix>-<index>`) of `cards`, each name taking its first unused position."""
    taken: list[int] = []
    for name in cards:
        taken.append(next(i for i, held in enumerate(hand) if held == name and i not in taken))
    return tuple(f"{prefix}-{i}" for i in sorted(taken))


def action_cells(state: ArcticState, action: Action) -> tuple[str, ...]:
    """Clicks for `action`: the verb, then the cards (a mercenary first when hiring); a dug card; stop."""
    verb, cards, target = action
    if verb == "keep":
        return (f"dug-{card_slug(target)}",)
    if verb in ("snipe", "sabotage"):
        return (verb, *hand_cells(state.hands[1 - state.turn], (target,), "foe"))
    mercenary = (f"hire-{card_slug(target)}",) if verb == "hire" else ()
    return (verb, *mercenary, *hand_cells(state.hands[state.turn], cards, "hand"))


def tribe_view(state: ArcticState, seat: int, viewer: int | None, reveal: bool) -> dict[str, Any]:
    mine = reveal or seat == viewer
    shown = mine or state.phase == "skirmish"
    hand = state.hands[seat]
    return {
        "seat": seat,
        "name": SEATS[seat],
        "tribe": tribe_size(owned(state, seat)),
        "hand_size": len(hand),
        "hand": [
            {
                "name": name,
                "text": CARDS[name].describe(),
                # Own cards are clicked as hand-<i>; in the skirmish the striker clicks the other hand's foe-<i>.
                "cell": f"hand-{i}" if seat == viewer else (f"foe-{i}" if state.phase == "skirmish" else ""),
            }
            for i, name in enumerate(hand)
        ]
        if shown
        else [],
        "fight": fight_score(hand) if shown else None,
        "people_in_hand": tribe_size(hand) if shown else None,
        "deck_size": len(state.decks[seat]),
        "discard_size": len(state.discards[seat]),
        "discard": count_text(state.discards[seat]) if mine else "",
        "cards": count_text(owned(state, seat)) if mine else "",
        "food": state.food[seat],
        "used": list(state.used[seat]),
        "won": list(state.won[seat]),
    }


def table_view(state: ArcticState, viewer: int | None, reveal: bool, result: str) -> dict[str, Any]:
    to_act = None if state.phase == "over" else state.turn
    moving = to_act is not None and to_act == viewer
    actions = legal(state) if moving else []
    return {
        "viewer": viewer,
        "round": min(state.round, ROUNDS),
        "rounds": ROUNDS,
        "phase": state.phase,
        "to_act": to_act,
        "players": [tribe_view(state, seat, viewer, reveal) for seat in range(len(SEATS))],
        "verbs": [v for v in (*GATHER_VERBS, "snipe", "sabotage", "stop") if any(a[0] == v for a in actions)],
        "dug": [
            {"name": n, "text": CARDS[n].describe(), "cell": f"dug-{card_slug(n)}"} for n in sort_cards(set(state.dug))
        ]
        if reveal or (moving and state.phase == "dig")
        else [],
        "dug_count": len(state.dug),
        "mercenaries": [
            {
                "name": name,
                "left": left,
                "food": CARDS[name].food_cost,
                "medicine": CARDS[name].medicine_cost,
                "text": CARDS[name].describe(),
                "cell": f"hire-{card_slug(name)}",
            }
            for name, left in zip(MERCENARY_NAMES, state.supply, strict=True)
        ],
        "moves": [action_text(a) for a in actions],
        "contested_left": len(state.contested),
        "junkyard_size": len(state.junkyard),
        "log": list(state.log[-LOG_LINES:]),
        "result": result,
    }
