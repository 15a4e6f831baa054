"""Air, Land & Sea (GameBench): two commanders fight battles over three theaters until one has 12 victory points.

The package: `cards` (the 18 battle cards and the withdrawal table), `rules` (the state and its state machine),
`player_views` (what each viewer sees) and `text` (rules and observations for models); this module binds them into the
game contract. Rule choices: docs/games.md.
"""

from __future__ import annotations

from typing import Any

from games.air_land_sea.cards import (
    CARDS,
    HAND_SIZE,
    PENDING_BY_CARD,
    SIDES,
    TARGET_VP,
    THEATERS,
    WITHDRAW_VP,
    adjacent,
    card_text,
    theater_of,
)
from games.air_land_sea.player_views import move_label, table_view
from games.air_land_sea.rules import (
    Action,
    AirLandSeaRules,
    AirLandSeaState,
    Placed,
    controller,
    deal,
    face_up,
    set_stack,
    strength,
)
from games.air_land_sea.text import observation_text, public_history, rules_text
from games.base import IllegalAction


class AirLandSea(AirLandSeaRules):
    slug = "air-land-sea"
    name = "Air, Land & Sea"
    seat_names = SIDES
    hidden_information = True  # hands, face-down cards and the deck
    chance = True  # the deal of every battle

    # -- storage and notation -------------------------------------------------------------------

    def to_json(self, state: AirLandSeaState) -> dict[str, Any]:
        return {
            "seed": state.seed,
            "ply": state.ply,
            "battle": state.battle,
            "vp": list(state.vp),
            "first": state.first,
            "order": list(state.order),
            "hands": [list(hand) for hand in state.hands],
            "deck": list(state.deck),
            "board": [[[[card, up] for card, up in stack] for stack in sides] for sides in state.board],
            "to_move": state.to_move,
            "pending": [list(p) for p in state.pending],
            "air_drop": state.air_drop,
            "extra_turn": state.extra_turn,
            "log": list(state.log),
        }

    def from_json(self, data: dict[str, Any]) -> AirLandSeaState:
        return AirLandSeaState(
            seed=int(data["seed"]),
            ply=int(data["ply"]),
            battle=int(data["battle"]),
            vp=(int(data["vp"][0]), int(data["vp"][1])),
            first=int(data["first"]),
            order=tuple(str(t) for t in data["order"]),  # type: ignore[arg-type]
            hands=tuple(tuple(str(c) for c in hand) for hand in data["hands"]),  # type: ignore[arg-type]
            deck=tuple(str(c) for c in data["deck"]),
            board=tuple(
                tuple(tuple((str(card), bool(up)) for card, up in stack) for stack in sides) for sides in data["board"]
            ),  # type: ignore[arg-type]
            to_move=int(data["to_move"]),
            pending=tuple((int(s), str(a), int(p)) for s, a, p in data["pending"]),
            air_drop=int(data["air_drop"]),
            extra_turn=bool(data["extra_turn"]),
            log=tuple(str(line) for line in data["log"]),
        )

    def action_to_text(self, state: AirLandSeaState, action: Action) -> str:
        return " ".join(action)

    def parse_action(self, state: AirLandSeaState, text: str) -> Action:
        words = text.replace(",", " ").split()
        canon = {w.lower(): w for w in (*CARDS, *THEATERS, *SIDES)}
        action = tuple(canon.get(w.lower(), w.lower()) for w in words)
        if action not in self.legal_actions(state):
            raise IllegalAction(
                f"Could not read {text.strip()[:80]!r} as a move here; write one of the listed moves, e.g. "
                f"'deploy A3 Air', 'improvise L6 Sea', 'withdraw'. {self.legal_summary(state)}"
            )
        return action

    def public_action_text(self, text: str) -> str:
        words = text.split()
        return f"improvise a card {words[2]}" if words and words[0] == "improvise" and len(words) == 3 else text

    def round_label(self, state: AirLandSeaState) -> str:
        return f"Battle {state.battle}"

    # -- views -----------------------------------------------------------------------------------

    def _view(self, state: AirLandSeaState, viewer: int | None, reveal: bool) -> dict[str, Any]:
        outcome = self.outcome(state)
        mover = self.current_player(state)
        own_turn = viewer is not None and viewer == mover and not reveal
        return table_view(
            state,
            viewer,
            reveal=reveal,
            mover=mover,
            moves=self.legal_actions(state) if own_turn else [],
            result=outcome.reason if outcome else "",
        )

    def move_label(self, state: AirLandSeaState, action: Action) -> str:
        """A button's words for a person: card names instead of ids."""
        return move_label(action)

    def player_view(self, state: AirLandSeaState, player: int | None) -> dict[str, Any]:
        return self._view(state, player, reveal=False)

    def full_view(self, state: AirLandSeaState) -> dict[str, Any]:
        return self._view(state, None, reveal=True)

    def public_history(self, state: AirLandSeaState) -> str:
        return public_history(state)

    def observation_text(self, state: AirLandSeaState, player: int) -> str:
        to_act = self.current_player(state) == player
        legal = [self.action_to_text(state, a) for a in self.legal_actions(state)] if to_act else None
        return observation_text(state, player, legal)

    def rules_text(self) -> str:
        return rules_text()

    # -- UI ------------------------------------------------------------------------------------

    def action_cells(self, state: AirLandSeaState, action: Action) -> tuple[str, ...]:
        return ("-".join(action),)


__all__ = [
    "CARDS",
    "HAND_SIZE",
    "PENDING_BY_CARD",
    "SIDES",
    "TARGET_VP",
    "THEATERS",
    "WITHDRAW_VP",
    "Action",
    "AirLandSea",
    "AirLandSeaState",
    "Placed",
    "adjacent",
    "card_text",
    "controller",
    "deal",
    "face_up",
    "set_stack",
    "strength",
    "theater_of",
]
