"""Two Rooms and a Boom ladder: random, then players who read only their own seat's knowledge (cards shown to them,
who is in which room) and talk in fixed sentences that name no card.

Lv1 is open: each player shows its card to a room-mate whose card it has not seen and shows it back to anyone who
asks, votes for a teammate it has seen, and as Leader sends the hostage that best serves its team at the next
exchange over the deals consistent with the cards it saw. Lv2 talks the same way but votes and sends hostages for the
rest of the game, solved backwards for each of those deals (games/bots/two_rooms_plan.py).
"""

from __future__ import annotations

import random
from itertools import permutations

from games.bots.base import Bot, random_chooser
from games.bots.two_rooms_plan import after_exchange, electors, matrix_game, red_chance, swapped, together
from games.two_rooms import TwoRoomsAndABoom
from games.two_rooms.state import (
    CARDS,
    PLAYERS,
    QUESTIONS,
    TEAM_OF_CARD,
    TwoRoomsState,
    known_cards,
    phase,
    room_mates,
)

ASK_CARD = QUESTIONS[1]


def team(card: str) -> str:
    return TEAM_OF_CARD[card]


def deals(state: TwoRoomsState, me: int) -> list[tuple[str, ...]]:
    """Every deal consistent with the cards `me` has seen, each as likely as the others."""
    known = known_cards(state, me)
    pool = list(CARDS)
    for card in known.values():
        pool.remove(card)
    unseen = [s for s in range(PLAYERS) if s not in known]
    found = []
    for cards in sorted(set(permutations(pool))):
        deal = dict(known) | dict(zip(unseen, cards, strict=True))
        found.append(tuple(deal[s] for s in range(PLAYERS)))
    return found


def choose_hostage(state: TwoRoomsState, me: int, rng: random.Random) -> tuple:
    """The hostage that best serves this Leader's team after this exchange (Blue: President and Bomber apart, Red:
    together), averaged over the deals consistent with the cards it saw and the other Leader's possible hostages."""
    mates = room_mates(state, me)
    other = state.leaders[1 - state.rooms[me]]
    theirs = room_mates(state, other)
    red = team(state.cards[me]) == "red"
    possible = deals(state, me)

    def red_chance_after(hostage: int) -> float:
        hits = sum(together(deal, swapped(state.rooms, (hostage, t))) for deal in possible for t in theirs)
        return hits / (len(possible) * len(theirs))

    scores = {h: red_chance_after(h) if red else -red_chance_after(h) for h in mates}
    best = max(scores.values())
    return ("send", rng.choice([h for h in mates if scores[h] == best]))


def plan_hostage(state: TwoRoomsState, me: int, rng: random.Random) -> tuple:
    """The hostage that gives this Leader's team the best chance over the rest of the game, averaged over the deals
    consistent with the cards it saw, the other Leader playing its best (mixed) answer in each."""
    room = state.rooms[me]
    red = team(state.cards[me]) == "red"
    mine = room_mates(state, me)
    scores = dict.fromkeys(mine, 0.0)
    theirs = room_mates(state, state.leaders[1 - room])
    for deal in deals(state, me):
        payoff = [[after_exchange(deal, swapped(state.rooms, (h, t)), state.round) for t in theirs] for h in mine]
        oriented = payoff if red else [[1 - v for v in row] for row in payoff]
        if (team(deal[state.leaders[1 - room]]) == "red") == red:  # a teammate: it picks its half of the best pair
            for h, row in zip(mine, oriented, strict=True):
                scores[h] += max(row)
            continue
        _, _, their_mix = matrix_game(oriented)
        for h, row in zip(mine, oriented, strict=True):
            scores[h] += sum(q * v for q, v in zip(their_mix, row, strict=True))
    top = max(scores.values())
    return ("send", rng.choice([h for h in mine if abs(scores[h] - top) < 1e-9]))


def vote(state: TwoRoomsState, me: int) -> tuple:
    """The lowest seat of this room whose card this player has seen is on its team (itself at worst)."""
    known = known_cards(state, me)
    mine = team(state.cards[me])
    return ("vote", min(s for s in (me, *room_mates(state, me)) if s in known and team(known[s]) == mine))


def plan_vote(state: TwoRoomsState, me: int) -> tuple:
    """The seen teammate of this room (itself included) whose leadership gives the team the best chance over the rest
    of the game, the other room's majority electing its best Leader (`two_rooms_plan`); the lowest seat among equals."""
    known = known_cards(state, me)
    red = team(state.cards[me]) == "red"
    room = state.rooms[me]
    candidates = sorted(s for s in (me, *room_mates(state, me)) if s in known and team(known[s]) == team(known[me]))
    possible = deals(state, me)

    def chance(candidate: int) -> float:
        total = 0.0
        for deal in possible:
            theirs = electors(deal, state.rooms, 1 - room)
            chances = []
            for their_leader in theirs:
                leaders = (candidate, their_leader) if room == 0 else (their_leader, candidate)
                red_wins = red_chance(deal, leaders, state.rooms, state.round)
                chances.append(red_wins if red else 1 - red_wins)
            allied = (team(deal[theirs[0]]) == "red") == red
            total += max(chances) if allied else min(chances)
        return total / len(possible)

    return ("vote", max(candidates, key=lambda c: (round(chance(c), 9), -c)))


def _open(game: TwoRoomsAndABoom, state: TwoRoomsState, rng: random.Random, plan: bool = False) -> tuple:
    """Show your card to a room-mate whose card you have not seen, and back to anyone who asks; vote for a seen
    teammate; Leaders choose hostages by the cards they saw."""
    me = game.current_player(state)
    assert me is not None  # bots are asked only while the game runs
    now = phase(state)
    if now == "hostages":
        return plan_hostage(state, me, rng) if plan else choose_hostage(state, me, rng)
    if now == "vote":
        return plan_vote(state, me) if plan else vote(state, me)
    if now == "answer":
        return ("show", state.events[-1][3])
    known = known_cards(state, me)
    mates = room_mates(state, me)
    unseen = [s for s in mates if s not in known]
    return ("show", rng.choice(unseen)) if unseen else ("ask", rng.choice(mates), ASK_CARD)


def _planning(game: TwoRoomsAndABoom, state: TwoRoomsState, rng: random.Random) -> tuple:
    """As Lv1, with votes and hostages chosen for the rest of the game rather than the next exchange."""
    return _open(game, state, rng, plan=True)


LADDER = [
    Bot(
        "two-rooms-and-a-boom",
        0,
        "uniform random legal action (templated sentences, random shows, votes and hostages)",
        random_chooser,
    ),
    Bot(
        "two-rooms-and-a-boom",
        1,
        "open: shows its card to unseen room-mates and back when asked, votes for a seen teammate, and as Leader "
        "sends the hostage that best serves its team over the deals consistent with the cards it saw",
        _open,
    ),
    Bot(
        "two-rooms-and-a-boom",
        2,
        "planning: as Lv1, but votes and hostages are chosen for the rest of the game (each vote and exchange a "
        "game between the two sides, solved backwards), averaged over the deals consistent with the cards it saw",
        _planning,
    ),
]
