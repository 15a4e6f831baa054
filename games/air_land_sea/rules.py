"""Air, Land & Sea's state and rules: deploy, improvise, withdraw, tactical abilities, battles and the war.

A battle deals six of the 18 battle cards to each player. Turns alternate: deploy a card face up to its own
theater, improvise it face down (strength 2) to any theater, or withdraw (the opponent scores by the cards left in
the withdrawer's hand). Face-up cards' tactical abilities (instant or ongoing) follow the published card texts;
an instant ability that needs a choice becomes a decision of its own (a "pending" choice) for the seat it names.
When both hands are empty the player controlling two theaters wins the battle (6 VP). Rule choices: docs/games.md.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
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
from games.base import Game, IllegalAction, Outcome

Placed = tuple[str, bool]  # (card id, face up)
Action = tuple[str, ...]


@dataclass(frozen=True)
class AirLandSeaState:
    seed: int
    ply: int
    battle: int  # 1-based
    vp: tuple[int, int]
    first: int  # the seat holding the 1st Player Supreme Commander card this battle
    order: tuple[str, str, str]  # the theaters left to right
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    deck: tuple[str, ...]  # top first
    board: tuple[tuple[tuple[Placed, ...], tuple[Placed, ...]], ...]  # [theater position][seat]: bottom..top
    to_move: int  # whose turn it is (pending choices may be another seat's)
    pending: tuple[tuple[int, str, int], ...]  # (seat, ability, theater position) still to resolve, oldest first
    air_drop: int  # the seat whose next turn may play to a non-matching theater, -1 if none
    extra_turn: bool  # Redeploy returned a card: the turn player moves again
    log: tuple[str, ...]  # public events of the battle so far and the last battles' results


def face_up(state: AirLandSeaState, card: str) -> tuple[int, int] | None:
    """(theater position, owner) of `card` if it lies face up on the board, else None."""
    for position, sides in enumerate(state.board):
        for seat, stack in enumerate(sides):
            if (card, True) in stack:
                return position, seat
    return None


def strength(state: AirLandSeaState, position: int, seat: int) -> int:
    """The total strength of `seat`'s side of a theater, ongoing abilities included."""
    stack = state.board[position][seat]
    escalation = face_up(state, "S2")
    cover = next((i for i, placed in enumerate(stack) if placed == ("L4", True)), 0)
    total = 0
    for i, (card, up) in enumerate(stack):
        if i < cover:
            total += 4
        elif up:
            total += CARDS[card][1]
        else:
            total += 4 if escalation and escalation[1] == seat else 2
    support = face_up(state, "A1")
    if support and support[1] == seat and position in adjacent(support[0]):
        total += 3
    return total


def controller(state: AirLandSeaState, position: int) -> int:
    """The seat controlling a theater: higher strength; the 1st player wins ties (and empty theaters)."""
    first, second = strength(state, position, state.first), strength(state, position, 1 - state.first)
    return state.first if first >= second else 1 - state.first


def deal(state: AirLandSeaState, rng: random.Random) -> AirLandSeaState:
    """A fresh battle: every card shuffled by `rng`, six to each hand, an empty board."""
    cards = sorted(CARDS)
    rng.shuffle(cards)
    return replace(
        state,
        hands=(tuple(sorted(cards[:HAND_SIZE])), tuple(sorted(cards[HAND_SIZE : 2 * HAND_SIZE]))),
        deck=tuple(cards[2 * HAND_SIZE :]),
        board=(((), ()), ((), ()), ((), ())),
        to_move=state.first,
        pending=(),
        air_drop=-1,
        extra_turn=False,
    )


def set_stack(state: AirLandSeaState, position: int, seat: int, stack: tuple[Placed, ...]) -> AirLandSeaState:
    sides = list(state.board[position])
    sides[seat] = stack
    board = list(state.board)
    board[position] = (sides[0], sides[1])
    return replace(state, board=tuple(board))


class AirLandSeaRules(Game[AirLandSeaState, Action]):
    """The rules half of the game contract; `games.air_land_sea.AirLandSea` adds storage, notation and views."""

    def initial_state(self, *, seed: int, **options: Any) -> AirLandSeaState:
        bare = AirLandSeaState(seed, 0, 1, (0, 0), 0, THEATERS, ((), ()), (), (), 0, (), -1, False, ())
        order = list(THEATERS)
        self.rng(replace(bare, seed=seed + 7)).shuffle(order)
        return deal(replace(bare, order=(order[0], order[1], order[2])), self.rng(bare))

    def current_player(self, state: AirLandSeaState) -> int | None:
        if max(state.vp) >= TARGET_VP:
            return None
        return state.pending[0][0] if state.pending else state.to_move

    def outcome(self, state: AirLandSeaState) -> Outcome | None:
        if max(state.vp) < TARGET_VP:
            return None
        winner = 0 if state.vp[0] > state.vp[1] else 1
        return Outcome.win(winner, f"{SIDES[winner]} reached {state.vp[winner]} VP ({state.vp[0]}–{state.vp[1]})")

    def _uncovered(self, state: AirLandSeaState, positions: list[int], seats: tuple[int, ...]) -> list[Action]:
        return [("flip", SIDES[seat], state.order[p]) for p in positions for seat in seats if state.board[p][seat]]

    def choices(self, state: AirLandSeaState, seat: int, ability: str, position: int) -> list[Action]:
        """The options of a pending ability ([] when it is impossible, so it is skipped)."""
        if ability == "maneuver":
            return self._uncovered(state, adjacent(position), (0, 1))
        if ability == "ambush":
            return self._uncovered(state, [0, 1, 2], (0, 1))
        if ability == "disrupt":
            return self._uncovered(state, [0, 1, 2], (seat,))
        if ability == "transport":
            moves = [
                ("move", state.order[p], str(i + 1), state.order[q])
                for p in range(3)
                for i in range(len(state.board[p][seat]))
                for q in range(3)
                if q != p
            ]
            return [*moves, ("pass",)] if moves else []
        if ability == "redeploy":
            back = [
                ("return", state.order[p], str(i + 1))
                for p in range(3)
                for i, (_, up) in enumerate(state.board[p][seat])
                if not up
            ]
            return [*back, ("pass",)] if back else []
        if ability == "reinforce":
            return [*(("reinforce", state.order[q]) for q in adjacent(position)), ("pass",)] if state.deck else []
        raise ValueError(ability)

    def legal_actions(self, state: AirLandSeaState) -> list[Action]:
        seat = self.current_player(state)
        if seat is None:
            return []
        if state.pending:
            return self.choices(state, *state.pending[0])
        aerodrome = face_up(state, "A4")
        actions: list[Action] = []
        for card in state.hands[seat]:
            for theater in state.order:
                anywhere = state.air_drop == seat or (aerodrome and aerodrome[1] == seat and CARDS[card][1] <= 3)
                if theater == theater_of(card) or anywhere:
                    actions.append(("deploy", card, theater))
            actions += [("improvise", card, theater) for theater in state.order]
        return [*actions, ("withdraw",)]

    def apply(self, state: AirLandSeaState, action: Action) -> AirLandSeaState:
        self.require_legal(state, action)
        seat = self.current_player(state)
        state = replace(state, ply=state.ply + 1)
        if state.pending:
            _, ability, position = state.pending[0]
            state = self._resolve(replace(state, pending=state.pending[1:]), seat, ability, position, action)
        elif action[0] == "withdraw":
            return self._end_battle(state, winner=1 - seat, withdrew=seat)
        else:
            _, card, theater = action
            hand = list(state.hands[seat])
            hand.remove(card)
            hands = (tuple(hand), state.hands[1]) if seat == 0 else (state.hands[0], tuple(hand))
            state = replace(state, hands=hands, air_drop=-1 if state.air_drop == seat else state.air_drop)
            state = self._play(state, seat, card, state.order.index(theater), action[0] == "deploy")
        return self._settle(state)

    def _play(self, state: AirLandSeaState, seat: int, card: str, position: int, up: bool) -> AirLandSeaState:
        """Put a card from a hand (or the deck) into a theater, then Containment, Blockade, or its instant ability."""
        occupied = len(state.board[position][0]) + len(state.board[position][1])
        blockade = face_up(state, "S5")
        verb = "deploys" if up else "plays face down"
        shown = card_text(card) if up else "a card"
        if not up and face_up(state, "A5"):
            return self._log(
                replace(state, deck=(*state.deck, card)),
                f"{SIDES[seat]} {verb} {shown} to {state.order[position]}: destroyed by Containment",
            )
        if blockade and position in adjacent(blockade[0]) and occupied >= 3:
            return self._log(
                replace(state, deck=(*state.deck, card)),
                f"{SIDES[seat]} {verb} {shown} to {state.order[position]}: destroyed by Blockade",
            )
        state = set_stack(state, position, seat, (*state.board[position][seat], (card, up)))
        state = self._log(state, f"{SIDES[seat]} {verb} {shown} to {state.order[position]}")
        return self._trigger(state, seat, card, position) if up else state

    def _trigger(self, state: AirLandSeaState, seat: int, card: str, position: int) -> AirLandSeaState:
        """A card turned or played face up: its instant ability joins the queue (Air Drop acts at once)."""
        if card == "A2":
            return replace(state, air_drop=seat)
        if card == "L5":
            return replace(
                state, pending=(*state.pending, (seat, "disrupt", position), (1 - seat, "disrupt", position))
            )
        if card in PENDING_BY_CARD:
            return replace(state, pending=(*state.pending, (seat, PENDING_BY_CARD[card], position)))
        return state

    def _resolve(
        self, state: AirLandSeaState, seat: int, ability: str, position: int, action: Action
    ) -> AirLandSeaState:
        if action[0] == "pass":
            return self._log(state, f"{SIDES[seat]} passes on {ability}")
        if action[0] == "flip":
            owner, p = SIDES.index(action[1]), state.order.index(action[2])
            stack = state.board[p][owner]
            card, up = stack[-1]
            state = set_stack(state, p, owner, (*stack[:-1], (card, not up)))
            what = (
                f"turns {SIDES[owner]}'s {card_text(card)} face up"
                if not up
                else (f"turns {SIDES[owner]}'s {CARDS[card][0]} face down")
            )
            state = self._log(state, f"{SIDES[seat]} {what} in {action[2]}")
            return self._trigger(state, owner, card, p) if not up else state
        if action[0] == "move":
            p, i, q = state.order.index(action[1]), int(action[2]) - 1, state.order.index(action[3])
            stack = state.board[p][seat]
            state = set_stack(state, p, seat, stack[:i] + stack[i + 1 :])
            state = set_stack(state, q, seat, (*state.board[q][seat], stack[i]))
            return self._log(state, f"{SIDES[seat]} moves card {action[2]} of {action[1]} to {action[3]}")
        if action[0] == "return":
            p, i = state.order.index(action[1]), int(action[2]) - 1
            stack = state.board[p][seat]
            hands = list(state.hands)
            hands[seat] = tuple(sorted((*hands[seat], stack[i][0])))
            state = set_stack(
                replace(state, hands=(hands[0], hands[1]), extra_turn=True), p, seat, stack[:i] + stack[i + 1 :]
            )
            return self._log(
                state, f"{SIDES[seat]} returns face-down card {action[2]} of {action[1]} to hand; extra turn"
            )
        if action[0] == "reinforce":
            top, rest = state.deck[0], state.deck[1:]
            return self._play(replace(state, deck=rest), seat, top, state.order.index(action[1]), False)
        raise IllegalAction(f"{action!r} is not a choice")

    def _settle(self, state: AirLandSeaState) -> AirLandSeaState:
        """Skip impossible pending abilities; when none is left, pass the turn or end the battle."""
        while state.pending and not self.choices(state, *state.pending[0]):
            state = replace(state, pending=state.pending[1:])
        if state.pending:
            return state
        if not state.hands[0] and not state.hands[1]:
            won = sum(controller(state, p) == 0 for p in range(3)) >= 2
            return self._end_battle(state, winner=0 if won else 1, withdrew=None)
        nxt = state.to_move if state.extra_turn else 1 - state.to_move
        if not state.hands[nxt]:
            nxt = 1 - nxt
        return replace(state, to_move=nxt, extra_turn=False)

    def _end_battle(self, state: AirLandSeaState, *, winner: int, withdrew: int | None) -> AirLandSeaState:
        if withdrew is None:
            gain, how = 6, "controls more theaters"
        else:
            gain = WITHDRAW_VP[0 if withdrew == state.first else 1][min(len(state.hands[withdrew]), 6)]
            how = f"{SIDES[withdrew]} withdrew with {len(state.hands[withdrew])} cards in hand"
        vp = list(state.vp)
        vp[winner] += gain
        result = f"Battle {state.battle}: {SIDES[winner]} wins (+{gain} VP, {how}); score {vp[0]}–{vp[1]}"
        log = (*(line for line in state.log if line.startswith("Battle ")), result)
        state = replace(state, vp=(vp[0], vp[1]), log=log, pending=())
        if max(vp) >= TARGET_VP:
            return state
        o = state.order
        nxt = replace(state, battle=state.battle + 1, first=1 - state.first, order=(o[2], o[0], o[1]))
        return deal(nxt, self.rng(state))

    def _log(self, state: AirLandSeaState, line: str) -> AirLandSeaState:
        return replace(state, log=(*state.log, line))
