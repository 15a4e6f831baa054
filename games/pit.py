"""Pit (GameBench): four traders swap sealed offers of 1–4 matching cards until one corners a commodity.

Each player holds nine cards of four commodities (nine cards of each). Every trading round each seat, in turn,
seals an offer — 1 to 4 cards of one commodity it holds — or passes. When all four have sealed, offers of the
same size are paired in an order drawn from the seed and each pair swaps its cards blind: you learn what you
got only after the trade. The first player holding all nine cards of one commodity corners that market and wins.
Rule choices (one deal, no Bull and Bear, the round cap) are in docs/games.md.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from games.base import Game, IllegalAction, Outcome

PLAYERS = 4
COMMODITIES = ("wheat", "barley", "corn", "oats")
#: Corner values from the published rulebook (Wheat 100, Barley 85, Corn 75, Oats 60).
VALUES = {"wheat": 100, "barley": 85, "corn": 75, "oats": 60}
SET_SIZE = 9
MAX_OFFER = 4
MAX_ROUNDS = 60
SEATS = ("Player 1", "Player 2", "Player 3", "Player 4")

Hand = tuple[int, ...]  # cards held per commodity, in COMMODITIES order
Action = tuple[str, int]  # (commodity, count); ("pass", 0) offers nothing


@dataclass(frozen=True)
class PitState:
    seed: int
    ply: int
    round: int  # trading rounds resolved so far
    hands: tuple[Hand, ...]
    sealed: tuple[Action, ...]  # this round's offers so far, seat order (hidden from the others until it resolves)
    report: tuple[str, ...]  # the trades of the last resolved round: who traded how many cards with whom (public)
    received: tuple[str, ...]  # per seat, what it got in the last round (private to that seat)


def corner(hand: Hand) -> str | None:
    """The commodity `hand` holds all nine of, or None."""
    return next((c for c, n in zip(COMMODITIES, hand, strict=True) if n == SET_SIZE), None)


def hand_text(hand: Hand) -> str:
    return ", ".join(f"{n} {c}" for c, n in zip(COMMODITIES, hand, strict=True) if n) or "nothing"


def resolve_round(state: PitState, order: list[int]) -> PitState:
    """Swap the cards of sealed offers of equal size, pairing seats in `order`; unmatched offers keep their cards."""
    hands = [list(h) for h in state.hands]
    received = ["nothing (no one matched your offer)" if a[1] else "nothing (you passed)" for a in state.sealed]
    report: list[str] = []
    for size in range(1, MAX_OFFER + 1):
        offering = [seat for seat in order if state.sealed[seat][1] == size]
        for a, b in (sorted(pair) for pair in zip(offering[0::2], offering[1::2], strict=False)):
            ca, cb = state.sealed[a][0], state.sealed[b][0]
            ia, ib = COMMODITIES.index(ca), COMMODITIES.index(cb)
            hands[a][ia] -= size
            hands[b][ib] -= size
            hands[a][ib] += size
            hands[b][ia] += size
            received[a] = f"{size} {cb} from {SEATS[b]} for your {size} {ca}"
            received[b] = f"{size} {ca} from {SEATS[a]} for your {size} {cb}"
            report.append(f"{SEATS[a]} and {SEATS[b]} trade {size} card{'s' * (size > 1)}")
    return replace(
        state,
        ply=state.ply + 1,
        round=state.round + 1,
        hands=tuple(tuple(h) for h in hands),
        sealed=(),
        report=tuple(report) or ("No trades: no two offers had the same number of cards.",),
        received=tuple(received),
    )


class Pit(Game[PitState, Action]):
    slug = "pit"
    name = "Pit"
    num_players = PLAYERS
    seat_names = SEATS
    hidden_information = True  # hands, and a round's offers until it resolves
    chance = True  # the deal and the pairing order

    # -- rules --------------------------------------------------------------------------------

    def initial_state(self, *, seed: int, **options: Any) -> PitState:
        bare = PitState(seed, 0, 0, (), (), (), ())
        deck = [i for i in range(len(COMMODITIES)) for _ in range(SET_SIZE)]
        rng = self.rng(bare)
        while True:  # redeal the rare hand that starts cornered
            rng.shuffle(deck)
            hands = tuple(
                tuple(Counter(deck[p * SET_SIZE : (p + 1) * SET_SIZE])[i] for i in range(len(COMMODITIES)))
                for p in range(PLAYERS)
            )
            if not any(corner(h) for h in hands):
                return replace(bare, hands=hands, received=("",) * PLAYERS)

    def current_player(self, state: PitState) -> int | None:
        return None if self._over(state) else len(state.sealed)

    def legal_actions(self, state: PitState) -> list[Action]:
        seat = self.current_player(state)
        if seat is None:
            return []
        hand = state.hands[seat]
        offers = [(c, k) for c, n in zip(COMMODITIES, hand, strict=True) for k in range(1, min(n, MAX_OFFER) + 1)]
        return [("pass", 0), *offers]

    def apply(self, state: PitState, action: Action) -> PitState:
        self.require_legal(state, action)
        sealed = replace(state, ply=state.ply + 1, sealed=(*state.sealed, action))
        if len(sealed.sealed) < PLAYERS:
            return sealed
        order = list(range(PLAYERS))
        self.rng(state).shuffle(order)  # who meets whom when more than two offer the same number
        return resolve_round(replace(sealed, ply=state.ply), order)

    def _over(self, state: PitState) -> Outcome | None:
        for seat, hand in enumerate(state.hands):
            commodity = corner(hand)
            if commodity:
                return Outcome.win(seat, f"{SEATS[seat]} cornered {commodity} ({VALUES[commodity]} points)", PLAYERS)
        if state.round >= MAX_ROUNDS:
            return Outcome.draw(f"no one cornered a market in {MAX_ROUNDS} rounds", PLAYERS)
        return None

    def outcome(self, state: PitState) -> Outcome | None:
        return self._over(state)

    def points(self, state: PitState) -> tuple[int, ...]:
        """GameBench's score: the cornered commodity's value to the player who cornered it, 0 to everyone else."""
        return tuple(VALUES.get(corner(h) or "", 0) for h in state.hands)

    # -- storage and notation -------------------------------------------------------------------

    def to_json(self, state: PitState) -> dict[str, Any]:
        return {
            "seed": state.seed,
            "ply": state.ply,
            "round": state.round,
            "hands": [list(h) for h in state.hands],
            "sealed": [list(a) for a in state.sealed],
            "report": list(state.report),
            "received": list(state.received),
        }

    def from_json(self, data: dict[str, Any]) -> PitState:
        return PitState(
            seed=int(data["seed"]),
            ply=int(data["ply"]),
            round=int(data["round"]),
            hands=tuple(tuple(int(n) for n in h) for h in data["hands"]),
            sealed=tuple((str(c), int(k)) for c, k in data["sealed"]),
            report=tuple(str(line) for line in data["report"]),
            received=tuple(str(line) for line in data["received"]),
        )

    def action_to_text(self, state: PitState, action: Action) -> str:
        return "pass" if action[1] == 0 else f"{action[1]} {action[0]}"

    def parse_action(self, state: PitState, text: str) -> Action:
        words = re.findall(r"[a-z]+|\d+", text.lower())
        if words == ["pass"]:
            return ("pass", 0)
        if len(words) == 2 and words[0].isdigit() and words[1] in COMMODITIES:
            return (words[1], int(words[0]))
        raise IllegalAction(
            f"Could not read {text.strip()[:80]!r}; write 'pass' or a number of cards and a commodity you hold, "
            f"e.g. '2 corn' (commodities: {', '.join(COMMODITIES)}; 1 to {MAX_OFFER} cards)."
        )

    def public_action_text(self, text: str) -> str:
        return "(offer sealed)"  # the others must not read it before the round resolves

    def round_label(self, state: PitState) -> str:
        return f"Round {state.round + 1}"

    # -- views -----------------------------------------------------------------------------------

    def _view(self, state: PitState, viewer: int | None, reveal: bool) -> dict[str, Any]:
        outcome = self._over(state)
        seat = self.current_player(state)
        return {
            "viewer": viewer,
            "round": state.round + 1,
            "max_rounds": MAX_ROUNDS,
            "commodities": [{"name": c, "value": VALUES[c]} for c in COMMODITIES],
            "players": [
                {
                    "seat": s,
                    "name": SEATS[s],
                    "hand": (
                        [{"name": c, "count": n} for c, n in zip(COMMODITIES, state.hands[s], strict=True)]
                        if reveal or s == viewer
                        else []
                    ),
                    "offered": s < len(state.sealed),
                    "offer": (
                        self.action_to_text(state, state.sealed[s])
                        if s < len(state.sealed) and (reveal or s == viewer)
                        else ""
                    ),
                    "received": state.received[s] if reveal or s == viewer else "",
                }
                for s in range(PLAYERS)
            ],
            "to_act": seat,
            "offers": (
                [
                    {"text": self.action_to_text(state, a), "cell": self.action_cells(state, a)[0]}
                    for a in self.legal_actions(state)[1:]
                ]
                if seat == viewer
                else []
            ),
            "report": list(state.report),
            "result": outcome.reason if outcome else "",
        }

    def player_view(self, state: PitState, player: int | None) -> dict[str, Any]:
        return self._view(state, player, reveal=False)

    def full_view(self, state: PitState) -> dict[str, Any]:
        return self._view(state, None, reveal=True)

    def public_history(self, state: PitState) -> str:
        """The trades of the last resolved round (hands stay hidden; only who traded how many cards is public)."""
        return "\n".join([f"Round {state.round}:", *(f"- {line}" for line in state.report)]) if state.report else ""

    def observation_text(self, state: PitState, player: int) -> str:
        lines = [
            f"You are {SEATS[player]}. Trading round {state.round + 1} of at most {MAX_ROUNDS}.",
            f"Your hand: {hand_text(state.hands[player])}.",
        ]
        if state.received[player]:
            lines.append(f"Last round you received: {state.received[player]}.")
        if state.report:
            lines += ["", self.public_history(state)]
        if self.current_player(state) == player:
            lines += ["", "Seal your offer: '<number> <commodity>' (1-4 cards of one commodity you hold) or 'pass'."]
        return "\n".join(lines)

    def rules_text(self) -> str:
        return (
            "Pit (GameBench). Pit is a commodity trading game where players engage in trading to accumulate points "
            "and emerge as the winner. The game involves commodity cards representing various goods, with each card "
            "holding a specific point value. Players shout out their trade offers, attempting to negotiate deals "
            "with others to acquire valuable commodities.\n\n"
            "Details. Four players each hold 9 cards; the deck has 9 cards of each commodity: "
            + ", ".join(f"{c} ({VALUES[c]} points)" for c in COMMODITIES)
            + ". You win by cornering a market: holding all 9 cards of one commodity; you score its points. "
            "Each trading round every player seals one offer: 1 to 4 cards, all of one commodity they hold, or "
            "'pass'. Offers are hidden until all four are in. Then players who offered the same number of cards are "
            "paired (in a random order when three or four offered that number) and each pair swaps those cards: "
            "you give the cards you offered and receive the other player's, without choosing them. Everyone learns "
            "who traded how many cards, never which commodity. Your hand always stays at 9 cards. "
            f"After {MAX_ROUNDS} rounds with no corner the game is a draw.\n"
            "Answer with one offer, e.g. '3 wheat', or 'pass'."
        )

    # -- UI ------------------------------------------------------------------------------------

    def action_cells(self, state: PitState, action: Action) -> tuple[str, ...]:
        return (self.action_to_text(state, action).replace(" ", "-"),)
