"""What the heads-up poker games share (Kuhn, Leduc and hold'em): a match of hands and the table each viewer sees.

A mixin of `LimitPoker` (games.limit_poker) and `Holdem` (games.holdem). Their states carry `seed`, `hands`,
`hand` (== hands once the match is over), `actions` (this hand) and `past` (the finished hands); the games
supply `net`, `_hand_view` and the hooks at the end.
"""

from __future__ import annotations

from typing import Any

from games.base import Outcome


class PokerMatchViews:
    """The match's outcome, label and views built from each game's hand view; not usable on its own."""

    def outcome(self, state: Any) -> Outcome | None:
        if state.hand < state.hands:
            return None
        net = self.net(state)
        if net == 0:
            return Outcome.draw(f"level after {state.hands} hands")
        winner = 0 if net > 0 else 1
        return Outcome.win(
            winner, f"{self.seat_names[winner]} won {self.chips(abs(net))} chips over {state.hands} hands"
        )

    def round_label(self, state: Any) -> str:
        return f"Hand {state.hand + 1} of {state.hands}"

    def player_view(self, state: Any, player: int | None) -> dict[str, Any]:
        # No seed here: the seed determines every deal.
        return self._view(state, player, reveal=False)

    def full_view(self, state: Any) -> dict[str, Any]:
        return self._view(state, None, reveal=True)

    def _view(self, state: Any, viewer: int | None, reveal: bool) -> dict[str, Any]:
        net = self.net(state)
        over = state.hand >= state.hands
        view: dict[str, Any] = {
            "viewer": viewer,
            "seat_names": list(self.seat_names),
            "hands": state.hands,
            "hand_number": min(state.hand + 1, state.hands),
            "over": over,
            "to_act": self.current_player(state),
            "net": [net, -net],
            **self.table_facts(),
            "current": None if over else self._hand_view(state, state.hand, state.actions, viewer, reveal),
            "last": None,
            "legal": [self.action_to_text(state, a) for a in self.legal_actions(state)],
        }
        if state.past:
            last = len(state.past) - 1
            view["last"] = self._hand_view(state, last, state.past[last], viewer, reveal)
        view["table"] = [self._seat_view(view, seat) for seat in ((1, 0) if viewer != 1 else (0, 1))]
        if reveal:
            view["seed"] = state.seed
            view["history"] = [self._hand_view(state, h, a, None, True) for h, a in enumerate(state.past)]
        return view

    def _seat_view(self, view: dict[str, Any], seat: int) -> dict[str, Any]:
        """One seat at the table as the viewer sees it (the viewer's own seat is drawn at the bottom)."""
        return {
            "seat": seat,
            "name": self.seat_names[seat],
            "you": view["viewer"] == seat,
            "net": view["net"][seat],
            "to_act": view["to_act"] == seat,
            **self.seat_at_table(view["current"], seat),
        }

    def result_text(self, result: int) -> str:
        """How a finished hand ended for a summary: '; split pot.' or '; Player 1 wins 4.'."""
        if result == 0:
            return "; split pot."
        winner = 0 if result > 0 else 1
        return f"; {self.seat_names[winner]} wins {self.chips(abs(result))}."

    # -- hooks each game supplies --------------------------------------------------------------

    def chips(self, amount: int) -> str:
        """A number of chips as the game's texts write it."""
        return str(amount)

    def table_facts(self) -> dict[str, Any]:
        """What the view says about the whole table beside the match score (the game, the blinds …)."""
        return {}

    def seat_at_table(self, hand: dict[str, Any] | None, seat: int) -> dict[str, Any]:
        """A seat's cards and chips in the current hand's view (`None` once the match is over)."""
        raise NotImplementedError
