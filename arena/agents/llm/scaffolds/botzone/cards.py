"""BotzoneBench's user prompts and answers for the card games: heads-up hold'em and Fight the Landlord."""

from __future__ import annotations

import json
import re
from typing import Any

from games import Game

# --- Heads-up hold'em (Botzone's numbers: -1 fold, -2 all-in, 0 call/check, N > 0 put N more chips in) ------

_RANKS = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack", "T": "10"}
_SUITS = {"h": "Hearts", "d": "Diamonds", "s": "Spades", "c": "Clubs"}


def _card_name(card: str) -> str:
    return f"{_RANKS.get(card[0], card[0])} of {_SUITS[card[1]]}"


def holdem_user(game: Game, state: Any, seat: int) -> str:
    view = game.player_view(state, seat)
    hand = view["current"]
    net = view["net"][seat]
    lines = [
        f"This is the {hand['number']} hand out of {state.hands} hands. Everyone starts with 20,000 chips each hand, "
        f"and you have {hand['stacks'][seat]}. Your cumulative win/loss on chips until last hand are {net}, but the "
        "cumulative win/loss chips are inaccessible and independent from your current chips (consider them as "
        "deposits/debts to a bank). "
        + ("You are currently leading your opponent." if net > 0 else "You are currently losing to your opponent."),
        f"Your cards are: {', '.join(_card_name(c) for c in hand['cards'][seat])}.",
        f"Current public cards are: {', '.join(_card_name(c) for c in hand['board'])}."
        if hand["board"]
        else "Currently there is no public card shown.",
        "The Game history is as follows:",
        *(f"* {line}" for line in hand["lines"]),
    ]
    valid = ["-2 (All-in)", "-1 (Fold)", "0 (Check)"]  # "Check" also when 0 calls, as the paper's example shows
    bounds = hand.get("raise_bounds")
    if bounds and bounds[0] < bounds[1]:
        least = bounds[0] - hand["street_bet"][seat]  # Botzone's N puts N more chips in now
        valid.append(f"{least} (raise the bet), or any value above {least} but lower than your current chips.")
    lines.append(f"Your valid actions are: [{', '.join(valid)}].")
    return "\n".join(lines)


def read_holdem(game: Game, state: Any, answer: str) -> Any:
    match = re.search(r"-?\d[\d,]*", answer)
    return game.parse_action(state, match.group(0).replace(",", "")) if match else None


# --- Fight the Landlord (Botzone's: the landlord is P1, who plays first; no bidding) ------------------------

_JOKERS = {"BJ": "BlackJoker", "RJ": "RedJoker"}
_LANDLORD_RANKS = ("RJ", "BJ", "2", "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3")
_LANDLORD_ROLES = {
    # Ours (the paper shows a peasant's), in the paper's words for the peasant turned round.
    "landlord": (
        "You are playing as the landlord. Your aim is to play out all your cards before either peasant does. You "
        "are the Landlord. The Next Player (Right) and the Previous Player (Left) are Peasants (ENEMIES) and play "
        "together against you. You fight alone against both while trying to empty your own hand."
    ),
    "prev": (
        "You are playing as a peasant. Your aim is to play out all your cards before the landlord does, OR help your "
        "teammate (the other peasant) play out their cards before the landlord does. You are a Peasant. The Previous "
        "Player (Left) is the Landlord (ENEMY). The Next Player (Right) is your TEAMMATE (Peasant). You must "
        "cooperate with your teammate to beat the Landlord while trying to empty your own hand."
    ),
    "next": (
        "You are playing as a peasant. Your aim is to play out all your cards before the landlord does, OR help your "
        "teammate (the other peasant) play out their cards before the landlord does. You are a Peasant. The Next "
        "Player (Right) is the Landlord (ENEMY). The Previous Player (Left) is your TEAMMATE (Peasant). You must "
        "cooperate with your teammate to beat the Landlord while trying to empty your own hand."
    ),
}


def _card_rank(card: str) -> str:
    return card if card in _JOKERS else card[1:]


def _card_json(cards: list[str]) -> str:
    return json.dumps([_JOKERS.get(c, c) for c in cards], ensure_ascii=False)


def landlord_user(game: Game, state: Any, seat: int) -> str:
    view = game.player_view(state, seat)
    seats = view["seats"]
    landlord = view["landlord"]
    after, before = (seat + 1) % 3, (seat + 2) % 3
    role = "landlord" if seat == landlord else "prev" if before == landlord else "next"
    hand = [c["text"] for c in seats[seat]["cards"]]

    def label(other: int) -> str:
        if other == landlord:
            return "Landlord (Opponent)"
        return "Peasant (Teammate)" if seat != landlord else "Peasant (Opponent)"

    names = {seats[after]["name"]: "Next Player", seats[before]["name"]: "Prev Player", seats[seat]["name"]: "You"}
    history, turn, played = [], 1, []
    for entry in view["history"]:
        who = names[entry["seat"]]
        cards = [] if entry["text"] == "pass" else entry["text"].split()
        played += cards
        history.append(f"Turn {turn} ({who}): {' '.join(_JOKERS.get(c, c) for c in cards) or 'Pass'}")
        turn += who == "You"
    counts = dict.fromkeys(_LANDLORD_RANKS, 4) | {"RJ": 1, "BJ": 1}
    for card in hand + played:
        counts[_card_rank(card)] -= 1
    unknown = ", ".join(f"{_JOKERS.get(rank, rank)}: {counts[rank]}" for rank in _LANDLORD_RANKS)
    to_beat = view["to_beat"]
    last = _card_json(to_beat["text"].split()) if to_beat else "None (Free Play)"
    return "\n".join(
        [
            _LANDLORD_ROLES[role],
            f"Your Hand: {_card_json(hand)}",
            f"Last Play to Beat: {last}",
            "--- Game History (Recent) ---:",
            *(history[-15:] or ["No history yet."]),
            "--- Player Info ---:",
            f"Cards Held by Next Player (Right) [{label(after)}]: {seats[after]['count']}",
            f"Cards Held by Prev Player (Left) [{label(before)}]: {seats[before]['count']}",
            "--- Cards Remaining Unknown (Card Counting) ---:",
            "(Format explanation: 'Rank: Count', e.g., '2: 4' means there are four 2s left unknown)",
            unknown,
            "Valid Moves:",
            *_landlord_moves(game, state, hand),
            "Select the best move from the Valid Moves list above. You can choose to pass even if you have valid moves "
            "that can beat the previous play, but you cannot pass if you are in a Free Play (there is no last play to "
            "beat). Ensure your response matches one of the valid moves exactly. Remember to provide Explanation, "
            "Reason, and Answer.",
        ]
    )


def _landlord_moves(game: Game, state: Any, hand: list[str]) -> list[str]:
    """Each legal play as the cards of the hand it takes (a rank's cards in the hand's order), as the paper lists."""
    lines = []
    for action in game.legal_actions(state):
        ranks = game.action_to_text(state, action).split()
        if ranks == ["pass"] or not ranks:
            lines.append("pass: []")
            continue
        if sorted(ranks) == ["BJ", "RJ"]:
            lines.append("rocket: [BlackJoker, RedJoker]")
            continue
        left, cards = list(hand), []
        for rank in ranks:
            card = next(c for c in left if _card_rank(c) == rank)
            left.remove(card)
            cards.append(card)
        lines.append(f'"cards": {_card_json(cards)}')
    return lines


def read_landlord(game: Game, state: Any, answer: str) -> Any:
    found = re.search(r"(?:\"cards\"|cards|rocket|pass)\s*:\s*\[([^\]]*)\]", answer)
    if found is None:
        return None
    jokers = {name.lower(): short for short, name in _JOKERS.items()}
    ranks = []
    for card in re.findall(r"[^\s,\"']+", found.group(1)):
        if card.lower() in jokers:
            ranks.append(jokers[card.lower()])  # BlackJoker → BJ
        elif card[0] in "♠♥♣♦":
            ranks.append(card[1:])  # suits are irrelevant
        else:
            ranks.append(card)
    return game.parse_action(state, " ".join(ranks) if ranks else "pass")
