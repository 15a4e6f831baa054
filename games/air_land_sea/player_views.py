"""What a viewer sees of an Air, Land & Sea table: the board, hands and moves as the board template draws them."""

from __future__ import annotations

from typing import Any

from games.air_land_sea.cards import CARDS, SIDES, TARGET_VP, card_text, theater_of
from games.air_land_sea.rules import Action, AirLandSeaState, controller, strength


def move_label(action: Action) -> str:
    """A button's words for a person: card names instead of ids."""
    if action[0] in ("deploy", "improvise"):
        return f"{CARDS[action[1]][0]} ({action[1]}) {card_move_label(action)}"
    if action[0] == "flip":
        return f"flip {action[1]}'s top card in {action[2]}"
    if action[0] == "move":
        return f"move card {action[2]} of {action[1]} to {action[3]}"
    if action[0] == "return":
        return f"return face-down card {action[2]} of {action[1]} to hand"
    if action[0] == "reinforce":
        return f"play the top card face down to {action[1]}"
    return action[0]


def card_move_label(action: Action) -> str:
    """The short words of a deploy or improvise button drawn under its card ("face down to Land")."""
    return f"{'face up' if action[0] == 'deploy' else 'face down'} to {action[2]}"


def view_move(action: Action) -> dict[str, str]:
    """One move button: its cell, its full label, and for a card play the card it plays and its short label."""
    plays_card = action[0] in ("deploy", "improvise")
    return {
        "cell": "-".join(action),
        "label": move_label(action),
        "card": action[1] if plays_card else "",
        "short": card_move_label(action) if plays_card else "",
    }


def table_view(
    state: AirLandSeaState,
    viewer: int | None,
    *,
    reveal: bool,
    mover: int | None,
    moves: list[Action],
    result: str,
) -> dict[str, Any]:
    """The view of `viewer` (None: a spectator; `reveal`: everything); `moves` are the viewer's own legal moves."""

    pending = state.pending[0] if state.pending else None

    def shown(card: str, up: bool, owner: int) -> dict[str, Any]:
        known = up or reveal or owner == viewer
        name, value, kind, text = CARDS[card] if known else ("face down", 2, "", "")
        return {
            "id": card if known else "",
            "name": name,
            "strength": value,
            "kind": kind,
            "text": text,
            "up": up,
            "theater": theater_of(card) if known else "",
        }

    theaters = []
    for p, name in enumerate(state.order):
        theaters.append(
            {
                "name": name,
                "controller": SIDES[controller(state, p)],
                "strength": [strength(state, p, seat) for seat in (0, 1)],
                "sides": [
                    {
                        "seat": seat,
                        "side": SIDES[seat],
                        "cards": [
                            {
                                **shown(card, up, seat),
                                "cell": f"{SIDES[seat]}-{name}",
                                "uncovered": i == len(stack) - 1,
                                "position": i + 1,
                            }
                            for i, (card, up) in enumerate(stack)
                        ],
                    }
                    for seat, stack in enumerate(state.board[p])
                ],
            }
        )
    hands = [
        [shown(card, True, seat) for card in hand] if reveal or seat == viewer else []
        for seat, hand in enumerate(state.hands)
    ]
    peek = ""
    if pending and pending[1] == "reinforce" and state.deck and (reveal or viewer == pending[0]):
        peek = card_text(state.deck[0])
    return {
        "viewer": viewer,
        "battle": state.battle,
        "vp": list(state.vp),
        "target_vp": TARGET_VP,
        "first": SIDES[state.first],
        "sides": list(SIDES),
        "theaters": theaters,
        "hands": hands,
        "hand_counts": [len(hand) for hand in state.hands],
        "deck_count": len(state.deck),
        "deck": list(state.deck) if reveal else [],
        "to_act": mover,
        # the viewer's own moves, one button each (data-cell; a card play drawn under its card); no one else's,
        # so nothing of a hand leaks
        "moves": [view_move(a) for a in moves],
        "pending": f"{SIDES[pending[0]]}: {pending[1]} (from {state.order[pending[2]]})" if pending else "",
        "reinforce_card": peek,
        "air_drop": SIDES[state.air_drop] if state.air_drop >= 0 else "",
        "log": list(state.log),
        "result": result,
    }
