"""Fight the Landlord (Dou Dizhu) for three players, with Botzone's combinations (games.fight_the_landlord.combos).

The seed deals 17 cards to each seat and 3 bottom cards. The standard rules are Botzone's FightTheLandlord
as BotzoneBench played it: no bidding, seat 1 (P1) is the landlord and holds the bottom cards (shown to
all) from the start, so the sides are known at the deal and duplicate seatings rotate roles exactly.
The "bidding" variant adds the usual auction: the seats bid once each, P1 first, "no bid" or 1–3 above
the highest bid so far (a 3 ends it); the highest bidder becomes the landlord and takes the bottom
cards; if nobody bids, P1 is the landlord at 1 point (no redeal: a redeal would need a second deal).
Play goes round from the landlord: lead any combination, then each seat passes or beats the last play;
after two passes in a row the last player leads again (a lead cannot be passed). The first seat out of
cards wins for its side: the landlord alone, or both peasants. Stake = bid (1 without bidding) × 2 per
bomb or rocket played × 2 for a spring (the landlord wins and the peasants never played a card, or the
peasants win and the landlord played only its first lead); the outcome is win or loss per side, the
stake is told in the reason. Variant "botzone" (option `scoring="botzone"`) keeps the rules and scores
a deal as Botzone's judge does (`botzone_points`): 2 to each seat of the winning side, plus 1/100 point per
card-kind value of every play a seat made (`KIND_POINTS`), no doubling; the peasants share their mean.
BotzoneBench counts wins and losses only, and so do the outcomes' scores in both variants.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from games.base import Game, IllegalAction, Outcome
from games.fight_the_landlord.combos import (
    Combo,
    Play,
    answers,
    card_text,
    classify,
    parse_ranks,
    play_text,
    rank_of,
)

NAMES = ("P1", "P2", "P3")
NO_BID = ("bid", 0)
#: Botzone's judge: points per play of each kind (a pass scores 0), a hundredth of a point each.
KIND_POINTS = {
    "single": 1,
    "pair": 2,
    "triple": 4,
    "triple_with_single": 4,
    "triple_with_pair": 4,
    "straight": 6,
    "pair_straight": 6,
    "airplane": 8,
    "airplane_with_single": 8,
    "airplane_with_pair": 8,
    "four_with_single": 8,
    "four_with_pair": 8,
    "bomb": 10,
    "space_shuttle": 10,
    "space_shuttle_with_single": 10,
    "space_shuttle_with_pair": 10,
    "rocket": 16,
}
Action = tuple  # ("bid", 0..3) or ("play", ranks); ("play", ()) passes


@dataclass(frozen=True)
class LandlordState:
    seed: int
    ply: int
    bidding: bool  # False: Botzone's fixed landlord (seat 0); True: the bidding variant
    hands: tuple[tuple[int, ...], ...]  # card ids each seat holds
    bottom: tuple[int, ...]  # the three bottom cards
    bids: tuple[int, ...]  # bids so far, seat 0 first (0: no bid)
    landlord: int  # -1 while bidding
    plays: tuple[tuple[int, tuple[int, ...]], ...]  # (seat, card ids played), () for a pass
    scoring: str = ""  # "" our stake, "botzone" Botzone's points


def deal(seed: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The seed's deal: three hands of 17 cards and the 3 bottom cards."""
    deck = list(range(54))
    random.Random(f"fight-the-landlord/{seed}").shuffle(deck)
    return tuple(tuple(sorted(deck[17 * s : 17 * s + 17])) for s in range(3)), tuple(sorted(deck[51:]))


def _given_cards(given: Any) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Option `cards` = {"hands": three lists of 17 card ids, "bottom": 3 ids}: a deal given (Botzone's)."""
    hands, bottom = given["hands"], given["bottom"]
    cards = [*bottom, *(c for hand in hands for c in hand)]
    if len(hands) != 3 or any(len(h) != 17 for h in hands) or len(bottom) != 3 or sorted(cards) != list(range(54)):
        raise ValueError("cards must give three hands of 17 and 3 bottom cards, every card 0–53 once")
    return tuple(tuple(sorted(h)) for h in hands), tuple(sorted(bottom))


def take(hand: tuple[int, ...], ranks: Play) -> tuple[int, ...] | None:
    """The cards of `hand` that make `ranks` (lowest suit first), None when the hand lacks them."""
    pool, chosen = list(hand), []
    for rank in ranks:
        card = next((c for c in pool if rank_of(c) == rank), None)
        if card is None:
            return None
        pool.remove(card)
        chosen.append(card)
    return tuple(chosen)


class FightTheLandlord(Game[LandlordState, Action]):
    slug = "fight-the-landlord"
    name = "Fight the Landlord"
    num_players = 3
    seat_names = NAMES
    hidden_information = True
    chance = True
    has_controls = True
    variants = {"bidding": {"bidding": True}, "botzone": {"scoring": "botzone"}}

    # -- the contract -------------------------------------------------------------------

    def initial_state(self, *, seed: int, **options: Any) -> LandlordState:
        bidding, scoring = options.pop("bidding", False), options.pop("scoring", "")
        given = options.pop("cards", None)
        if options or not isinstance(bidding, bool) or scoring not in ("", "botzone"):
            raise ValueError(
                f"Fight the Landlord takes only the options bidding (true/false) and scoring (botzone), not {options}."
            )
        if bidding and scoring:
            raise ValueError("Botzone's scoring has no bidding.")
        hands, bottom = deal(seed) if given is None else _given_cards(given)
        if not bidding:
            hands = (tuple(sorted(hands[0] + bottom)), *hands[1:])
        return LandlordState(seed, 0, bidding, hands, bottom, (), -1 if bidding else 0, (), scoring)

    def current_player(self, state: LandlordState) -> int | None:
        if state.landlord < 0:
            return len(state.bids)
        if any(not hand for hand in state.hands):
            return None
        return (state.landlord + len(state.plays)) % 3

    def target(self, state: LandlordState) -> tuple[int, Combo] | None:
        """The play to beat and who made it; None when the seat to act leads."""
        for passes, (seat, cards) in enumerate(reversed(state.plays)):
            if cards:
                return (seat, classify(tuple(sorted(map(rank_of, cards))))) if passes < 2 else None  # type: ignore[return-value]
        return None

    def legal_actions(self, state: LandlordState) -> list[Action]:
        seat = self.current_player(state)
        if seat is None:
            return []
        if state.landlord < 0:
            high = max(state.bids, default=0)
            return [NO_BID, *(("bid", b) for b in range(high + 1, 4))]
        target = self.target(state)
        plays = answers([rank_of(c) for c in state.hands[seat]], target[1] if target else None)
        return ([("play", ())] if target else []) + [("play", p) for p in plays]

    def apply(self, state: LandlordState, action: Action) -> LandlordState:
        self.require_legal(state, action)
        return self.advance(state, action)

    def advance(self, state: LandlordState, action: Action) -> LandlordState:
        """`apply` without the legality check: for simulations that only make legal moves."""
        seat = self.current_player(state)
        if action[0] == "bid":
            bids = (*state.bids, action[1])
            if action[1] < 3 and len(bids) < 3:
                return replace(state, ply=state.ply + 1, bids=bids)
            landlord = bids.index(max(bids))  # nobody bid: seat 0 (index of the first 0)
            hands = tuple(tuple(sorted(h + state.bottom)) if s == landlord else h for s, h in enumerate(state.hands))
            return replace(state, ply=state.ply + 1, hands=hands, bids=bids, landlord=landlord)
        cards = take(state.hands[seat], action[1]) or ()
        hands = tuple(tuple(c for c in h if c not in cards) if s == seat else h for s, h in enumerate(state.hands))
        return replace(state, ply=state.ply + 1, hands=hands, plays=(*state.plays, (seat, cards)))

    def stake(self, state: LandlordState) -> tuple[int, list[str]]:
        """The points at stake so far and how they were reached ('bid 2', '× 2 bomb', …)."""
        bid = max(max(state.bids, default=0), 1)
        points, parts = bid, [f"bid {bid}" if state.bidding else "base 1"]
        for _, cards in state.plays:
            kind = classify(tuple(sorted(map(rank_of, cards)))) if cards else None
            if kind and kind.kind in ("bomb", "rocket"):
                points *= 2
                parts.append(f"× 2 {kind.kind}")
        if self.current_player(state) is None and self._spring(state):
            points *= 2
            parts.append("× 2 spring")
        return points, parts

    def kind_points(self, state: LandlordState) -> list[int]:
        """Botzone's card-kind points each seat has earned so far (`KIND_POINTS` per play)."""
        points = [0, 0, 0]
        for seat, cards in state.plays:
            if cards:
                points[seat] += KIND_POINTS[classify(tuple(sorted(map(rank_of, cards)))).kind]  # type: ignore[union-attr]
        return points

    def botzone_points(self, state: LandlordState) -> tuple[float, float, float] | None:
        """Botzone's score of a finished deal: 2 to each winner, plus kind points / 100; peasants share their mean."""
        if self.current_player(state) is not None:
            return None
        winner = next(s for s, h in enumerate(state.hands) if not h)
        landlord_won = winner == state.landlord
        score = [float(2 if (s == state.landlord) == landlord_won else 0) for s in range(3)]
        for seat, points in enumerate(self.kind_points(state)):
            score[seat] += points / 100  # in Botzone's order of operations, so the floats agree
        peasants = [s for s in range(3) if s != state.landlord]
        score[peasants[0]] = score[peasants[1]] = (score[peasants[0]] + score[peasants[1]]) / 2
        return score[0], score[1], score[2]

    def _points_text(self, state: LandlordState) -> str:
        kinds = self.kind_points(state)
        parts = ", ".join(f"{NAMES[s]} {kinds[s]}" for s in range(3))
        done = self.botzone_points(state)
        head = f"Botzone points {' / '.join(f'{p:g}' for p in done)} " if done else "Botzone points "
        return head + f"(2 to each winner + card-kind points / 100: {parts}; the peasants share their mean)"

    def _spring(self, state: LandlordState) -> bool:
        landlord_plays = sum(1 for s, c in state.plays if c and s == state.landlord)
        peasant_plays = sum(1 for s, c in state.plays if c and s != state.landlord)
        return peasant_plays == 0 if not state.hands[state.landlord] else landlord_plays == 1

    def outcome(self, state: LandlordState) -> Outcome | None:
        if self.current_player(state) is not None:
            return None
        winner = next(s for s, h in enumerate(state.hands) if not h)
        landlord_won = winner == state.landlord
        points, parts = self.stake(state)
        scores = tuple(1.0 if (s == state.landlord) == landlord_won else 0.0 for s in range(3))
        side = "the landlord wins" if landlord_won else "the peasants win"
        role = "landlord" if landlord_won else "peasant"
        if state.scoring == "botzone":
            return Outcome(scores, f"{NAMES[winner]} ({role}) played out first: {side}; {self._points_text(state)}.")
        return Outcome(
            scores, f"{NAMES[winner]} ({role}) played out first: {side}, {points} points ({' '.join(parts)})."
        )

    def team_of(self, state: LandlordState, seat: int) -> int:
        """0 for the landlord, 1 for the peasants; during a bidding P1 (the first bidder) stands for the landlord."""
        return 0 if seat == max(state.landlord, 0) else 1

    # -- record and notation -------------------------------------------------------------

    def to_json(self, state: LandlordState) -> dict[str, Any]:
        return {
            "seed": state.seed,
            "ply": state.ply,
            "bidding": state.bidding,
            "hands": [list(h) for h in state.hands],
            "bottom": list(state.bottom),
            "bids": list(state.bids),
            "landlord": state.landlord,
            "plays": [[s, list(c)] for s, c in state.plays],
        } | ({"scoring": state.scoring} if state.scoring else {})

    def from_json(self, data: dict[str, Any]) -> LandlordState:
        return LandlordState(
            seed=int(data["seed"]),
            ply=int(data["ply"]),
            bidding=bool(data["bidding"]),
            hands=tuple(tuple(h) for h in data["hands"]),
            bottom=tuple(data["bottom"]),
            bids=tuple(data["bids"]),
            landlord=int(data["landlord"]),
            plays=tuple((int(s), tuple(c)) for s, c in data["plays"]),
            scoring=str(data.get("scoring", "")),
        )

    def round_label(self, state: LandlordState) -> str:
        return "Bidding" if state.landlord < 0 else "Play"

    def action_to_text(self, state: LandlordState, action: Action) -> str:
        if action[0] == "bid":
            return f"bid {action[1]}" if action[1] else "no bid"
        return play_text(action[1])

    def parse_action(self, state: LandlordState, text: str) -> Action:
        words = text.strip().lower()
        if words in ("no bid", "bid 0", "pass") and state.landlord < 0:
            return NO_BID
        if words.startswith("bid ") and words[4:].strip() in ("1", "2", "3"):
            return ("bid", int(words[4:]))
        if words in ("pass", "[]", ""):
            return ("play", ())
        try:
            ranks = parse_ranks(text)
        except ValueError as error:
            raise IllegalAction(
                f"{text[:40]!r}: {error}. Write the cards to play as ranks ('3 3 4 4 5 5', '10 J Q K A', 'BJ RJ'), "
                "'pass', or while bidding 'bid 1'–'bid 3' / 'no bid'."
            ) from None
        if len(ranks) > 20:
            raise IllegalAction(f"{len(ranks)} cards: nobody holds more than 20.")
        if classify(ranks) is None:
            raise IllegalAction(f"{play_text(ranks)} is not a combination (see the rules for the kinds).")
        return ("play", ranks)

    def action_cells(self, state: LandlordState, action: Action) -> tuple[str, ...]:
        return (self.action_to_text(state, action),)

    # -- what each viewer sees ---------------------------------------------------------------

    def player_view(self, state: LandlordState, player: int | None) -> dict[str, Any]:
        return self._view(state, player, reveal=False)

    def full_view(self, state: LandlordState) -> dict[str, Any]:
        return self._view(state, None, reveal=True)

    def _view(self, state: LandlordState, viewer: int | None, reveal: bool) -> dict[str, Any]:
        # No seed: it determines every hand.
        to_move = self.current_player(state)
        target = self.target(state)
        seats = []
        for seat, hand in enumerate(state.hands):
            shown = reveal or seat == viewer
            seats.append(
                {
                    "name": NAMES[seat],
                    "role": "" if state.landlord < 0 else ("landlord" if seat == state.landlord else "peasant"),
                    "count": len(hand),
                    "cards": [{"text": card_text(c), "rank": play_text((rank_of(c),))} for c in hand] if shown else [],
                    "text": " ".join(card_text(c) for c in hand) if shown else "",
                    "you": seat == viewer,
                    "to_act": seat == to_move,
                    "bid": ("no bid" if state.bids[seat] == 0 else f"bid {state.bids[seat]}")
                    if seat < len(state.bids)
                    else "",
                }
            )
        bottom_public = state.landlord >= 0
        points, parts = self.stake(state)
        result = self.outcome(state)
        return {
            "phase": "bidding" if state.landlord < 0 else ("over" if to_move is None else "play"),
            "variant": "bidding" if state.bidding else "botzone" if state.scoring else "standard",
            "landlord": state.landlord,
            "seats": seats,
            "you": viewer,
            "bottom": [card_text(c) for c in state.bottom] if bottom_public or reveal else [],
            "to_beat": {"seat": NAMES[target[0]], "text": self._last_cards(state)} if target else None,
            "history": [
                {"seat": NAMES[s], "text": " ".join(card_text(c) for c in cards) if cards else "pass"}
                for s, cards in state.plays
            ],
            "stake": points,
            "stake_parts": " ".join(parts),
            "points_text": self._points_text(state) if state.scoring == "botzone" else "",
            "result": result.reason if result else "",
            "legal": [self.action_to_text(state, a) for a in self.legal_actions(state)] if to_move == viewer else [],
        }

    def _last_cards(self, state: LandlordState) -> str:
        cards = next(c for _, c in reversed(state.plays) if c)
        return " ".join(card_text(c) for c in cards)

    # -- text for people and models ---------------------------------------------------------

    def public_history(self, state: LandlordState) -> str:
        lines = [f"{NAMES[s]}: {'no bid' if b == 0 else f'bid {b}'}" for s, b in enumerate(state.bids)]
        lines += [f"{NAMES[s]}: {play_text(tuple(sorted(map(rank_of, c))))}" for s, c in state.plays]
        return "\n".join(lines)

    def unseen_counts(self, state: LandlordState, player: int) -> dict[str, int]:
        """Cards of each rank that `player` has not seen (in the others' hands), for card counting."""
        counts = {play_text((r,)): (4 if r < 13 else 1) for r in range(15)}
        seen = {*state.hands[player], *(c for _, cards in state.plays for c in cards)}
        if state.landlord >= 0:
            seen |= set(state.bottom)  # shown to everyone
        for card in seen:
            counts[play_text((rank_of(card),))] -= 1
        return {rank: n for rank, n in counts.items() if n}

    def observation_text(self, state: LandlordState, player: int) -> str:
        view = self.player_view(state, player)
        me = view["seats"][player]
        lines = [f"You are {NAMES[player]}" + (f", the {me['role']}." if me["role"] else " (bidding for landlord).")]
        if state.landlord >= 0:
            partner = [NAMES[s] for s in range(3) if s not in (player, state.landlord)]
            lines.append(
                f"Landlord: {NAMES[state.landlord]}. Bottom cards: {' '.join(view['bottom'])}."
                + (f" Your partner is {partner[0]}." if player != state.landlord else "")
            )
        lines.append(f"Your hand ({me['count']} cards): {me['text']}")
        lines.append("Cards left: " + ", ".join(f"{s['name']} {s['count']}" for s in view["seats"]))
        unseen = self.unseen_counts(state, player)
        lines.append("Cards remaining unknown (card counting): " + ", ".join(f"{r}×{n}" for r, n in unseen.items()))
        if view["phase"] == "over":
            lines.append(view["result"])
        elif view["to_beat"]:
            lines.append(f"To beat: {view['to_beat']['text']} by {view['to_beat']['seat']}.")
        elif state.landlord >= 0:
            lines.append("You lead: play any combination (you cannot pass).")
        if state.scoring == "botzone":
            lines.append(f"{self._points_text(state)}.")
        else:
            lines.append(f"Points at stake: {view['stake']} ({view['stake_parts']}).")
        return "\n".join(lines)

    def rules_text(self) -> str:
        return (
            "Fight the Landlord (Dou Dizhu) for three players P1, P2, P3 with a 54-card deck. Suits do not "
            "matter; ranks from low to high: 3 4 5 6 7 8 9 10 J Q K A 2 BJ (black joker) RJ (red joker). Each "
            "player gets 17 cards and 3 bottom cards go, shown to all, to the landlord, who plays alone against "
            "the two peasants; the peasants win or lose together. P1 is the landlord (Botzone's rules). In the "
            "'bidding' variant P1, P2, P3 first bid once each in turn, 'no bid' or 'bid 1'–'bid 3' above the "
            "highest bid (a 3 ends the bidding); the highest bidder is the landlord (P1 at 1 point if nobody "
            "bids). The landlord leads. A lead is any "
            "combination; each next player must pass or beat the last play with the same kind and number of "
            "cards and a higher main rank, or with a bomb or the rocket. After two passes in a row the last "
            "player leads again. You cannot pass when you lead. Combinations: single; pair; triple; triple "
            "with a single or with a pair; straight (5+ consecutive ranks, 3 to A, no 2 or jokers); pair "
            "straight (3+ consecutive pairs); airplane (2+ consecutive triples) alone, with one single per "
            "triple or one pair per triple; four with two singles or two pairs; space shuttle (2+ consecutive "
            "fours) alone or with one single or pair per four; bomb (four of a rank: beats every non-bomb, a "
            "higher bomb beats it); rocket (BJ RJ: beats everything). Kickers (singles and pairs carried by "
            "triples and fours) are of different ranks, never the rank of the main part; the two jokers may "
            "both be single kickers. The first player out of cards wins for its side. Points: the bid, doubled "
            "for every bomb or rocket played and once more for a spring.\n"
            "Your hand is shown as cards with suits (♠3 ♥3 … BJ RJ), with a table of the cards still unknown to "
            "you; the history lists every bid and play, oldest first. A move is the ranks to play, lowest first "
            "('3 3 3 4', '10 J Q K A', 'BJ RJ'), 'pass', or while bidding 'bid 1', 'bid 2', 'bid 3' or 'no bid'. "
            "Briefly evaluate a few promising moves and give the reason for your choice before answering."
        )
