"""Cards, the deal and hand strength for Texas hold'em, with pokerkit's lookup table as the evaluator.

Cards are two-character strings, rank then suit: "As", "Td", "2c". Hand strength is pokerkit's
`StandardLookup` entry index (0 = seven-five high … 7461 = royal flush; higher is better), read
once per rank pattern and cached, so that Monte-Carlo bots can evaluate tens of thousands of
hands a second. `best_hand` agrees with `pokerkit.StandardHighHand.from_game` (a test checks it).
"""

from __future__ import annotations

import random
from functools import cache, lru_cache
from itertools import combinations
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pokerkit import StandardLookup

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = tuple(rank + suit for rank in RANKS for suit in SUITS)
# Distinct primes per rank: a product of primes names a multiset of ranks.
PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
PRIME_OF = {card: PRIMES[RANKS.index(card[0])] for card in DECK}
HOLE_CARDS, BOARD_CARDS = 2, 5


@lru_cache(maxsize=4096)
def deal(seed: int, hand: int) -> tuple[tuple[str, str], tuple[str, str], tuple[str, ...]]:
    """(seat 0's hole cards, seat 1's hole cards, the five board cards) of `hand` of a match.

    A function of the seed and the hand number only: the deck is shuffled by
    `random.Random("holdem/<seed>/<hand>")`; seat 0 gets cards 1–2, seat 1 cards 3–4, and the
    board is cards 5–9 (flop 5–7, turn 8, river 9). No cards are burned.
    """
    deck = list(DECK)
    random.Random(f"holdem/{seed}/{hand}").shuffle(deck)
    return (deck[0], deck[1]), (deck[2], deck[3]), tuple(deck[4:9])


@cache
def _lookup() -> StandardLookup:
    # Imported here: pokerkit builds its tables on import (a third of a second), which no process pays for
    # until it deals a hand.
    from pokerkit import StandardLookup

    return StandardLookup()


# Module-level caches, filled on demand: (rank-prime product, suited) -> strength, a strength's
# category name, and the rank-prime product of 5–7 cards that cannot make a flush -> best strength.
_FIVE: dict[tuple[int, bool], int] = {}
_LABEL: dict[int, str] = {}
_UNSUITED: dict[int, int] = {}


def _five_card_strength(cards: tuple[str, ...]) -> int:
    product = 1
    for card in cards:
        product *= PRIME_OF[card]
    key = (product, cards[0][1] == cards[1][1] == cards[2][1] == cards[3][1] == cards[4][1])
    strength = _FIVE.get(key)
    if strength is None:
        entry = _lookup().get_entry("".join(cards))
        strength = _FIVE[key] = entry.index
        _LABEL[strength] = entry.label.value
    return strength


def best_hand(cards: tuple[str, ...] | list[str]) -> int:
    """Strength of the best five-card hand among 5–7 cards; higher is better."""
    by_suit: dict[str, list[str]] = {}
    for card in cards:
        by_suit.setdefault(card[1], []).append(card)
    for suited in by_suit.values():
        if len(suited) >= 5:
            # With a flush among at most seven cards, no quads or full house is possible, so the
            # best hand is a flush or a straight flush made of this suit alone.
            return max(_five_card_strength(five) for five in combinations(suited, 5))
    product = 1
    for card in cards:
        product *= PRIME_OF[card]
    strength = _UNSUITED.get(product)
    if strength is None:  # without a flush only the ranks matter
        strength = _UNSUITED[product] = max(_five_card_strength(five) for five in combinations(cards, 5))
    return strength


def hand_label(cards: tuple[str, ...] | list[str]) -> str:
    """The category of the best hand: 'Two pair', 'Flush', …"""
    return _LABEL[best_hand(cards)]


def card_text(card: str) -> str:
    """'As' → 'A♠' for people."""
    return card[0] + {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}[card[1]]


def botzone_card(number: int) -> str:
    """Botzone's card number (rank number // 4 + 2, suit number % 4: hearts, diamonds, spades, clubs) as ours."""
    if not 0 <= number < 52:
        raise ValueError(f"not a Botzone card number: {number!r}")
    return RANKS[number // 4] + "hdsc"[number % 4]


def _botzone_five(cards: tuple[str, ...]) -> tuple[int, ...]:
    """(category 1 high card … 9 straight flush, then ranks to break ties) of five cards under Botzone's judge."""
    counts: dict[int, int] = {}
    for card in cards:
        rank = RANKS.index(card[0]) + 2
        counts[rank] = counts.get(rank, 0) + 1
    ranks = sorted(counts, key=lambda r: (counts[r], r), reverse=True)  # by count, then rank
    shape = sorted(counts.values(), reverse=True)
    flush = len({card[1] for card in cards}) == 1
    straight = len(counts) == 5 and ranks[0] - ranks[4] == 4  # no ace-low straight
    if straight:
        return (9 if flush else 5, ranks[0])
    if shape[0] == 4:
        category = 8
    elif shape[:2] == [3, 2]:
        category = 7
    elif flush:
        category = 6
    elif shape[0] == 3:
        category = 4
    elif shape[:2] == [2, 2]:
        category = 3
    elif shape[0] == 2:
        category = 2
    else:
        category = 1
    return (category, *ranks)


def botzone_best_hand(cards: tuple[str, ...] | list[str]) -> tuple[int, ...]:
    """The best five of 5–7 cards as Botzone's hold'em judge ranks them: the usual order, no A-2-3-4-5 straight.
    Fewer than five (a hand folded before the flop) are a high card, as its judge reports them, even a pair."""
    if len(cards) < 5:
        return (1, *sorted((RANKS.index(card[0]) + 2 for card in cards), reverse=True))
    return max(_botzone_five(five) for five in combinations(cards, 5))


#: Botzone's hand categories (its judge's `max_hand_type`, 1–9), named as `hand_label` names them.
BOTZONE_LABELS = (
    "", "High card", "One pair", "Two pair", "Three of a kind", "Straight", "Flush", "Full house",
    "Four of a kind", "Straight flush",
)  # fmt: skip


def botzone_hand_label(cards: tuple[str, ...] | list[str]) -> str:
    """The category of the best hand under Botzone's judge (A-2-3-4-5 is a high card, not a straight)."""
    return BOTZONE_LABELS[botzone_best_hand(cards)[0]]
