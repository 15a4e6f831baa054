"""Fight the Landlord ladder: random, a greedy card-shedding rule, then determinised Monte Carlo rollouts.

Every bot reads only what its seat may know: its own hand, the bottom cards once shown, the public plays
and how many cards each seat holds. The Monte Carlo level deals the unseen cards at random to the other
two seats (keeping their card counts), plays each candidate move and finishes the game with the greedy
rule for all three seats, and chooses the move that won most often for its side. A larger Monte Carlo
(8 candidates × 16 deals) beat it in only 55% of games (docs/games.md), so it is the top level.
"""

from __future__ import annotations

import random

from games.bots.base import Bot, random_chooser
from games.fight_the_landlord import FightTheLandlord, LandlordState
from games.fight_the_landlord.combos import BLACK_JOKER, RED_JOKER, TWO, Play, answers, classify, rank_of

Action = tuple


def hand_strength(ranks: list[int]) -> float:
    """A bidding score: jokers, twos, aces and bombs count."""
    score = 3.0 * ranks.count(RED_JOKER) + 2.5 * ranks.count(BLACK_JOKER) + 1.5 * ranks.count(TWO)
    score += 0.5 * ranks.count(TWO - 1)
    score += sum(4 for r in set(ranks) if ranks.count(r) == 4)
    return score


def _is_bomb(play: Play) -> bool:
    combo = classify(play)
    return combo is not None and combo.kind in ("bomb", "rocket")


def greedy(game: FightTheLandlord, state: LandlordState, rng: random.Random) -> Action:
    """Bid on strong hands; lead the lowest combination (longest first); beat opponents cheaply, let the partner run."""
    seat = game.current_player(state)
    hand = [rank_of(c) for c in state.hands[seat]]
    if state.landlord < 0:
        strength = hand_strength(hand)
        wanted = 3 if strength >= 10 else 2 if strength >= 7 else 1 if strength >= 5 else 0
        high = max(state.bids, default=0)
        return ("bid", wanted) if wanted > high else ("bid", 0)
    target = game.target(state)
    plays = answers(hand, target[1] if target else None)
    finishing = [p for p in plays if len(p) == len(hand)]
    if finishing:
        return ("play", finishing[0])
    plain = [p for p in plays if not _is_bomb(p)]
    if target is None:
        pool = plain or plays
        # Lowest main rank first, then the play that sheds most cards.
        return ("play", min(pool, key=lambda p: (classify(p).main, -len(p))))  # type: ignore[union-attr]
    owner = target[0]
    partner_led = owner != state.landlord and seat != state.landlord
    if partner_led:
        return ("play", ())
    if plain:
        return ("play", min(plain, key=lambda p: classify(p).main))  # type: ignore[union-attr]
    danger = min(len(state.hands[s]) for s in range(3) if (s == state.landlord) != (seat == state.landlord))
    if plays and danger <= 6:
        return ("play", plays[0])
    return ("play", ())


def determinise(game: FightTheLandlord, state: LandlordState, seat: int, rng: random.Random) -> LandlordState:
    """`state` with the cards `seat` cannot see dealt at random to the other seats (their card counts kept;
    the bottom cards, shown to all, stay with the landlord until played)."""
    unseen = [c for s in range(3) if s != seat for c in state.hands[s]]
    known = {s: [] for s in range(3)}
    if state.landlord >= 0 and state.landlord != seat:
        known[state.landlord] = [c for c in state.bottom if c in unseen]
    pool = [c for c in unseen if c not in known[state.landlord if state.landlord >= 0 else seat]]
    rng.shuffle(pool)
    hands = []
    for s in range(3):
        if s == seat:
            hands.append(state.hands[s])
            continue
        need = len(state.hands[s]) - len(known[s])
        hands.append(tuple(sorted(known[s] + pool[:need])))
        pool = pool[need:]
    return LandlordState(
        state.seed, state.ply, state.bidding, tuple(hands), state.bottom, state.bids, state.landlord, state.plays
    )


def rollout(game: FightTheLandlord, state: LandlordState, rng: random.Random, limit: int = 200) -> LandlordState:
    """The game finished with the greedy rule for every seat."""
    for _ in range(limit):
        if game.current_player(state) is None:
            break
        state = game.advance(state, greedy(game, state, rng))
    return state


def candidates(game: FightTheLandlord, state: LandlordState, width: int) -> list[Action]:
    """The greedy move, a pass if allowed, the first play of each kind and size (longest first); at most `width`."""
    legal = game.legal_actions(state)
    lowest: dict[tuple[str, int], Action] = {}
    for action in legal:
        combo = classify(action[1]) if action[0] == "play" and action[1] else None
        if combo and (combo.kind, combo.size) not in lowest:
            lowest[(combo.kind, combo.size)] = action  # the first in legal order (lowest ranks first)
    ordered = [greedy(game, state, random.Random(0)), ("play", ()), *sorted(lowest.values(), key=lambda a: -len(a[1]))]
    chosen: list[Action] = []
    for action in ordered:
        if action in legal and action not in chosen:
            chosen.append(action)
    return chosen[:width]


def monte_carlo(samples: int, width: int):
    """A chooser playing the candidate whose rollouts won most for its side over `samples` deals per candidate."""

    def choose(game: FightTheLandlord, state: LandlordState, rng: random.Random) -> Action:
        seat = game.current_player(state)
        if state.landlord < 0:
            return greedy(game, state, rng)
        moves = candidates(game, state, width)
        if len(moves) == 1:
            return moves[0]
        wins = dict.fromkeys(moves, 0.0)
        for _ in range(samples):
            world = determinise(game, state, seat, rng)
            for move in moves:
                final = rollout(game, game.advance(world, move), rng)
                result = game.outcome(final)
                wins[move] += result.scores[seat] if result else 0.5
        # The greedy move (first) keeps its place unless another clearly won more: noise alone must not move it.
        best = max(moves, key=lambda m: wins[m])
        return best if wins[best] >= wins[moves[0]] + max(1.0, samples / 8) else moves[0]

    return choose


#: Lv1's share of greedy moves (the rest uniformly random), chosen so Lv1 and Lv2 each land near 75% (docs/ladders.md).
GREEDY_SHARE = 0.5


def partly_greedy(game: FightTheLandlord, state: LandlordState, rng: random.Random) -> Action:
    """The greedy move on GREEDY_SHARE of moves, a uniformly random legal move on the rest."""
    return greedy(game, state, rng) if rng.random() < GREEDY_SHARE else random_chooser(game, state, rng)


LADDER = [
    Bot("fight-the-landlord", 0, "uniform random legal action", random_chooser),
    Bot("fight-the-landlord", 1, f"Lv2's greedy move on {GREEDY_SHARE:.0%} of moves, a random one else", partly_greedy),
    Bot(
        "fight-the-landlord", 2, "greedy: lead the lowest combination, beat cheaply, leave the partner's plays", greedy
    ),
    Bot(
        "fight-the-landlord",
        3,
        "Monte Carlo: 6 candidate moves × 8 random deals of the unseen cards",
        monte_carlo(8, 6),
    ),
]
