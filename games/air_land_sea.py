"""Air, Land & Sea (GameBench): two commanders fight battles over three theaters until one has 12 victory points.

A battle deals six of the 18 battle cards to each player. Turns alternate: deploy a card face up to its own
theater, improvise it face down (strength 2) to any theater, or withdraw (the opponent scores by the cards left in
the withdrawer's hand). Face-up cards' tactical abilities (instant or ongoing) follow the published card texts;
an instant ability that needs a choice becomes a decision of its own (a "pending" choice) for the seat it names.
When both hands are empty the player controlling two theaters wins the battle (6 VP). Rule choices: docs/games.md.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from games.base import Game, IllegalAction, Outcome

TARGET_VP = 12
HAND_SIZE = 6
THEATERS = ("Air", "Land", "Sea")
SIDES = ("Blue", "Red")
#: card id -> (name, strength, kind, text); kind is "instant", "ongoing" or "" (no ability).
CARDS: dict[str, tuple[str, int, str, str]] = {
    "A1": ("Support", 1, "ongoing", "You gain +3 strength in each adjacent theater."),
    "A2": ("Air Drop", 2, "instant", "On your next turn, you may play a battle card to a non-matching theater."),
    "A3": ("Maneuver", 3, "instant", "Flip an uncovered card in an adjacent theater."),
    "A4": ("Aerodrome", 4, "ongoing", "You may play cards of strength 3 or less to non-matching theaters."),
    "A5": ("Containment", 5, "ongoing", "If either player plays a card face down, destroy that card."),
    "A6": ("Heavy Bombers", 6, "", ""),
    "L1": (
        "Reinforce",
        1,
        "instant",
        "Look at the top card of the deck. You may play it face down to an adjacent theater.",
    ),
    "L2": ("Ambush", 2, "instant", "Flip an uncovered card in any theater."),
    "L3": ("Maneuver", 3, "instant", "Flip an uncovered card in an adjacent theater."),
    "L4": ("Cover Fire", 4, "ongoing", "All cards covered by this card are now strength 4."),
    "L5": ("Disrupt", 5, "instant", "Starting with you, both players choose and flip 1 of their uncovered cards."),
    "L6": ("Heavy Tanks", 6, "", ""),
    "S1": ("Transport", 1, "instant", "You may move 1 of your cards to a different theater."),
    "S2": ("Escalation", 2, "ongoing", "All of your face-down cards are now strength 4."),
    "S3": ("Maneuver", 3, "instant", "Flip an uncovered card in an adjacent theater."),
    "S4": (
        "Redeploy",
        4,
        "instant",
        "You may return 1 of your face-down cards to your hand. If you do, gain an extra turn.",
    ),
    "S5": (
        "Blockade",
        5,
        "ongoing",
        "If a card is played in an adjacent theater occupied by at least 3 other cards, destroy that card.",
    ),
    "S6": ("Super Battleship", 6, "", ""),
}
#: What a withdrawal scores for the opponent, by cards left in the withdrawer's hand: (1st player withdraws, 2nd does).
WITHDRAW_VP = ((6, 4, 3, 3, 2, 2, 2), (6, 6, 4, 3, 3, 2, 2))
PENDING_BY_CARD = {
    "A3": "maneuver",
    "L3": "maneuver",
    "S3": "maneuver",
    "L2": "ambush",
    "L5": "disrupt",
    "S1": "transport",
    "S4": "redeploy",
    "L1": "reinforce",
}

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


def card_text(card: str) -> str:
    name, strength, kind, text = CARDS[card]
    return f"{card} {name} ({THEATERS['ALS'.index(card[0])]} {strength}{f', {kind}: {text}' if kind else ''})"


def theater_of(card: str) -> str:
    return THEATERS["ALS".index(card[0])]


def adjacent(position: int) -> list[int]:
    return [p for p in (position - 1, position + 1) if 0 <= p < 3]


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


def deal(state: AirLandSeaState, rng_state: AirLandSeaState) -> AirLandSeaState:
    """A fresh battle: every card shuffled from `rng_state`'s RNG, six to each hand, an empty board."""
    cards = sorted(CARDS)
    AirLandSea().rng(rng_state).shuffle(cards)
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


class AirLandSea(Game[AirLandSeaState, Action]):
    slug = "air-land-sea"
    name = "Air, Land & Sea"
    seat_names = SIDES
    hidden_information = True  # hands, face-down cards and the deck
    chance = True  # the deal of every battle

    # -- rules --------------------------------------------------------------------------------

    def initial_state(self, *, seed: int, **options: Any) -> AirLandSeaState:
        bare = AirLandSeaState(seed, 0, 1, (0, 0), 0, THEATERS, ((), ()), (), (), 0, (), -1, False, ())
        order = list(THEATERS)
        self.rng(replace(bare, seed=seed + 7)).shuffle(order)
        return deal(replace(bare, order=(order[0], order[1], order[2])), bare)

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
        return deal(nxt, state)

    def _log(self, state: AirLandSeaState, line: str) -> AirLandSeaState:
        return replace(state, log=(*state.log, line))

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
            # the viewer's own moves, one button each (data-cell); no one else's, so nothing of a hand leaks
            "moves": [{"cell": "-".join(a), "label": self.move_label(state, a)} for a in self.legal_actions(state)]
            if viewer is not None and viewer == mover and not reveal
            else [],
            "pending": f"{SIDES[pending[0]]}: {pending[1]} (from {state.order[pending[2]]})" if pending else "",
            "reinforce_card": peek,
            "air_drop": SIDES[state.air_drop] if state.air_drop >= 0 else "",
            "log": list(state.log),
            "result": outcome.reason if outcome else "",
        }

    def move_label(self, state: AirLandSeaState, action: Action) -> str:
        """A button's words for a person: card names instead of ids."""
        if action[0] in ("deploy", "improvise"):
            how = "face up" if action[0] == "deploy" else "face down"
            return f"{CARDS[action[1]][0]} ({action[1]}) {how} to {action[2]}"
        if action[0] == "flip":
            return f"flip {action[1]}'s top card in {action[2]}"
        if action[0] == "move":
            return f"move card {action[2]} of {action[1]} to {action[3]}"
        if action[0] == "return":
            return f"return face-down card {action[2]} of {action[1]} to hand"
        if action[0] == "reinforce":
            return f"play the top card face down to {action[1]}"
        return action[0]

    def player_view(self, state: AirLandSeaState, player: int | None) -> dict[str, Any]:
        return self._view(state, player, reveal=False)

    def full_view(self, state: AirLandSeaState) -> dict[str, Any]:
        return self._view(state, None, reveal=True)

    def public_history(self, state: AirLandSeaState) -> str:
        return "\n".join(f"- {line}" for line in state.log)

    def observation_text(self, state: AirLandSeaState, player: int) -> str:
        other = 1 - player
        lines = [
            f"You are {SIDES[player]}. Battle {state.battle}. Victory points: you {state.vp[player]}, "
            f"opponent {state.vp[other]} (first to {TARGET_VP} wins).",
            f"{SIDES[state.first]} holds the 1st Player Supreme Commander card this battle (wins ties).",
            f"Theaters, left to right: {', '.join(state.order)}.",
            "",
        ]
        for p, name in enumerate(state.order):
            lines.append(f"{name} (controlled by {SIDES[controller(state, p)]}):")
            for seat in (player, other):
                cards = [
                    card_text(card) + ("" if up else " [face down]") if up or seat == player else "a face-down card"
                    for card, up in state.board[p][seat]
                ]
                who = "your side" if seat == player else "opponent's side"
                lines.append(f"  {who}, strength {strength(state, p, seat)}: {'; '.join(cards) or 'no cards'}")
        lines += ["", "Your hand: " + ("; ".join(card_text(c) for c in state.hands[player]) or "empty")]
        lines.append(f"Opponent's hand: {len(state.hands[other])} cards. Deck: {len(state.deck)} cards.")
        if state.air_drop == player:
            lines.append("Air Drop: this turn you may deploy a card to a non-matching theater.")
        if state.log:
            lines += ["", "Events:", self.public_history(state)]
        if self.current_player(state) == player:
            if state.pending:
                _, ability, p = state.pending[0]
                lines += ["", f"Resolve {ability} (from {state.order[p]})."]
                if ability == "reinforce":
                    lines.append(f"The top card of the deck is {card_text(state.deck[0])}.")
            lines += ["", "Legal moves: " + ", ".join(self.action_to_text(state, a) for a in self.legal_actions(state))]
        return "\n".join(lines)

    def rules_text(self) -> str:
        cards = "\n".join(f"- {card_text(card)}" for card in CARDS)
        return (
            "Air, Land & Sea (GameBench). A strategic card game where two players compete over a series of battles "
            "to control different Theaters of war: Air, Land, and Sea. Each player is dealt 6 cards representing "
            "various military units and tactics. Players win a battle by controlling more Theaters than their "
            "opponent or convincing their opponent to withdraw. Victory Points (VPs) are earned by winning battles, "
            "and the first player to reach 12 VPs wins the game.\n"
            "- Turns: players alternate, starting with the 1st player. On your turn take one action: Deploy (play a "
            "card face up to the theater of its type; its tactical ability takes effect), Improvise (play a card face "
            "down to any theater: strength 2, no ability), or Withdraw (your opponent wins the battle).\n"
            "- Control: a theater is controlled by the side with the higher total strength; the 1st player wins ties "
            "and empty theaters. When both hands are empty, whoever controls two theaters wins the battle: 6 VP.\n"
            "- Withdrawing: if the 1st player withdraws, the 2nd player scores 2 VP (4+ cards left in the "
            "withdrawer's hand), 3 (2-3), 4 (1), 6 (0); if the 2nd player withdraws, the 1st scores 2 (5+), 3 (3-4), "
            "4 (2), 6 (0-1).\n"
            "- Cards played later cover earlier ones in the same theater; 'uncovered' is the top card. Flip turns a "
            "card face up (its instant ability then takes effect) or face down. Destroyed cards leave the game for "
            "the battle. Instant abilities that need a choice are separate moves: 'flip <side> <theater>' flips "
            "that side's uncovered card; 'move <theater> <n> <to theater>' (n counts from the bottom card, 1); "
            "'return <theater> <n>'; 'reinforce <theater>'; 'pass' declines a 'may'.\n"
            "- After each battle the theaters rotate (rightmost to the left), the 1st player card changes hands, "
            "and all 18 cards are shuffled and dealt again.\n"
            "Cards (id, name, theater, strength, ability):\n"
            f"{cards}\n"
            "Answer with exactly one of the legal moves listed in the observation, e.g. 'deploy A3 Air'."
        )

    # -- UI ------------------------------------------------------------------------------------

    def action_cells(self, state: AirLandSeaState, action: Action) -> tuple[str, ...]:
        return ("-".join(action),)
