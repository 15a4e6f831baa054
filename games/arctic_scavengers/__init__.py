"""Arctic Scavengers (GameBench): two tribes build decks of survivors and tools, and fight for contested resources.

Five rounds, one per contested resource. Each round both tribes draw five cards, gather (dig the junkyard, draw,
hunt food, hire mercenaries, trash cards — each once), bring what is left in hand to a skirmish whose stronger
side wins the resource, and at the end the larger tribe wins. Rules in `rules.py`; choices in docs/games.md.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.arctic_scavengers.player_views import action_cells, table_view
from games.arctic_scavengers.rules import PLAYERS, ROUNDS, SEATS, Action, ArcticState, deal, legal, step, tribe_sizes
from games.arctic_scavengers.text import HIDDEN_KEEP, RULES_TEXT, action_text, observation, parse
from games.base import Game, Outcome

PER_SEAT = ("hands", "decks", "discards", "used", "spent", "won")


class ArcticScavengers(Game[ArcticState, Action]):
    slug = "arctic-scavengers"
    name = "Arctic Scavengers"
    num_players = PLAYERS
    seat_names = SEATS
    hidden_information = True  # hands, decks, discard piles, the dig's cards
    chance = True  # shuffles: decks, the junkyard, the contested pile

    # -- rules --------------------------------------------------------------------------------

    def initial_state(self, *, seed: int, **options: Any) -> ArcticState:
        if options:
            raise ValueError(f"arctic-scavengers takes no options, got {sorted(options)}")
        bare = ArcticState(seed, 0, 1, "gather", 0, (), (), (), (), (), (), (), (), (), (), (), ())
        return deal(seed, self.rng(bare))

    def current_player(self, state: ArcticState) -> int | None:
        return None if state.phase == "over" else state.turn

    def legal_actions(self, state: ArcticState) -> list[Action]:
        return legal(state)

    def apply(self, state: ArcticState, action: Action) -> ArcticState:
        self.require_legal(state, action)
        return replace(step(state, action, self.rng(state)), ply=state.ply + 1)

    def outcome(self, state: ArcticState) -> Outcome | None:
        if state.phase != "over":
            return None
        sizes = tribe_sizes(state)
        told = " to ".join(str(s) for s in sizes)
        if sizes[0] == sizes[1]:
            return Outcome.draw(f"equal tribes of {sizes[0]} after {ROUNDS} rounds", PLAYERS)
        winner = 0 if sizes[0] > sizes[1] else 1
        return Outcome.win(winner, f"{SEATS[winner]} has the larger tribe ({told} tribe members)", PLAYERS)

    # -- storage and notation -------------------------------------------------------------------

    def to_json(self, state: ArcticState) -> dict[str, Any]:
        data = dict(state.__dict__)
        for name in PER_SEAT:
            data[name] = [list(cards) for cards in data[name]]
        for name in ("food", "dug", "junkyard", "contested", "supply", "log"):
            data[name] = list(data[name])
        return data

    def from_json(self, data: dict[str, Any]) -> ArcticState:
        fields = dict(data)
        for name in PER_SEAT:
            fields[name] = tuple(tuple(str(c) for c in cards) for cards in data[name])
        for name in ("dug", "junkyard", "contested", "log"):
            fields[name] = tuple(str(c) for c in data[name])
        fields["food"] = tuple(int(n) for n in data["food"])
        fields["supply"] = tuple(int(n) for n in data["supply"])
        return ArcticState(**fields)

    def action_to_text(self, state: ArcticState, action: Action) -> str:
        return action_text(action)

    def parse_action(self, state: ArcticState, text: str) -> Action:
        return parse(text)

    def public_action_text(self, text: str) -> str:
        return HIDDEN_KEEP if text.startswith("keep ") else text  # which dug card was kept stays the digger's

    def round_label(self, state: ArcticState) -> str:
        return f"Round {min(state.round, ROUNDS)}"

    # -- views -----------------------------------------------------------------------------------

    def _result(self, state: ArcticState) -> str:
        outcome = self.outcome(state)
        return outcome.reason if outcome else ""

    def player_view(self, state: ArcticState, player: int | None) -> dict[str, Any]:
        return table_view(state, player, reveal=False, result=self._result(state))

    def full_view(self, state: ArcticState) -> dict[str, Any]:
        return table_view(state, None, reveal=True, result=self._result(state))

    def public_history(self, state: ArcticState) -> str:
        return "\n".join(state.log)

    def observation_text(self, state: ArcticState, player: int) -> str:
        return observation(state, player)

    def rules_text(self) -> str:
        return RULES_TEXT

    # -- UI ------------------------------------------------------------------------------------

    def action_cells(self, state: ArcticState, action: Action) -> tuple[str, ...]:
        return action_cells(state, action)
