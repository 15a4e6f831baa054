"""Pit (GameBench): four traders swap sealed offers of 1–4 matching cards until one corners a commodity.

Each player holds nine cards of four commodities (nine cards of each). Every trading round each seat, in turn,
seals an offer — 1 to 4 cards of one commodity it holds — or passes. When all four have sealed, offers of the
same size are paired in an order drawn from the seed and each pair swaps its cards blind: you learn what you
got only after the trade. The first player holding all nine cards of one commodity corners that market and wins.
The "gamebench" variant plays Pit as GameBench's code did: two sides of two hands, the Bull and Bear cards,
deals until a side reaches 500 points. Rule choices are in docs/games.md.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from games.base import Game, IllegalAction, Outcome

PLAYERS = 4
#: GameBench's commodities and corner values (games/pit/pit.py: Barley 85, Corn 75, Soyabeans 55, Wheat 100).
COMMODITIES = ("wheat", "barley", "corn", "soybeans")
VALUES = {"wheat": 100, "barley": 85, "corn": 75, "soybeans": 55}
#: The gamebench variant's extra cards, one of each: traded like a commodity, scored at a corner.
BULL, BEAR = "bull", "bear"
SET_SIZE = 9
MAX_OFFER = 4
MAX_ROUNDS = 60  # per deal
#: The gamebench variant: a side wins at TARGET points (GameBench's winning_score); at most MAX_DEALS deals.
TARGET = 500
MAX_DEALS = 10
BEAR_PENALTY = 20
#: GameBench's code corners at six cards ("max_possible = 6  # actual value: 9"), five with the Bull.
GAMEBENCH_CORNER = 6
SEATS = ("Player 1", "Player 2", "Player 3", "Player 4")
SIDES = ("Players 1 and 2", "Players 3 and 4")

Hand = tuple[int, ...]  # cards held per kind, in `kinds(state)` order
Action = tuple[str, int]  # (commodity, count); ("pass", 0) offers nothing


@dataclass(frozen=True)
class PitState:
    seed: int
    ply: int
    round: int  # trading rounds resolved so far in this deal
    hands: tuple[Hand, ...]
    sealed: tuple[Action, ...]  # this round's offers so far, seat order (hidden from the others until it resolves)
    report: tuple[str, ...]  # the trades of the last resolved round: who traded how many cards with whom (public)
    received: tuple[str, ...]  # per seat, what it got in the last round (private to that seat)
    gamebench: bool = False  # the gamebench variant (two sides, Bull and Bear, deals to TARGET)
    deal: int = 1
    totals: tuple[int, ...] = (0, 0, 0, 0)  # points per seat over the deals (the gamebench variant)


def kinds(gamebench: bool) -> tuple[str, ...]:
    """The card kinds a hand counts: the commodities, then Bull and Bear in the gamebench variant."""
    return (*COMMODITIES, BULL, BEAR) if gamebench else COMMODITIES


def corner(hand: Hand, gamebench: bool = False) -> str | None:
    """The commodity `hand` corners, or None: all nine of it; in the gamebench variant GAMEBENCH_CORNER cards of
    it, or one fewer and the Bull (a bull corner)."""
    if not gamebench:
        return next((c for c, n in zip(COMMODITIES, hand, strict=True) if n == SET_SIZE), None)
    bull = hand[len(COMMODITIES)]
    need = GAMEBENCH_CORNER - 1 if bull else GAMEBENCH_CORNER
    return next((c for c, n in zip(COMMODITIES, hand, strict=False) if n >= need), None)


def corner_points(hand: Hand) -> int:
    """A gamebench-variant corner's points (GameBench's scoring): the commodity's value, doubled with the Bull
    and GAMEBENCH_CORNER cards of it (a double bull corner), less BEAR_PENALTY if the hand holds the Bear."""
    commodity = corner(hand, gamebench=True)
    if commodity is None:
        return 0
    bull, bear = hand[len(COMMODITIES) :]
    double = bull and hand[COMMODITIES.index(commodity)] >= GAMEBENCH_CORNER
    return VALUES[commodity] * (2 if double else 1) - BEAR_PENALTY * bear


def hand_text(hand: Hand, gamebench: bool) -> str:
    return ", ".join(f"{n} {c}" for c, n in zip(kinds(gamebench), hand, strict=True) if n) or "nothing"


def deal_hands(rng, gamebench: bool) -> tuple[Hand, ...]:
    """A shuffled deal with no corner in it (the rare cornered deal is dealt again): nine cards each, or in the
    gamebench variant round robin from Player 1 with the Bull and Bear (10, 10, 9 and 9 cards, as GameBench)."""
    names = kinds(gamebench)
    deck = [i for i in range(len(COMMODITIES)) for _ in range(SET_SIZE)] + list(range(len(COMMODITIES), len(names)))
    while True:
        rng.shuffle(deck)
        parts = [deck[p::PLAYERS] if gamebench else deck[p * SET_SIZE : (p + 1) * SET_SIZE] for p in range(PLAYERS)]
        hands = tuple(tuple(Counter(part)[i] for i in range(len(names))) for part in parts)
        if not any(corner(h, gamebench) for h in hands):
            return hands


def resolve_round(state: PitState, order: list[int]) -> PitState:
    """Swap the cards of sealed offers of equal size, pairing seats in `order`; unmatched offers keep their cards."""
    names = kinds(state.gamebench)
    hands = [list(h) for h in state.hands]
    received = ["nothing (no one matched your offer)" if a[1] else "nothing (you passed)" for a in state.sealed]
    report: list[str] = []
    for size in range(1, MAX_OFFER + 1):
        offering = [seat for seat in order if state.sealed[seat][1] == size]
        for a, b in (sorted(pair) for pair in zip(offering[0::2], offering[1::2], strict=False)):
            ca, cb = state.sealed[a][0], state.sealed[b][0]
            ia, ib = names.index(ca), names.index(cb)
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


def side_totals(state: PitState) -> tuple[int, int]:
    """The gamebench variant's two sides' points: Players 1 and 2, Players 3 and 4."""
    return (state.totals[0] + state.totals[1], state.totals[2] + state.totals[3])


def score_deal(state: PitState, rng) -> PitState:
    """The gamebench variant after a round: every cornering hand scores (`corner_points`); a deal that saw a
    corner or ran MAX_ROUNDS rounds is dealt again unless the match is over (a side at TARGET, or MAX_DEALS)."""
    points = [corner_points(h) for h in state.hands]
    cornered = [corner(h, gamebench=True) for h in state.hands]
    scored = replace(state, totals=tuple(t + p for t, p in zip(state.totals, points, strict=True)))
    lines = [f"{SEATS[s]} cornered {c}: {points[s]} points" for s, c in enumerate(cornered) if c]
    deal_over = bool(lines) or state.round >= MAX_ROUNDS
    if not deal_over:
        return scored
    lines.append(f"Deal {state.deal} ends.")
    scored = replace(scored, report=(*state.report, *lines))
    if max(side_totals(scored)) >= TARGET or state.deal >= MAX_DEALS:
        return scored
    return replace(scored, deal=state.deal + 1, round=0, hands=deal_hands(rng, gamebench=True))


class Pit(Game[PitState, Action]):
    slug = "pit"
    name = "Pit"
    num_players = PLAYERS
    seat_names = SEATS
    hidden_information = True  # hands, and a round's offers until it resolves
    chance = True  # the deal and the pairing order
    variants = {"gamebench": {"gamebench": True}}

    # -- rules --------------------------------------------------------------------------------

    def initial_state(self, *, seed: int, **options: Any) -> PitState:
        gamebench = options.pop("gamebench", False)
        if options or not isinstance(gamebench, bool):
            raise ValueError(f"Pit takes only the option gamebench (true/false), not {options or gamebench!r}.")
        bare = PitState(seed, 0, 0, (), (), (), ("",) * PLAYERS, gamebench)
        return replace(bare, hands=deal_hands(self.rng(bare), gamebench))

    def current_player(self, state: PitState) -> int | None:
        return None if self._over(state) else len(state.sealed)

    def legal_actions(self, state: PitState) -> list[Action]:
        seat = self.current_player(state)
        if seat is None:
            return []
        hand = state.hands[seat]
        names = kinds(state.gamebench)
        offers = [(c, k) for c, n in zip(names, hand, strict=True) for k in range(1, min(n, MAX_OFFER) + 1)]
        return [("pass", 0), *offers]

    def apply(self, state: PitState, action: Action) -> PitState:
        self.require_legal(state, action)
        sealed = replace(state, ply=state.ply + 1, sealed=(*state.sealed, action))
        if len(sealed.sealed) < PLAYERS:
            return sealed
        order = list(range(PLAYERS))
        rng = self.rng(state)
        rng.shuffle(order)  # who meets whom when more than two offer the same number
        traded = resolve_round(replace(sealed, ply=state.ply), order)
        return score_deal(traded, rng) if state.gamebench else traded

    def team_of(self, state: PitState, seat: int) -> int:
        """Every trader for themselves; in the gamebench variant Players 1–2 and 3–4 are two sides, as GameBench
        gave each of its two agents two hands."""
        return seat // 2 if state.gamebench else seat

    def _over(self, state: PitState) -> Outcome | None:
        if state.gamebench:
            return self._gamebench_over(state)
        cornered = {seat: corner(hand) for seat, hand in enumerate(state.hands) if corner(hand)}
        if cornered:  # two at once when a pair swaps complementary hands (5 + 4 for 4 + 5): they share the win
            why = " and ".join(f"{SEATS[s]} cornered {c} ({VALUES[c]} points)" for s, c in cornered.items())
            return Outcome(tuple(1.0 / len(cornered) if s in cornered else 0.0 for s in range(PLAYERS)), why)
        if state.round >= MAX_ROUNDS:
            return Outcome.draw(f"no one cornered a market in {MAX_ROUNDS} rounds", PLAYERS)
        return None

    def _gamebench_over(self, state: PitState) -> Outcome | None:
        """Each side scores its share of the points (GameBench's normalisation), once a side reaches TARGET or
        the last deal ends."""
        sides = side_totals(state)
        last_deal_over = state.deal >= MAX_DEALS and (
            state.round >= MAX_ROUNDS or any(corner(h, gamebench=True) for h in state.hands)
        )
        if max(sides) < TARGET and not last_deal_over:
            return None
        counted = [max(points, 0) for points in sides]
        shares = [c / sum(counted) for c in counted] if sum(counted) else [0.5, 0.5]
        why = f"{SIDES[0]} {sides[0]} points, {SIDES[1]} {sides[1]}" + (
            "" if max(sides) >= TARGET else " after the last deal"
        )
        return Outcome(tuple(shares[seat // 2] for seat in range(PLAYERS)), why)

    def outcome(self, state: PitState) -> Outcome | None:
        return self._over(state)

    def ladder_scores(self, state: PitState) -> tuple[float, ...]:
        """The outcome's scores; in the gamebench variant the side with the larger share wins a ladder game (1 and
        0, equal shares ½ each), as its two sides' points decide who did better."""
        scores = self.outcome(state).scores  # type: ignore[union-attr]
        if not state.gamebench:
            return scores
        return tuple(1.0 if s > 0.5 else 0.0 if s < 0.5 else 0.5 for s in scores)

    def points(self, state: PitState) -> tuple[int, ...]:
        """GameBench's score: the cornered commodity's value to the player who cornered it, 0 to everyone else;
        in the gamebench variant each seat's points over the deals."""
        if state.gamebench:
            return state.totals
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
            "gamebench": state.gamebench,
            "deal": state.deal,
            "totals": list(state.totals),
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
            gamebench=bool(data.get("gamebench", False)),
            deal=int(data.get("deal", 1)),
            totals=tuple(int(t) for t in data.get("totals", (0,) * PLAYERS)),
        )

    def action_to_text(self, state: PitState, action: Action) -> str:
        return "pass" if action[1] == 0 else f"{action[1]} {action[0]}"

    def parse_action(self, state: PitState, text: str) -> Action:
        words = re.findall(r"[a-z]+|\d+", text.lower())
        names = kinds(state.gamebench)
        if words == ["pass"]:
            return ("pass", 0)
        if len(words) == 2 and words[0].isdigit() and words[1] in names:
            return (words[1], int(words[0]))
        raise IllegalAction(
            f"Could not read {text.strip()[:80]!r}; write 'pass' or a number of cards and a kind you hold, "
            f"e.g. '2 corn' ({', '.join(names)}; 1 to {MAX_OFFER} cards)."
        )

    def public_action_text(self, text: str) -> str:
        return "(offer sealed)"  # the others must not read it before the round resolves

    def round_label(self, state: PitState) -> str:
        return f"Deal {state.deal}, round {state.round + 1}" if state.gamebench else f"Round {state.round + 1}"

    # -- views -----------------------------------------------------------------------------------

    def _view(self, state: PitState, viewer: int | None, reveal: bool) -> dict[str, Any]:
        outcome = self._over(state)
        seat = self.current_player(state)
        return {
            "viewer": viewer,
            "round": state.round + 1,
            "max_rounds": MAX_ROUNDS,
            "deal": state.deal if state.gamebench else None,
            "max_deals": MAX_DEALS,
            "target": TARGET,
            "commodities": [{"name": c, "value": VALUES.get(c)} for c in kinds(state.gamebench)],
            "players": [
                {
                    "seat": s,
                    "name": SEATS[s],
                    "hand": (
                        [{"name": c, "count": n} for c, n in zip(kinds(state.gamebench), state.hands[s], strict=True)]
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
                    "points": state.totals[s] if state.gamebench else None,
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
        lines = [f"You are {SEATS[player]}. Trading round {state.round + 1} of at most {MAX_ROUNDS}."]
        if state.gamebench:
            mine, theirs = SIDES[player // 2], SIDES[1 - player // 2]
            points = ", ".join(f"{SEATS[s]} {t}" for s, t in enumerate(state.totals))
            lines += [
                f"Deal {state.deal} of at most {MAX_DEALS}. You play for {mine} against {theirs}; "
                f"the first side to {TARGET} points wins. Points: {points}."
            ]
        lines.append(f"Your hand: {hand_text(state.hands[player], state.gamebench)}.")
        if state.received[player]:
            lines.append(f"Last round you received: {state.received[player]}.")
        if state.report:
            lines += ["", self.public_history(state)]
        if self.current_player(state) == player:
            lines += ["", "Seal your offer: '<number> <commodity>' (1-4 cards of one kind you hold) or 'pass'."]
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
            "The gamebench variant (as GameBench's code): Players 1 and 2 play one side, Players 3 and 4 the "
            "other. The deck adds a Bull and a Bear card (hands of 10, 10, 9 and 9), traded like a commodity "
            f"('1 bull'). {GAMEBENCH_CORNER} cards of a commodity corner it, or {GAMEBENCH_CORNER - 1} and the Bull; "
            f"{GAMEBENCH_CORNER} and the Bull score double; a cornering hand holding the Bear loses {BEAR_PENALTY} "
            "points. Every corner scores, then the "
            f"cards are dealt again (also after {MAX_ROUNDS} rounds with no corner). The first side to {TARGET} "
            f"points ends the game (at most {MAX_DEALS} deals); each side scores its share of all points.\n"
            "Answer with one offer, e.g. '3 wheat', or 'pass'."
        )

    # -- UI ------------------------------------------------------------------------------------

    def action_cells(self, state: PitState, action: Action) -> tuple[str, ...]:
        return (self.action_to_text(state, action).replace(" ", "-"),)
