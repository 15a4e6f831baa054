"""Arctic Scavengers' state and its moves: gathering actions, the dig choice, pre-skirmish strikes, the skirmish.

A round: both tribes draw five cards; the round's first player (alternating) gathers — each of DIG, DRAW, HUNT,
HIRE and TRASH at most once, every card played going to the discard pile — then stops, and the other does the
same. The cards left in hand go to the skirmish: both hands are shown, the first player then the other may
snipe (Sniper Team) or sabotage (Saboteur), and the higher fight score (then more tribe members) wins the top
contested resource. After the fifth round the contested pile is empty and the larger tribe wins.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import product

from games.arctic_scavengers.cards import (
    CARDS,
    CONTESTED,
    JUNKYARD,
    MERCENARIES,
    SABOTEUR,
    SNIPER,
    STARTING_DECK,
    action_value,
    fight_score,
    sort_cards,
    tribe_size,
)

PLAYERS = 2
HAND_SIZE = 5
ROUNDS = len(CONTESTED)
SEATS = ("Tribe 1", "Tribe 2")
GATHER_VERBS = ("dig", "draw", "hunt", "hire", "trash")
MERCENARY_NAMES = tuple(name for name, _ in MERCENARIES)

#: (verb, cards played, target): ("dig", ("Scavenger", "Shovel"), ""), ("hire", ("Pills",), "Hunter"),
#: ("keep", (), "Medkit"), ("snipe", (), "Brawler"), ("stop", (), "").
Action = tuple[str, tuple[str, ...], str]
STOP: Action = ("stop", (), "")


@dataclass(frozen=True)
class ArcticState:
    seed: int
    ply: int
    round: int  # 1..ROUNDS; ROUNDS + 1 once the game is over
    phase: str  # "gather", "dig" (choosing a dug card), "skirmish", "over"
    turn: int  # the seat acting in this phase
    hands: tuple[tuple[str, ...], ...]  # catalogue order
    decks: tuple[tuple[str, ...], ...]  # top first; hidden from everyone, the owner included
    discards: tuple[tuple[str, ...], ...]
    food: tuple[int, ...]  # this round's food from hunting, spent by a hire
    used: tuple[tuple[str, ...], ...]  # gathering verbs each seat used this round
    spent: tuple[tuple[str, ...], ...]  # Sniper Teams and Saboteurs each seat used in this skirmish
    dug: tuple[str, ...]  # the cards a DIG turned up, shown to the digger only
    junkyard: tuple[str, ...]  # top first
    contested: tuple[str, ...]  # top first
    supply: tuple[int, ...]  # cards left per mercenary pile, in MERCENARIES order
    won: tuple[tuple[str, ...], ...]  # contested resources each seat won (public)
    log: tuple[str, ...]  # public events, "R<round> <text>"


def initiator(state: ArcticState) -> int:
    """The seat that gathers and strikes first this round."""
    return (state.round - 1) % PLAYERS


def owned(state: ArcticState, seat: int) -> tuple[str, ...]:
    """Every card of `seat`'s tribe: hand, deck and discard pile."""
    return state.hands[seat] + state.decks[seat] + state.discards[seat]


@lru_cache(maxsize=1 << 14)
def sub_multisets(cards: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Every distinct non-empty selection from `cards`, in catalogue order."""
    counts = Counter(cards)
    names = sort_cards(counts)
    picks = product(*(range(counts[n] + 1) for n in names))
    return tuple(c for k in picks if (c := tuple(n for n, i in zip(names, k, strict=True) for _ in range(i))))


def remove(cards: tuple[str, ...], taken: tuple[str, ...]) -> tuple[str, ...]:
    left = list(cards)
    for name in taken:
        left.remove(name)
    return tuple(left)


def draw(state: ArcticState, seat: int, count: int, rng: random.Random) -> ArcticState:
    """`seat` draws `count` cards, shuffling its discard pile into a new deck when the deck runs out."""
    deck, discard, hand = list(state.decks[seat]), list(state.discards[seat]), list(state.hands[seat])
    for _ in range(count):
        if not deck:
            rng.shuffle(discard)
            deck, discard = discard, []
        if not deck:
            break
        hand.append(deck.pop(0))
    return with_seat(state, seat, hands=sort_cards(hand), decks=tuple(deck), discards=tuple(discard))


def with_seat(state: ArcticState, seat: int, **fields) -> ArcticState:
    """`state` with one seat's entry of each named per-seat field replaced."""
    changes = {}
    for name, value in fields.items():
        per_seat = list(getattr(state, name))
        per_seat[seat] = value
        changes[name] = tuple(per_seat)
    return replace(state, **changes)


def gather_actions(state: ArcticState, seat: int) -> list[Action]:
    hand, used = state.hands[seat], state.used[seat]
    subsets = sub_multisets(hand)
    actions: list[Action] = []
    for verb in ("dig", "draw", "hunt"):
        if verb in used or (verb == "dig" and not state.junkyard):
            continue
        if verb == "draw" and not (state.decks[seat] or state.discards[seat]):
            continue
        actions += [(verb, s, "") for s in subsets if (action_value(verb, s) or 0) >= 1]
    if "hire" not in used:
        medicine = [s for s in subsets if action_value("medicine", s)]
        for name, left in zip(MERCENARY_NAMES, state.supply, strict=True):
            card = CARDS[name]
            if not left or card.food_cost > state.food[seat]:
                continue
            if not card.medicine_cost:
                actions.append(("hire", (), name))
                continue
            # Pay with medicine cards none of which is spare: dropping any would leave too little.
            for s in medicine:
                paid = action_value("medicine", s) or 0
                if paid >= card.medicine_cost and all(
                    paid - CARDS[c].value("medicine") < card.medicine_cost for c in s
                ):
                    actions.append(("hire", s, name))
    if "trash" not in used:
        actions += [("trash", s, "") for s in subsets]
    return [*actions, STOP]


def skirmish_actions(state: ArcticState, seat: int) -> list[Action]:
    hand, foe = state.hands[seat], state.hands[1 - seat]
    actions: list[Action] = []
    if hand.count(SNIPER) > state.spent[seat].count(SNIPER):
        actions += [("snipe", (), n) for n in sort_cards(set(foe)) if CARDS[n].people]
    if hand.count(SABOTEUR) > state.spent[seat].count(SABOTEUR):
        actions += [("sabotage", (), n) for n in sort_cards(set(foe)) if CARDS[n].is_tool()]
    return [*actions, STOP] if actions else []


def legal(state: ArcticState) -> list[Action]:
    if state.phase == "gather":
        return gather_actions(state, state.turn)
    if state.phase == "dig":
        return [("keep", (), n) for n in sort_cards(set(state.dug))]
    if state.phase == "skirmish":
        return skirmish_actions(state, state.turn)
    return []


def logged(state: ArcticState, text: str) -> ArcticState:
    return replace(state, log=(*state.log, f"R{state.round} {text}"))


def play_gather(state: ArcticState, action: Action, rng: random.Random) -> ArcticState:
    """One gathering action (or the dug card kept) by the seat to act."""
    verb, cards, target = action
    seat, name = state.turn, SEATS[state.turn]
    if verb == "keep":
        rest = remove(state.dug, (target,))
        state = replace(state, phase="gather", dug=(), junkyard=state.junkyard + rest)
        return with_seat(state, seat, discards=(*state.discards[seat], target))
    state = with_seat(state, seat, hands=remove(state.hands[seat], cards), used=(*state.used[seat], verb))
    if verb != "trash":
        state = with_seat(state, seat, discards=state.discards[seat] + cards)
    played = "+".join(cards)
    if verb == "dig":
        value = action_value("dig", cards) or 0
        state = replace(state, phase="dig", dug=state.junkyard[:value], junkyard=state.junkyard[value:])
        return logged(state, f"{name} digs {value} with {played} and keeps one card.")
    if verb == "draw":
        value = action_value("draw", cards) or 0
        return logged(draw(state, seat, value, rng), f"{name} draws {value} with {played}.")
    if verb == "hunt":
        value = action_value("hunt", cards) or 0
        state = with_seat(state, seat, food=state.food[seat] + value)
        return logged(state, f"{name} hunts {value} food with {played}.")
    if verb == "hire":
        card, pile = CARDS[target], MERCENARY_NAMES.index(target)
        supply = tuple(n - (i == pile) for i, n in enumerate(state.supply))
        state = with_seat(replace(state, supply=supply), seat, food=state.food[seat] - card.food_cost)
        state = with_seat(state, seat, discards=(*state.discards[seat], target))
        paid = f" and {played}" if cards else ""
        return logged(state, f"{name} hires a {target} for {card.food_cost} food{paid}.")
    junkyard = list(state.junkyard)
    for card in cards:  # trashed cards are shuffled into the junkyard
        junkyard.insert(rng.randrange(len(junkyard) + 1), card)
    return logged(replace(state, junkyard=tuple(junkyard)), f"{name} trashes {played}.")


def play_strike(state: ArcticState, action: Action) -> ArcticState:
    """A snipe or sabotage of a card in the other tribe's skirmish hand (the striking card stays in hand)."""
    verb, _, target = action
    seat, foe = state.turn, 1 - state.turn
    state = with_seat(state, seat, spent=(*state.spent[seat], SNIPER if verb == "snipe" else SABOTEUR))
    state = with_seat(state, foe, hands=remove(state.hands[foe], (target,)), discards=(*state.discards[foe], target))
    return logged(state, f"{SEATS[seat]} {'snipes' if verb == 'snipe' else 'sabotages'} {SEATS[foe]}'s {target}.")


def skirmish_winner(state: ArcticState) -> int | None:
    """The higher fight score wins, then the larger tribe in hand; None when both tie."""
    for measure in (fight_score, tribe_size):
        a, b = measure(state.hands[0]), measure(state.hands[1])
        if a != b:
            return 0 if a > b else 1
    return None


def resolve_skirmish(state: ArcticState, rng: random.Random) -> ArcticState:
    """Award the top contested resource, discard both hands, and deal the next round (or end the game)."""
    prize, winner = state.contested[0], skirmish_winner(state)
    scores = " to ".join(f"{fight_score(h)} fight ({tribe_size(h)} in tribe)" for h in state.hands)
    state = replace(state, contested=state.contested[1:])
    if winner is None:
        state = logged(replace(state, junkyard=(*state.junkyard, prize)), f"Skirmish tied {scores}: {prize} lost.")
    else:
        state = with_seat(state, winner, discards=(*state.discards[winner], prize), won=(*state.won[winner], prize))
        state = logged(state, f"Skirmish {scores}: {SEATS[winner]} wins {prize}.")
    for seat in range(PLAYERS):
        state = with_seat(state, seat, discards=state.discards[seat] + state.hands[seat], hands=())
    state = replace(state, round=state.round + 1, food=(0,) * PLAYERS, used=((),) * PLAYERS, spent=((),) * PLAYERS)
    if not state.contested:
        return replace(state, phase="over", turn=0)
    for seat in range(PLAYERS):
        state = draw(state, seat, HAND_SIZE, rng)
    return replace(state, phase="gather", turn=initiator(state))


def finish_turn(state: ArcticState, rng: random.Random) -> ArcticState:
    """The seat to act is done with this phase: the other seat's turn, the skirmish, or the skirmish's result."""
    if state.turn == initiator(state):
        return replace(state, turn=1 - state.turn)
    if state.phase == "gather":
        return replace(state, phase="skirmish", turn=initiator(state))
    return resolve_skirmish(state, rng)


def advance(state: ArcticState, rng: random.Random) -> ArcticState:
    """Move past seats whose only choice is to stop (no cards, every action used, nothing to strike)."""
    while state.phase in ("gather", "skirmish") and len(legal(state)) <= 1:
        if state.phase == "gather":
            state = logged(state, f"{SEATS[state.turn]} stops gathering.")
        state = finish_turn(state, rng)
    return state


def step(state: ArcticState, action: Action, rng: random.Random) -> ArcticState:
    """The state after a legal `action` (checked by the caller)."""
    if action == STOP:
        if state.phase == "gather":
            state = logged(state, f"{SEATS[state.turn]} stops gathering.")
        return advance(finish_turn(state, rng), rng)
    if state.phase == "skirmish":
        return advance(play_strike(state, action), rng)
    return advance(play_gather(state, action, rng), rng)


def deal(seed: int, rng: random.Random) -> ArcticState:
    decks = []
    for _ in range(PLAYERS):
        deck = list(STARTING_DECK)
        rng.shuffle(deck)
        decks.append(tuple(deck))
    junkyard = [name for name, n in JUNKYARD for _ in range(n)]
    rng.shuffle(junkyard)
    contested = list(CONTESTED)
    rng.shuffle(contested)
    state = ArcticState(
        seed=seed,
        ply=0,
        round=1,
        phase="gather",
        turn=0,
        hands=((),) * PLAYERS,
        decks=tuple(decks),
        discards=((),) * PLAYERS,
        food=(0,) * PLAYERS,
        used=((),) * PLAYERS,
        spent=((),) * PLAYERS,
        dug=(),
        junkyard=tuple(junkyard),
        contested=tuple(contested),
        supply=tuple(n for _, n in MERCENARIES),
        won=((),) * PLAYERS,
        log=(),
    )
    for seat in range(PLAYERS):
        state = draw(state, seat, HAND_SIZE, rng)
    return advance(state, rng)


def tribe_sizes(state: ArcticState) -> tuple[int, ...]:
    return tuple(tribe_size(owned(state, seat)) for seat in range(PLAYERS))
