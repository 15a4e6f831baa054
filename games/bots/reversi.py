"""Reversi ladder: random, greedy positional play, then alpha-beta on mobility, corners and position."""

from __future__ import annotations

import random
from collections.abc import Callable

from games.bots.base import Bot, random_chooser
from games.bots.search import alpha_beta
from games.reversi import FULL, PASS, Reversi, ReversiState, moves_of

# The classic square weights: corners are stable and prized; the cells next to them (X and C
# squares) hand the corner to the opponent.
WEIGHTS = (
    100, -20, 10, 5, 5, 10, -20, 100,
    -20, -50, -2, -2, -2, -2, -50, -20,
    10, -2, 1, 1, 1, 1, -2, 10,
    5, -2, 1, 0, 0, 1, -2, 5,
    5, -2, 1, 0, 0, 1, -2, 5,
    10, -2, 1, 1, 1, 1, -2, 10,
    -20, -50, -2, -2, -2, -2, -50, -20,
    100, -20, 10, 5, 5, 10, -20, 100,
)  # fmt: skip
# ROW_WEIGHT[row][byte]: the summed weights of the cells set in that row's byte.
ROW_WEIGHT = tuple(
    tuple(sum(WEIGHTS[row * 8 + c] for c in range(8) if byte >> c & 1) for byte in range(256)) for row in range(8)
)
CORNERS = 1 | 1 << 7 | 1 << 56 | 1 << 63


def positional(board: int) -> int:
    """Summed square weights of a plain (or doubled: only bits 0–63 are read) bitboard."""
    total = 0
    for table in ROW_WEIGHT:
        total += table[board & 255]
        board >>= 8
    return total


def _sides(state: ReversiState, player: int) -> tuple[int, int]:
    """`player`'s and the opponent's doubled boards."""
    return (state.black, state.white) if player == 0 else (state.white, state.black)


def evaluate(state: ReversiState, player: int) -> float:
    """Positional weights, corner ownership and mobility difference, from `player`'s side."""
    me, opp = _sides(state, player)
    if state.ply & 1 == player:
        my_moves, their_moves = state.legal & FULL, moves_of(opp, me)
    else:
        my_moves, their_moves = moves_of(me, opp), state.legal & FULL
    mobility = my_moves.bit_count() - their_moves.bit_count()
    corners = (me & CORNERS).bit_count() - (opp & CORNERS).bit_count()
    return positional(me) - positional(opp) + 8.0 * mobility + 30.0 * corners


def _by_weight(state: ReversiState, actions: list[int]) -> list[int]:
    """Corners first, X squares last: good moves early make alpha-beta cut more."""
    return sorted(actions, key=lambda a: -WEIGHTS[a] if a != PASS else 0)


def _greedy(game: Reversi, state: ReversiState, rng: random.Random) -> int:
    """Lv1: the move that leaves the best square-weight balance one ply ahead, ties broken at random."""
    me = state.ply & 1
    actions = game.legal_actions(state)
    rng.shuffle(actions)
    best, best_value = actions[0], None
    for action in actions:
        mine, theirs = _sides(game.apply(state, action), me)
        value = positional(mine) - positional(theirs)
        if best_value is None or value > best_value:
            best, best_value = action, value
    return best


def _searcher(depth: int, noise: float = 4.0) -> Callable[[Reversi, ReversiState, random.Random], int]:
    """Alpha-beta to `depth` plies; the evaluation gets a deterministic jitter of up to `noise` points."""

    def choose(game: Reversi, state: ReversiState, rng: random.Random) -> int:
        actions = game.legal_actions(state)
        if len(actions) == 1:
            return actions[0]
        # A per-decision salt varies tie-breaks between games without touching global randomness.
        salt = rng.getrandbits(32)

        def noisy(s: ReversiState, player: int) -> float:
            return evaluate(s, player) + (hash((s.black, s.white, salt)) % 1024) * noise / 1024

        return alpha_beta(game, state, depth, noisy, rng, order=_by_weight)

    choose.__doc__ = f"Alpha-beta to depth {depth} on position, corners and mobility."
    return choose


LADDER = [
    Bot("reversi", 0, "uniform random legal move", random_chooser),
    Bot("reversi", 1, "greedy: best square weights (corners high, X squares low) one ply ahead", _greedy),
    Bot("reversi", 2, "alpha-beta, 2 plies, on position, corners and mobility", _searcher(2)),
    Bot("reversi", 3, "alpha-beta, 3 plies, on position, corners and mobility", _searcher(3)),
    # Five plies with the default 4-point jitter beat three plies in ~91% of decisive games, four plies only
    # ~61%: a wider jitter on five plies lands in the 70–90% band.
    Bot("reversi", 4, "alpha-beta, 5 plies, on position, corners and mobility, jittered", _searcher(5, 30.0)),
]
