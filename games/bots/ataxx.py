"""Ataxx ladder: random, greedy material, then alpha-beta (negamax) on material at growing depth."""

from __future__ import annotations

import random
from collections.abc import Callable

from games.ataxx import ADJ1, ADJ2, BIT, FULL, MUST_PASS, PASS, Ataxx, AtaxxState, bits, grow, reach
from games.bots.base import Bot, random_chooser

WIN = 10_000

#: A candidate move for the search: (material gain for the mover, source or -1 for a clone, destination).
Move = tuple[int, int, int]


def candidate_moves(me: int, opp: int) -> list[Move]:
    """The moves worth searching, best material gain first.

    A clone to a cell gains as much as any jump there and leaves no hole, so jumps are searched only
    to cells no clone reaches, and only when they capture, unless nothing else is possible.
    """
    empty = FULL & ~(me | opp)
    clone_cells = grow(me) & empty
    moves = [(1 + 2 * (ADJ1[to] & opp).bit_count(), -1, to) for to in bits(clone_cells)]
    quiet_jumps = []
    for source in bits(me):
        for to in bits(ADJ2[source] & empty & ~clone_cells):
            captured = (ADJ1[to] & opp).bit_count()
            if captured:
                moves.append((2 * captured, source, to))
            elif not moves:
                quiet_jumps.append((0, source, to))
    moves = moves or quiet_jumps
    moves.sort(reverse=True)
    return moves


def play(me: int, opp: int, move: Move) -> tuple[int, int]:
    """The mover's and the opponent's boards after `move`."""
    _, source, to = move
    captured = ADJ1[to] & opp
    if source >= 0:
        me ^= BIT[source]
    return me | BIT[to] | captured, opp ^ captured


def _final(me: int, opp: int) -> int:
    """Score of a finished game for `me`: a win or loss outweighs any material."""
    diff = me.bit_count() - opp.bit_count()
    return diff + (WIN if diff > 0 else -WIN if diff < 0 else 0)


def negamax(me: int, opp: int, depth: int, alpha: int, beta: int) -> int:
    """Material balance for the mover `me` after `depth` plies of alpha-beta (fail-hard)."""
    if not opp or not me:
        return _final(me, opp)
    empty = FULL & ~(me | opp)
    if not empty:
        return _final(me, opp)
    if depth <= 0:
        return me.bit_count() - opp.bit_count()
    if not reach(me) & empty:
        if not reach(opp) & empty:
            return _final(me, opp)
        return -negamax(opp, me, depth - 1, -beta, -alpha)  # forced pass
    moves = candidate_moves(me, opp)
    if depth == 1:  # the best single move, without building the children
        gain = moves[0][0]
        if any(ADJ1[to] & opp == opp for _, _, to in moves):
            return WIN + me.bit_count() + opp.bit_count()  # a move that captures every opposing piece
        return me.bit_count() - opp.bit_count() + gain
    for move in moves:
        mine, theirs = play(me, opp, move)
        value = -negamax(theirs, mine, depth - 1, -beta, -alpha)
        if value > alpha:
            alpha = value
            if alpha >= beta:
                break
    return alpha


def _action(move: Move) -> tuple[int, ...]:
    _, source, to = move
    return (to,) if source < 0 else (source, to)


def _greedy(game: Ataxx, state: AtaxxState, rng: random.Random) -> tuple[int, ...]:
    """Lv1: the largest immediate material gain, clones before jumps, ties at random."""
    if state.status == MUST_PASS:
        return PASS
    me, opp = game.sides(state)
    moves = candidate_moves(me, opp)
    best = max(gain for gain, _, _ in moves)
    return _action(rng.choice([m for m in moves if m[0] == best]))


def _searcher(depth: int) -> Callable[[Ataxx, AtaxxState, random.Random], tuple[int, ...]]:
    def choose(game: Ataxx, state: AtaxxState, rng: random.Random) -> tuple[int, ...]:
        if state.status == MUST_PASS:
            return PASS
        me, opp = game.sides(state)
        moves = candidate_moves(me, opp)
        rng.shuffle(moves)
        moves.sort(key=lambda m: -m[0])  # stable: equal gains stay shuffled
        best_value, best_moves = -2 * WIN, []
        for move in moves:
            mine, theirs = play(me, opp, move)
            # Window (best - 1, ∞): a value ≥ best is exact, so every equally good move is found.
            value = -negamax(theirs, mine, depth - 1, -3 * WIN, 1 - best_value)
            if value > best_value:
                best_value, best_moves = value, [move]
            elif value == best_value:
                best_moves.append(move)
        return _action(rng.choice(best_moves))

    choose.__doc__ = f"Alpha-beta to depth {depth} on material, random among equally good moves."
    return choose


def _sloppy(
    blunder_rate: float, choose: Callable[[Ataxx, AtaxxState, random.Random], tuple[int, ...]]
) -> Callable[[Ataxx, AtaxxState, random.Random], tuple[int, ...]]:
    """`choose`, except that a share `blunder_rate` of moves are uniformly random instead.

    Material snowballs in Ataxx, so plain greedy play wins every game against random play, and a
    2-ply search every game against greedy play; mixing in random moves fills the gaps between
    rungs so that each one beats the one below about four times in five.
    """

    def sloppy(game: Ataxx, state: AtaxxState, rng: random.Random) -> tuple[int, ...]:
        if rng.random() < blunder_rate:
            return random_chooser(game, state, rng)
        return choose(game, state, rng)

    return sloppy


LADDER = [
    Bot("ataxx", 0, "uniform random legal move", random_chooser),
    Bot("ataxx", 1, "greedy material gain on 30% of moves, random on the rest", _sloppy(0.7, _greedy)),
    Bot("ataxx", 2, "greedy material gain on 50% of moves, random on the rest", _sloppy(0.5, _greedy)),
    Bot("ataxx", 3, "greedy material gain on 80% of moves, random on the rest", _sloppy(0.2, _greedy)),
    Bot("ataxx", 4, "greedy: largest immediate material gain, clones before jumps", _greedy),
    Bot("ataxx", 5, "alpha-beta, 2 plies, on material; a random move 1 time in 10", _sloppy(0.1, _searcher(2))),
    Bot("ataxx", 6, "alpha-beta, 2 plies, on material", _searcher(2)),
    Bot("ataxx", 7, "alpha-beta, 3 plies, on material", _searcher(3)),
]
