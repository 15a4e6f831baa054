"""Fight the Landlord cards and combinations, as Botzone's judge defines them.

A card is an id 0–53: ids 0–51 have rank `id // 4` (0 = 3 … 11 = ace, 12 = 2) and suit `id % 4`;
52 is the black joker (rank 13) and 53 the red joker (rank 14). Suits never matter in play, so a play
is a sorted tuple of ranks; the cards leave the hand lowest suit first.

Botzone's combination types (its judge classifies a play by how many cards of each rank it holds):
single, pair, triple, triple+single, triple+pair, bomb (four of a rank), rocket (both jokers), four+two
singles, four+two pairs, straight (≥5 consecutive ranks 3…A), pair straight (≥3 consecutive pairs),
airplane (≥2 consecutive triples), airplane+singles / airplane+pairs (one kicker per triple), space
shuttle (≥2 consecutive bombs) and space shuttle+singles / +pairs (one kicker per four). Kickers are
of distinct ranks, none the rank of a main part; the two jokers may be kickers together.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

RANKS = "3456789TJQKA2BR"  # B: black joker, R: red joker
RANK_NAMES = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "BJ", "RJ")
SUITS = "♠♥♣♦"
ACE, TWO, BLACK_JOKER, RED_JOKER = 11, 12, 13, 14
Play = tuple[int, ...]  # sorted ranks; () is a pass

# Botzone's kind names; bombs and the rocket beat other kinds, every other kind only itself.
KINDS = (
    "single",
    "pair",
    "triple",
    "triple_with_single",
    "triple_with_pair",
    "straight",
    "pair_straight",
    "airplane",
    "airplane_with_single",
    "airplane_with_pair",
    "four_with_single",
    "four_with_pair",
    "space_shuttle",
    "space_shuttle_with_single",
    "space_shuttle_with_pair",
    "bomb",
    "rocket",
)


class Combo(NamedTuple):
    """A classified play: its kind, its number of cards and its main rank (the highest of its main part)."""

    kind: str
    size: int
    main: int


def rank_of(card: int) -> int:
    return card // 4 if card < 52 else card - 39


def card_text(card: int) -> str:
    """'♠3', '♦10', 'BJ', 'RJ' — BotzoneBench's card names."""
    if card >= 52:
        return RANK_NAMES[rank_of(card)]
    return SUITS[card % 4] + RANK_NAMES[card // 4]


def play_text(play: Play) -> str:
    """'3 3 3 4' (ranks, ascending; 10 as 10, jokers BJ/RJ); 'pass' for no cards."""
    return " ".join(RANK_NAMES[r] for r in play) if play else "pass"


def _run(ranks: list[int]) -> bool:
    """Consecutive ranks, none above the ace."""
    return ranks[-1] <= ACE and ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def classify(play: Play) -> Combo | None:
    """The combination `play` forms under Botzone's rules, or None when it is none."""
    counts = Counter(play)
    if not play or max(counts.values()) > 4 or len(play) > 20:
        return None
    size = len(play)
    by_count: dict[int, list[int]] = {}
    for rank, count in sorted(counts.items()):
        by_count.setdefault(count, []).append(rank)
    shape = sorted(counts.values(), reverse=True)
    top = max(counts, key=lambda r: (counts[r], r))
    simple = {(1,): "single", (2,): "pair", (3,): "triple", (4,): "bomb"}
    simple |= {(3, 1): "triple_with_single", (3, 2): "triple_with_pair"}
    simple |= {(4, 1, 1): "four_with_single", (4, 2, 2): "four_with_pair"}
    if tuple(shape) in simple:
        return Combo(simple[tuple(shape)], size, top)
    if sorted(counts) == [BLACK_JOKER, RED_JOKER]:
        return Combo("rocket", size, RED_JOKER)
    if len(by_count) == 1:
        (count, ranks), minimum = next(iter(by_count.items())), {1: 5, 2: 3, 3: 2, 4: 2}
        kind = {1: "straight", 2: "pair_straight", 3: "airplane", 4: "space_shuttle"}[count]
        if len(ranks) >= minimum[count] and _run(ranks):
            return Combo(kind, size, ranks[-1])
        return None
    if len(by_count) == 2:
        (body, chain), (wing, wings) = sorted(by_count.items(), reverse=True)
        if body in (3, 4) and wing in (1, 2) and len(chain) == len(wings) >= 2 and _run(chain):
            base = "airplane" if body == 3 else "space_shuttle"
            return Combo(f"{base}_with_{'single' if wing == 1 else 'pair'}", size, chain[-1])
    return None


def beats(play: Combo, target: Combo) -> bool:
    """True when `play` may follow `target`: the rocket beats all, a bomb all but higher bombs, else same kind/size."""
    if play.kind == "rocket":
        return True
    if target.kind == "rocket":
        return False
    if play.kind == "bomb":
        return target.kind != "bomb" or play.main > target.main
    return play.kind == target.kind and play.size == target.size and play.main > target.main


def _kickers(counts: list[int], excluded: set[int], number: int, width: int) -> list[tuple[int, ...]]:
    """Every set of `number` distinct kicker ranks outside `excluded`, `width` cards each (1: singles, 2: pairs)."""
    pool = [r for r in range(15) if r not in excluded and counts[r] >= width]
    return [tuple(r for r in chosen for _ in range(width)) for chosen in combinations(pool, number)]


def _chains(counts: list[int], width: int, shortest: int) -> list[list[int]]:
    """Every run of ≥ `shortest` consecutive ranks 3…A with ≥ `width` cards each."""
    runs = []
    for start in range(ACE + 1):
        end = start
        while end <= ACE and counts[end] >= width:
            end += 1
            if end - start >= shortest:
                runs.append(list(range(start, end)))
    return runs


def all_plays(hand_ranks: list[int] | tuple[int, ...]) -> list[Play]:
    """Every combination that can be made from a hand (given as ranks), in a deterministic order."""
    return list(_all_plays(tuple(sorted(hand_ranks))))


@lru_cache(maxsize=1 << 14)
def _all_plays(hand_ranks: tuple[int, ...]) -> tuple[Play, ...]:
    counts = [0] * 15
    for rank in hand_ranks:
        counts[rank] += 1
    size = len(hand_ranks)
    plays: list[Play] = []
    for rank in range(15):
        for width in (1, 2, 3, 4):
            if counts[rank] >= width and (width == 1 or rank < BLACK_JOKER):
                plays.append((rank,) * width)
    if counts[BLACK_JOKER] and counts[RED_JOKER]:
        plays.append((BLACK_JOKER, RED_JOKER))
    for rank in range(BLACK_JOKER):
        if counts[rank] >= 3:
            for width in (1, 2):
                plays += [(rank,) * 3 + kick for kick in _kickers(counts, {rank}, 1, width)]
        if counts[rank] == 4:
            for width in (1, 2):
                plays += [(rank,) * 4 + kick for kick in _kickers(counts, {rank}, 2, width)]
    for width, shortest in ((1, 5), (2, 3), (3, 2), (4, 2)):
        for chain in _chains(counts, width, shortest):
            body = tuple(r for r in chain for _ in range(width))
            plays.append(body)
            if width >= 3:
                for wing in (1, 2):
                    if len(body) + len(chain) * wing <= size:
                        plays += [body + kick for kick in _kickers(counts, set(chain), len(chain), wing)]
    return tuple(sorted({tuple(sorted(p)) for p in plays}, key=lambda p: (len(p), p)))


def answers(hand_ranks: list[int], target: Combo | None) -> list[Play]:
    """The plays that may follow `target` (every play when leading)."""
    return list(_answers(tuple(sorted(hand_ranks)), target))


@lru_cache(maxsize=1 << 14)
def _answers(hand_ranks: tuple[int, ...], target: Combo | None) -> tuple[Play, ...]:
    plays = _all_plays(hand_ranks)
    if target is None:
        return plays
    return tuple(p for p in plays if beats(classify(p), target))  # type: ignore[arg-type]


def parse_ranks(text: str) -> Play:
    """Ranks from text such as '3 3 4', '334', '10 J Q K A', 'T', 'BJ RJ', or cards '♠3 ♥3'; ValueError otherwise."""
    cleaned = text.upper()
    for mark in "♠♥♣♦[]\"',":
        cleaned = cleaned.replace(mark, " ")
    ranks: list[int] = []
    for word in cleaned.split():
        position = 0
        while position < len(word):
            two = word[position : position + 2]
            if two in ("10", "BJ", "RJ"):
                ranks.append({"10": 7, "BJ": BLACK_JOKER, "RJ": RED_JOKER}[two])
                position += 2
                continue
            if word[position] not in RANKS[:13]:
                raise ValueError(f"{word!r} is not a card (ranks 3–10, J, Q, K, A, 2, BJ, RJ)")
            ranks.append(RANKS.index(word[position]))
            position += 1
    return tuple(sorted(ranks))
