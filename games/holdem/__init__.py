"""Heads-up no-limit Texas hold'em as BotzoneBench plays it: a match of 20 hands, 20,000 chips a hand.

Every hand starts with 20,000 chips for each seat and blinds of 50/100 (BotzoneBench resets the
stacks each hand); the match score is the sum of the chips won and lost, and the seat ahead after
the last hand wins (level totals draw). Seat `hand % 2` has the button in hand `hand` (0-based):
it posts the small blind and acts first before the flop. Cards come from the seed alone
(`cards.deal`): seat 0 always gets the first two cards of the hand's deck and seat 1 the next
two, so a seed replayed with the seats swapped gives each player the other's cards and buttons.
Hand strength is pokerkit's (`cards.best_hand`).

Variant "botzone" (option `rules="botzone"`): Botzone's `TexasHoldem2p` judge, so BotzoneBench's logs
replay exactly (`betting.botzone_replay`, `cards.botzone_best_hand`): the button acts first on every
street, raises follow its "twice the largest raise" rule, a player may fold with nothing to call, and
A-2-3-4-5 is no straight. Options `button` (the seat with the button in hand 0) and `deals` (every
hand's cards as Botzone dealt them) let a published log be replayed with its own cards.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from games.base import Game, IllegalAction
from games.holdem.betting import (
    BIG_BLIND,
    CALL,
    FOLD,
    SMALL_BLIND,
    STACK,
    STREETS,
    Action,
    Betting,
    botzone_replay,
    replay,
)
from games.holdem.cards import DECK, best_hand, botzone_best_hand, botzone_hand_label, card_text, deal, hand_label
from games.poker_player_views import PokerMatchViews

#: One hand's cards: (seat 0's hole cards, seat 1's hole cards, the board as far as it is known).
Cards = tuple[tuple[str, str], tuple[str, str], tuple[str, ...]]

DEFAULT_HANDS = 20
MAX_HANDS = 200


@dataclass(frozen=True)
class HoldemState:
    seed: int
    ply: int
    hands: int  # hands in the match
    hand: int  # index of the hand being played; == hands when the match is over
    actions: tuple[Action, ...]  # this hand's actions so far
    past: tuple[tuple[Action, ...], ...]  # the actions of each finished hand
    rules: str = ""  # "" ours, "botzone" Botzone's judge
    button: int = 0  # the seat with the button in hand 0
    deals: tuple[Cards, ...] | None = None  # given cards per hand (instead of the seed's)


def hand_betting(state: HoldemState, hand: int, actions: tuple[Action, ...]) -> Betting:
    """The betting of `hand` after `actions` under the state's rules."""
    button = (state.button + hand) % 2
    return botzone_replay(actions, button) if state.rules == "botzone" else replay(actions, button)


def hand_cards(state: HoldemState, hand: int) -> Cards:
    """The cards of `hand`: the given deal, or the seed's."""
    return state.deals[hand] if state.deals is not None else deal(state.seed, hand)


@lru_cache(maxsize=4096)
def hand_result(seed: int, hand: int, actions: tuple[Action, ...]) -> int:
    """Chips seat 0 won (negative: lost) in a finished hand."""
    betting = replay(actions, hand % 2)
    if betting.folded is not None:
        return betting.committed[1] if betting.folded == 1 else -betting.committed[0]
    mine, yours, board = deal(seed, hand)
    ours, theirs = best_hand((*mine, *board)), best_hand((*yours, *board))
    if ours == theirs:
        return 0
    return betting.committed[0] if ours > theirs else -betting.committed[0]


def result_of(state: HoldemState, hand: int, actions: tuple[Action, ...]) -> int:
    """Chips seat 0 won (negative: lost) in a finished hand of `state`'s match."""
    if not state.rules and state.deals is None and state.button == 0:
        return hand_result(state.seed, hand, actions)
    betting = hand_betting(state, hand, actions)
    if betting.folded is not None:
        return betting.committed[1] if betting.folded == 1 else -betting.committed[0]
    mine, yours, board = hand_cards(state, hand)
    if len(board) < 5:
        raise ValueError(f"hand {hand + 1} reached a showdown without five board cards")
    rank = botzone_best_hand if state.rules == "botzone" else best_hand
    ours, theirs = rank((*mine, *board)), rank((*yours, *board))
    if ours == theirs:
        return 0
    return betting.committed[0] if ours > theirs else -betting.committed[0]


def _deals(value: Any, hands: int) -> tuple[Cards, ...]:
    """Checked `deals`: per hand two hole cards a seat and up to five board cards, all distinct cards."""
    if not isinstance(value, list | tuple) or len(value) != hands:
        raise ValueError(f"deals must list the cards of each of the {hands} hands")
    out = []
    for number, given in enumerate(value, start=1):
        mine, yours, board = given
        cards = [*mine, *yours, *board]
        if len(mine) != 2 or len(yours) != 2 or len(board) > 5 or not set(cards) <= set(DECK):
            raise ValueError(f"hand {number}: two hole cards a seat and at most five board cards, as 'As'")
        if len(set(cards)) != len(cards):
            raise ValueError(f"hand {number}: a card is dealt twice")
        out.append((tuple(mine), tuple(yours), tuple(board)))
    return tuple(out)


def amount(text: str) -> int:
    """A chip count as typed ('1,500', '1_500'); IllegalAction when it has more digits than any stack."""
    digits = text.replace(",", "").replace("_", "").lstrip("0") or "0"
    if len(digits) > len(str(STACK)):
        raise IllegalAction(f"{text[:12]}… is more chips than any stack holds ({STACK:,}).")
    return int(digits)


class Holdem(PokerMatchViews, Game[HoldemState, Action]):
    slug = "holdem"
    name = "Heads-up no-limit hold'em"
    seat_names = ("Player 1", "Player 2")
    hidden_information = True
    chance = True
    has_controls = True
    shared_stylesheet = "poker"  # static/games/poker.css: the table, the cards, the bet controls

    # -- the contract -------------------------------------------------------------------

    variants = {"botzone": {"rules": "botzone"}}

    def initial_state(self, *, seed: int, **options: Any) -> HoldemState:
        hands = options.pop("hands", DEFAULT_HANDS)
        rules, button, deals = options.pop("rules", ""), options.pop("button", 0), options.pop("deals", None)
        if options:
            raise ValueError(f"holdem takes only the options hands, rules, button and deals, got {sorted(options)}")
        if not isinstance(hands, int) or not 1 <= hands <= MAX_HANDS:
            raise ValueError(f"hands must be a whole number from 1 to {MAX_HANDS}, got {hands!r}")
        if rules not in ("", "botzone"):
            raise ValueError(f"rules must be 'botzone' or left out, got {rules!r}")
        if button not in (0, 1):
            raise ValueError(f"button must be seat 0 or 1, got {button!r}")
        deals = None if deals is None else _deals(deals, hands)
        return HoldemState(seed=seed, ply=0, hands=hands, hand=0, actions=(), past=(), rules=rules, button=button,
                           deals=deals)  # fmt: skip

    def betting(self, state: HoldemState) -> Betting:
        return hand_betting(state, state.hand, state.actions)

    def current_player(self, state: HoldemState) -> int | None:
        if state.hand >= state.hands:
            return None
        return self.betting(state).to_act

    def raise_sizes(self, betting: Betting, seat: int) -> list[int]:
        """Representative raise-to amounts: the minimum, half the pot, the pot, all-in (as many as differ)."""
        if not betting.can_raise(seat):
            return []
        high = max(betting.street_bet)
        top = betting.max_raise_to(seat)
        low = min(betting.min_raise_to, top)
        pot_after_call = betting.pot + betting.to_call(seat)
        sizes = {low, top}
        for fraction in (0.5, 1.0):
            size = high + int(pot_after_call * fraction)
            if low < size < top:
                sizes.add(size)
        return sorted(sizes)

    def legal_actions(self, state: HoldemState) -> list[Action]:
        seat = self.current_player(state)
        if seat is None:
            return []
        betting = self.betting(state)
        actions: list[Action] = [FOLD] if betting.to_call(seat) or state.rules == "botzone" else []
        return [*actions, CALL, *(("raise", size) for size in self.raise_sizes(betting, seat))]

    def raise_bounds(self, state: HoldemState) -> tuple[int, int] | None:
        """(lowest, highest) legal raise-to of the player to act, None when they cannot raise."""
        seat = self.current_player(state)
        if seat is None:
            return None
        betting = self.betting(state)
        if not betting.can_raise(seat):
            return None
        top = betting.max_raise_to(seat)
        return min(betting.min_raise_to, top), top

    def _facing_all_in(self, state: HoldemState, seat: int) -> bool:
        return self.betting(state).stack(1 - seat) == 0

    def is_legal(self, state: HoldemState, action: Action) -> bool:
        seat = self.current_player(state)
        if seat is None or not isinstance(action, tuple):
            return False
        if action == FOLD:
            return self.betting(state).to_call(seat) > 0 or state.rules == "botzone"
        if action == CALL:
            return True
        if len(action) == 2 and action[0] == "raise" and type(action[1]) is int:
            bounds = self.raise_bounds(state)
            return bounds is not None and bounds[0] <= action[1] <= bounds[1]
        return False

    def require_legal(self, state: HoldemState, action: Action) -> None:
        if self.current_player(state) is not None and isinstance(action, tuple) and action[:1] == ("raise",):
            self._check_raise(state, action[1] if len(action) == 2 else None)
        if self.current_player(state) is not None and action == FOLD and not self.is_legal(state, action):
            raise IllegalAction("There is nothing to call, so you cannot fold: check instead.")
        super().require_legal(state, action)

    def _check_raise(self, state: HoldemState, to: Any) -> None:
        bounds = self.raise_bounds(state)
        if bounds is None:
            raise IllegalAction("You cannot raise now (the other player is all-in or you have no chips behind).")
        low, high = bounds
        if type(to) is not int or not low <= to <= high:
            raise IllegalAction(f"raise-to must be at least {low:,} and at most your stack of {high:,}.")

    def apply(self, state: HoldemState, action: Action) -> HoldemState:
        self.require_legal(state, action)
        actions = (*state.actions, action)
        if hand_betting(state, state.hand, actions).over:
            return replace(state, ply=state.ply + 1, hand=state.hand + 1, actions=(), past=(*state.past, actions))
        return replace(state, ply=state.ply + 1, actions=actions)

    def hand_result_of(self, state: HoldemState, hand: int) -> int:
        """Chips seat 0 won (negative: lost) in finished hand `hand` (0-based)."""
        return result_of(state, hand, state.past[hand])

    def net(self, state: HoldemState) -> int:
        """Chips seat 0 has won over the finished hands (seat 1 has the opposite)."""
        return sum(result_of(state, hand, actions) for hand, actions in enumerate(state.past))

    def to_json(self, state: HoldemState) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seed": state.seed,
            "ply": state.ply,
            "hands": state.hands,
            "hand": state.hand,
            "actions": [list(a) for a in state.actions],
            "past": [[list(a) for a in hand] for hand in state.past],
        }
        if state.rules:
            data["rules"] = state.rules
        if state.button:
            data["button"] = state.button
        if state.deals is not None:
            data["deals"] = [[list(part) for part in given] for given in state.deals]
        return data

    def from_json(self, data: dict[str, Any]) -> HoldemState:
        deals = data.get("deals")
        return HoldemState(
            seed=int(data["seed"]),
            ply=int(data["ply"]),
            hands=int(data["hands"]),
            hand=int(data["hand"]),
            actions=tuple(tuple(a) for a in data["actions"]),
            past=tuple(tuple(tuple(a) for a in hand) for hand in data["past"]),
            rules=str(data.get("rules", "")),
            button=int(data.get("button", 0)),
            deals=None if deals is None else tuple(tuple(tuple(part) for part in given) for given in deals),
        )

    # -- notation ------------------------------------------------------------------------

    def action_to_text(self, state: HoldemState, action: Action) -> str:
        if action == FOLD:
            return "fold"
        seat = self.current_player(state)
        betting = self.betting(state) if seat is not None else None
        if action == CALL:
            return "call" if betting is not None and betting.to_call(seat) else "check"
        if betting is not None and action[1] == betting.max_raise_to(seat):
            return "all-in"
        return f"raise-to {action[1]}"

    def parse_action(self, state: HoldemState, text: str) -> Action:
        cleaned = text.strip().lower().replace("_", "-")
        cleaned = re.sub(r"\s+", " ", cleaned).strip(" .!`'\"")
        seat = self.current_player(state)
        betting = self.betting(state) if seat is not None else None
        if cleaned in ("fold", "f", "-1"):
            return FOLD
        if cleaned in ("check", "k", "call", "c", "check-call", "check/call", "0"):
            if cleaned in ("check", "k") and betting is not None and betting.to_call(seat):
                owed = betting.to_call(seat)
                raise IllegalAction(f"You cannot check: there is {owed:,} to call. Call, raise or fold.")
            return CALL
        if cleaned in ("all-in", "allin", "all in", "shove", "-2"):
            if betting is None:
                return ("raise", STACK)
            if state.rules == "botzone" and self._facing_all_in(state, seat):
                return CALL  # Botzone's all-in facing an all-in calls it
            self._check_raise(state, betting.max_raise_to(seat))
            return ("raise", betting.max_raise_to(seat))
        if re.fullmatch(r"\d[\d,_]*", cleaned):
            # Botzone's notation: a number N > 0 puts N more chips in now (this round's bet becomes its bet + N).
            more = amount(cleaned)
            if more == 0:
                return CALL
            to = more + (betting.street_bet[seat] if betting is not None else 0)
            if state.rules == "botzone" and betting is not None and more >= betting.stack(seat):
                raise IllegalAction(f"{more:,} is all your chips or more: answer -2 (all-in) to put them all in.")
            if seat is not None:
                self._check_raise(state, to)
            return ("raise", to)
        match = re.fullmatch(r"(?:raise|bet)(?:[ -]?to)?[ :]*(\d[\d,_]*)", cleaned)
        if match:
            to = amount(match[1])
            if seat is not None:
                self._check_raise(state, to)
            return ("raise", to)
        raise IllegalAction(
            f"Could not read {text.strip()!r}; answer fold, check, call, raise-to <amount> (your total bet "
            "in this betting round, e.g. raise-to 300) or all-in."
        )

    # -- views -----------------------------------------------------------------------------

    def _hand_view(self, state: HoldemState, hand: int, actions: tuple, viewer: int | None, reveal: bool):
        betting = hand_betting(state, hand, actions)
        holes = hand_cards(state, hand)
        shown = reveal or betting.showdown
        label = botzone_hand_label if state.rules == "botzone" else hand_label
        board = list(holes[2][: betting.board_shown()])
        cards = [list(holes[s]) if shown or s == viewer else [] for s in (0, 1)]
        view: dict[str, Any] = {
            "number": hand + 1,
            "button": (state.button + hand) % 2,
            "street": STREETS[min(betting.street, 3)] if not betting.over else "over",
            "cards": cards,
            "card_faces": [[card_text(c) for c in seat_cards] for seat_cards in cards],
            "board": board,
            "board_faces": [card_text(c) for c in board],
            "board_slots": [card_text(c) for c in board] + [""] * (5 - len(board)),
            "pot": betting.pot,
            "committed": list(betting.committed),
            "street_bet": list(betting.street_bet),
            "stacks": [betting.stack(0), betting.stack(1)],
            "lines": self.action_lines(actions, hand, state),
            "showdown": betting.showdown,
            "folded": betting.folded,
            "result": result_of(state, hand, actions) if betting.over else None,
            "hands_made": [label((*c, *holes[2])) if c and betting.showdown else "" for c in cards],
        }
        if betting.over:
            view["summary"] = self._summary(view)
        if betting.to_act is not None:
            seat = betting.to_act
            view["to_call"] = betting.to_call(seat)
            view["raise_bounds"] = list(self.raise_bounds(state) or ()) if actions == state.actions else []
        return view

    def chips(self, amount: int) -> str:
        return f"{amount:,}"

    def table_facts(self) -> dict[str, Any]:
        return {"blinds": [SMALL_BLIND, BIG_BLIND], "stack": STACK}

    def seat_at_table(self, hand: dict[str, Any] | None, seat: int) -> dict[str, Any]:
        return {
            "cards": hand["cards"][seat] if hand else [],
            "faces": hand["card_faces"][seat] if hand else [],
            "stack": hand["stacks"][seat] if hand else STACK,
            "street_bet": hand["street_bet"][seat] if hand else 0,
            "committed": hand["committed"][seat] if hand else 0,
            "button": bool(hand) and hand["button"] == seat,
        }

    # -- text for people and models ---------------------------------------------------------

    def action_lines(self, actions: tuple, hand: int, state: HoldemState | None = None) -> list[str]:
        """One line per betting round: 'preflop: Player 1 raises to 300, Player 2 calls'."""
        betting = replay(actions, hand % 2) if state is None else hand_betting(state, hand, actions)
        rounds: dict[int, list[str]] = {}
        bets = {0: BIG_BLIND}
        for street, seat, action, all_in in betting.log:
            high = bets.get(street, 0)
            if action == FOLD:
                word = "folds"
            elif action == CALL:
                word = ("calls" if high else "checks") + (" (all-in)" if all_in else "")
            else:
                verb = "raises to" if high else "bets"
                word = f"{verb} {action[1]:,}" + (" (all-in)" if all_in else "")
                bets[street] = action[1]
            rounds.setdefault(street, []).append(f"{self.seat_names[seat]} {word}")
        return [f"{STREETS[street]}: {', '.join(words)}" for street, words in sorted(rounds.items())]

    def _summary(self, view: dict[str, Any]) -> str:
        button = self.seat_names[view["button"]]
        text = f"Hand {view['number']} (button {button}): " + ("; ".join(view["lines"]) or "no action")
        if view["board"]:
            text += f"; board {' '.join(view['board'])}"
        if view["showdown"]:
            shows = [f"{self.seat_names[s]} {' '.join(view['cards'][s])} ({view['hands_made'][s]})" for s in (0, 1)]
            text += "; showdown " + ", ".join(shows)
        elif view["result"] is not None:  # cards this viewer may see of a hand without a showdown
            held = [f"{self.seat_names[s]} held {' '.join(view['cards'][s])}" for s in (0, 1) if view["cards"][s]]
            text += "".join(f"; {line}" for line in held)
        result = view["result"]
        if result is None:
            return text
        return text + self.result_text(result)

    def public_history(self, state: HoldemState) -> str:
        lines = [self._summary(self._hand_view(state, h, a, None, False)) for h, a in enumerate(state.past)]
        if state.hand < state.hands and state.actions:
            lines.append(self._summary(self._hand_view(state, state.hand, state.actions, None, False)) + " (now)")
        return "\n".join(lines)

    def observation_text(self, state: HoldemState, player: int) -> str:
        view = self.player_view(state, player)
        other = 1 - player
        lines = [f"Match total after {len(state.past)} of {state.hands} hands: you {view['net'][player]:+,} chips."]
        if view["last"]:
            lines.append("Last hand: " + self._summary(view["last"]))
        hand = view["current"]
        if hand is None:
            return "\n".join([*lines, "The match is over."])
        you_button = hand["button"] == player
        lines += [
            f"Hand {hand['number']} of {state.hands}. "
            + ("You have the button (small blind)." if you_button else "You are the big blind."),
            f"Your hole cards: {' '.join(hand['cards'][player])}. Board: {' '.join(hand['board']) or '(none yet)'}.",
            f"Betting round: {hand['street']}. " + ("; ".join(hand["lines"]) or "No action yet") + ".",
            f"Pot {hand['pot']:,}. You have put in {hand['committed'][player]:,} "
            f"({hand['street_bet'][player]:,} this round) and have {hand['stacks'][player]:,} behind; "
            f"the other player has put in {hand['committed'][other]:,} "
            f"({hand['street_bet'][other]:,} this round) and has {hand['stacks'][other]:,} behind.",
        ]
        if state.rules == "botzone":
            lines.append(
                "Botzone's rules: the button acts first in every betting round; a raise must bring your bet this "
                "round to at least twice the largest raise so far and leave chips behind (or go all-in); you may "
                "fold at any time; A-2-3-4-5 is not a straight. A bare number N puts N more chips in."
            )
        if view["to_act"] == player:
            bounds = hand.get("raise_bounds")
            lines.append(
                f"To call: {hand['to_call']:,}."
                + (f" Raise-to from {bounds[0]:,} to {bounds[1]:,} (all-in)." if bounds else " You cannot raise.")
            )
        return "\n".join(lines)

    def rules_text(self) -> str:
        return (
            "Heads-up no-limit Texas hold'em, a match of several hands (20 by default) between Player 1 and "
            f"Player 2. Every hand both players start with {STACK:,} chips; the blinds are {SMALL_BLIND}/{BIG_BLIND}. "
            "The players take turns holding the button: the button posts the small blind and acts first before "
            "the flop; the big blind acts first on the flop, turn and river. Each player gets two private hole "
            "cards; five board cards are turned up: three on the flop, one on the turn, one on the river. "
            "Betting actions: fold (only when facing a bet), check (nothing to call), call, raise-to <amount> "
            "(your total bet in this betting round after raising; at least the current bet plus the size of the "
            "last raise, and at least one big blind more), all-in (raise-to everything you have). "
            "At the showdown the best five-card hand from your two cards and the board wins the pot; equal hands "
            "split it. Cards are written rank then suit: A K Q J T 9 … 2 and c d h s (e.g. As = ace of spades). "
            "The match winner is the player who won more chips over all hands; equal totals are a draw.\n"
            "Answer with one action: fold, check, call, raise-to <amount> (e.g. raise-to 300) or all-in."
        )
