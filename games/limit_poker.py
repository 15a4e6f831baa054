"""The small fixed-limit poker engine Kuhn poker and Leduc hold'em share: one private card each, fixed bets.

One match is `hands` hands (default 20) between the same two seats; the seat with more chips won
over the match wins, equal totals draw. Every hand is dealt from the seed alone (`deal`), never from
the actions: seat 0 gets the first card of the hand's shuffled deck, seat 1 the second, the board
the third, and seat `hand % 2` acts first in every round of that hand. Replaying a seed with the
seats swapped therefore gives each player exactly the cards and positions the other had.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from games.base import Game, IllegalAction
from games.poker_player_views import PokerMatchViews

DEFAULT_HANDS = 20
MAX_HANDS = 1000
FOLD, CALL, RAISE = "f", "c", "r"
ROUND_BREAK = "/"


@dataclass(frozen=True)
class LimitSpec:
    """A fixed-limit game with one private card each and an optional one-card board."""

    ranks: str  # weakest first
    suits: str  # one card per rank and suit ('' for one unsuited card per rank); suits never matter
    bets: tuple[int, ...]  # the fixed bet size of each betting round
    max_bets: int  # bets plus raises allowed per round
    ante: int = 1

    @property
    def rounds(self) -> int:
        return len(self.bets)

    @property
    def deck(self) -> tuple[str, ...]:
        return tuple(rank + suit for rank in self.ranks for suit in self.suits or ("",))


@dataclass(frozen=True)
class LimitPokerState:
    seed: int
    ply: int
    hands: int  # hands in the match
    hand: int  # index of the hand being played; == hands when the match is over
    actions: str  # this hand so far: 'f', 'c', 'r' per action, '/' between rounds
    past: tuple[str, ...]  # the action strings of the finished hands


@dataclass(frozen=True)
class HandStatus:
    """Where a hand stands after its action string."""

    round: int
    to_act: int | None  # seat, None when the hand is over
    facing: bool  # the player to act faces a bet
    bets: int  # bets and raises made in this round
    contributed: tuple[int, int]  # chips each seat has put in, antes included
    folded: int | None  # seat that folded
    showdown: bool


@lru_cache(maxsize=4096)
def deal(spec: LimitSpec, slug: str, seed: int, hand: int) -> tuple[str, str, str]:
    """(seat 0's card, seat 1's card, board card) of `hand`: a function of the seed and the hand number only."""
    deck = list(spec.deck)
    random.Random(f"{slug}/{seed}/{hand}").shuffle(deck)
    return deck[0], deck[1], deck[2]


def hand_status(spec: LimitSpec, actions: str, first: int) -> HandStatus:
    """Replay one hand's actions; `first` is the seat that opens every round."""
    contributed = [spec.ante, spec.ante]
    rounds = actions.split(ROUND_BREAK)
    for number, moves in enumerate(rounds):
        bets = 0
        seat = first
        for move in moves:
            if move == FOLD:
                return HandStatus(number, None, False, bets, (contributed[0], contributed[1]), seat, False)
            if move == RAISE:
                bets += 1
                contributed[seat] = contributed[1 - seat] + spec.bets[number]
            else:
                contributed[seat] = contributed[1 - seat]
            seat = 1 - seat
        closed = moves.endswith(RAISE + CALL) or moves == CALL + CALL
        if number < len(rounds) - 1:
            continue  # a completed earlier round
        if not closed:
            facing = moves.endswith(RAISE)
            return HandStatus(number, seat, facing, bets, (contributed[0], contributed[1]), None, False)
        if number == spec.rounds - 1:
            return HandStatus(number, None, False, bets, (contributed[0], contributed[1]), None, True)
        # a closed round with a next one: the caller appends the round break
        return HandStatus(number + 1, first, False, 0, (contributed[0], contributed[1]), None, False)
    raise AssertionError("unreachable")


def card_face(card: str) -> str:
    """'Qs' → 'Q♠' for people; '' stays ''."""
    return card[:1] + {"s": "♠", "h": "♥"}.get(card[1:], "")


def rank_of(card: str) -> str:
    return card[0]


def showdown_winner(spec: LimitSpec, cards: tuple[str, str], board: str) -> int | None:
    """The seat with the better hand (a pair with the board beats any high card), None on a tie."""
    if spec.rounds > 1:
        paired = [rank_of(c) == rank_of(board) for c in cards]
        if paired[0] != paired[1]:
            return 0 if paired[0] else 1
    strength = [spec.ranks.index(rank_of(c)) for c in cards]
    if strength[0] == strength[1]:
        return None
    return 0 if strength[0] > strength[1] else 1


class LimitPoker(PokerMatchViews, Game[LimitPokerState, str]):
    """A match of fixed-limit hands; subclasses give the spec, names and rules text."""

    spec: ClassVar[LimitSpec]
    default_hands: ClassVar[int] = DEFAULT_HANDS
    hidden_information = True
    chance = True
    has_controls = True
    shared_stylesheet = "poker"  # static/games/poker.css: the table, the cards, the bet controls
    seat_names = ("Player 1", "Player 2")

    # -- deals and hand bookkeeping -----------------------------------------------------

    def deal(self, state: LimitPokerState, hand: int | None = None) -> tuple[str, str, str]:
        return deal(self.spec, self.slug, state.seed, state.hand if hand is None else hand)

    def first_to_act(self, hand: int) -> int:
        """Seats alternate opening the hands: seat 0 opens hands 1, 3, 5, … (index 0, 2, 4, …)."""
        return hand % 2

    def status(self, state: LimitPokerState) -> HandStatus:
        return hand_status(self.spec, state.actions, self.first_to_act(state.hand))

    def hand_result(self, actions: str, hand: int, cards: tuple[str, str, str]) -> int:
        """Chips seat 0 won (negative: lost) in a finished hand."""
        status = hand_status(self.spec, actions, self.first_to_act(hand))
        if status.folded is not None:
            loser = status.folded
        else:
            winner = showdown_winner(self.spec, cards[:2], cards[2])
            if winner is None:
                return 0
            loser = 1 - winner
        sign = 1 if loser == 1 else -1
        return sign * status.contributed[loser]

    def net(self, state: LimitPokerState) -> int:
        """Chips seat 0 has won over the finished hands (seat 1 has the opposite)."""
        return sum(settled_hand(self, state.seed, h, actions)[0] for h, actions in enumerate(state.past))

    # -- the contract -------------------------------------------------------------------

    def initial_state(self, *, seed: int, **options: Any) -> LimitPokerState:
        hands = options.pop("hands", self.default_hands)
        if options:
            raise ValueError(f"{self.slug} takes only the option 'hands', got {sorted(options)}")
        if not isinstance(hands, int) or not 1 <= hands <= MAX_HANDS:
            raise ValueError(f"hands must be a whole number from 1 to {MAX_HANDS}, got {hands!r}")
        return LimitPokerState(seed=seed, ply=0, hands=hands, hand=0, actions="", past=())

    def current_player(self, state: LimitPokerState) -> int | None:
        if state.hand >= state.hands:
            return None
        return self.status(state).to_act

    def legal_actions(self, state: LimitPokerState) -> list[str]:
        if self.current_player(state) is None:
            return []
        status = self.status(state)
        can_raise = status.bets < self.spec.max_bets
        if status.facing:
            return ["fold", "call", *(["raise"] if can_raise else [])]
        return ["check", "bet"]

    def apply(self, state: LimitPokerState, action: str) -> LimitPokerState:
        self.require_legal(state, action)
        code = {"fold": FOLD, "check": CALL, "call": CALL, "bet": RAISE, "raise": RAISE}[action]
        actions = state.actions + code
        status = hand_status(self.spec, actions, self.first_to_act(state.hand))
        if status.to_act is not None and status.round > actions.count(ROUND_BREAK):
            actions += ROUND_BREAK
        if status.to_act is None:  # the hand is over: the next one starts
            return LimitPokerState(state.seed, state.ply + 1, state.hands, state.hand + 1, "", (*state.past, actions))
        return LimitPokerState(state.seed, state.ply + 1, state.hands, state.hand, actions, state.past)

    def to_json(self, state: LimitPokerState) -> dict[str, Any]:
        return {
            "seed": state.seed,
            "ply": state.ply,
            "hands": state.hands,
            "hand": state.hand,
            "actions": state.actions,
            "past": list(state.past),
        }

    def from_json(self, data: dict[str, Any]) -> LimitPokerState:
        return LimitPokerState(
            seed=int(data["seed"]),
            ply=int(data["ply"]),
            hands=int(data["hands"]),
            hand=int(data["hand"]),
            actions=str(data["actions"]),
            past=tuple(str(a) for a in data["past"]),
        )

    def action_to_text(self, state: LimitPokerState, action: str) -> str:
        return action

    def action_cells(self, state: LimitPokerState, action: str) -> tuple[str, ...]:
        return (action,)

    def parse_action(self, state: LimitPokerState, text: str) -> str:
        word = re.sub(r"[^a-z]", "", text.strip().lower())
        aliases = {"f": "fold", "c": "call", "k": "check", "b": "bet", "r": "raise", "pass": "check"}
        word = aliases.get(word, word)
        if word not in ("fold", "check", "call", "bet", "raise"):
            raise IllegalAction(f"Could not read {text.strip()!r}; answer fold, check, call, bet or raise.")
        if self.current_player(state) is None:
            return word
        facing = self.status(state).facing
        if not facing:
            # Calling nothing is checking, and the first bet of a round may be called a raise.
            word = {"call": "check", "raise": "bet"}.get(word, word)
            if word == "fold":
                raise IllegalAction("There is no bet to call, so you cannot fold: check or bet.")
        else:
            word = {"bet": "raise"}.get(word, word)
            if word == "check":
                raise IllegalAction("You face a bet, so you cannot check: call, raise or fold.")
        return word

    # -- what each viewer sees ------------------------------------------------------------

    def _cards_seen(self, state: LimitPokerState, hand: int, actions: str, viewer: int | None, reveal: bool):
        """The two private cards of `hand` as `viewer` may see them ('' for a face-down card) and the board."""
        cards = self.deal(state, hand)
        status = hand_status(self.spec, actions, self.first_to_act(hand))
        shown = reveal or status.showdown
        private = tuple(cards[s] if shown or s == viewer else "" for s in (0, 1))
        board = cards[2] if self.spec.rounds > 1 and actions.count(ROUND_BREAK) >= 1 else ""
        return private, board, status

    def _hand_view(self, state: LimitPokerState, hand: int, actions: str, viewer: int | None, reveal: bool):
        private, board, status = self._cards_seen(state, hand, actions, viewer, reveal)
        over = status.to_act is None
        result = self.hand_result(actions, hand, self.deal(state, hand)) if over else None
        view = {
            "number": hand + 1,
            "first": self.first_to_act(hand),
            "cards": list(private),
            "board": board,
            "pot": sum(status.contributed),
            "contributed": list(status.contributed),
            "actions": self.describe_actions(actions, hand),
            "codes": actions,
            "showdown": status.showdown,
            "folded": status.folded,
            "result": result,
            "round": status.round + 1,
            "to_call": abs(status.contributed[0] - status.contributed[1]) if not over else 0,
            "faces": [card_face(c) for c in private],
            "board_face": card_face(board),
        }
        if over:
            view["summary"] = self._hand_summary(view)
        return view

    def table_facts(self) -> dict[str, Any]:
        return {"game": self.slug}

    def seat_at_table(self, hand: dict[str, Any] | None, seat: int) -> dict[str, Any]:
        return {
            "card": hand["cards"][seat] if hand else "",
            "face": hand["faces"][seat] if hand else "",
            "put_in": hand["contributed"][seat] if hand else 0,
            "opens": bool(hand) and hand["first"] == seat,
        }

    # -- text for people and models -------------------------------------------------------

    def describe_actions(self, actions: str, hand: int) -> list[str]:
        """One line per round: 'first bets, second calls'."""
        lines = []
        for number, moves in enumerate(actions.split(ROUND_BREAK)):
            seat = self.first_to_act(hand)
            words, facing = [], False
            for move in moves:
                if move == FOLD:
                    word = "folds"
                elif move == RAISE:
                    word = "raises" if facing else "bets"
                    facing = True
                else:
                    word = "calls" if facing else "checks"
                words.append(f"{self.seat_names[seat]} {word}")
                seat = 1 - seat
            if words or number == 0:
                lines.append(f"round {number + 1}: {', '.join(words) or '(no action yet)'}")
        return lines

    def public_history(self, state: LimitPokerState) -> str:
        lines = [settled_hand(self, state.seed, hand, actions)[1] for hand, actions in enumerate(state.past)]
        if state.hand < state.hands and state.actions:
            view = self._hand_view(state, state.hand, state.actions, None, False)
            lines.append(f"Hand {view['number']} (now): " + "; ".join(view["actions"]))
        return "\n".join(lines)

    def _hand_summary(self, view: dict[str, Any]) -> str:
        text = f"Hand {view['number']}: " + "; ".join(view["actions"])
        if view["board"]:
            text += f"; board {view['board']}"
        result = view["result"]
        if view["showdown"]:
            text += f"; showdown {self.seat_names[0]} {view['cards'][0]}, {self.seat_names[1]} {view['cards'][1]}"
        else:  # cards this viewer may see of a hand without a showdown
            text += "".join(f"; {self.seat_names[s]} held {view['cards'][s]}" for s in (0, 1) if view["cards"][s])
        return text + self.result_text(result)

    def observation_text(self, state: LimitPokerState, player: int) -> str:
        view = self.player_view(state, player)
        me, other = self.seat_names[player], self.seat_names[1 - player]
        lines = [
            f"You are {me}. Match total after {len(state.past)} of {state.hands} hands: you {view['net'][player]:+d}."
        ]
        if view["last"]:
            lines.append("Last hand: " + self._hand_summary(view["last"]))
        hand = view["current"]
        if hand is None:
            lines.append("The match is over.")
            return "\n".join(lines)
        opener = "You open" if hand["first"] == player else f"{other} opens"
        lines.append(f"Hand {hand['number']} of {state.hands}. {opener} every betting round of this hand.")
        lines.append(f"Your card: {hand['cards'][player]}.")
        if self.spec.rounds > 1:
            lines.append(f"Board card: {hand['board'] or '(not dealt yet)'}.")
        lines.append(
            f"Betting round {hand['round']} of {self.spec.rounds}. So far: " + "; ".join(hand["actions"]) + "."
        )
        lines.append(
            f"Pot {hand['pot']} (you put in {hand['contributed'][player]}, {other} {hand['contributed'][1 - player]})."
        )
        if hand["to_call"] and view["to_act"] == player:
            lines.append(f"To call: {hand['to_call']}.")
        return "\n".join(lines)


@lru_cache(maxsize=16384)
def settled_hand(game: LimitPoker, seed: int, hand: int, actions: str) -> tuple[int, str]:
    """A finished hand's result (chips seat 0 won) and its public summary, which its seed, number and actions fix:
    worked out once, not again for each later decision's prompt and view."""
    state = LimitPokerState(seed=seed, ply=0, hands=hand + 1, hand=hand, actions=actions, past=())
    view = game._hand_view(state, hand, actions, None, False)
    return view["result"], game._hand_summary(view)
