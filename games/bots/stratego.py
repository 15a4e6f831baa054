"""Stratego ladder: random, a one-move heuristic diluted with random moves (50%, then 15%), then
determinised sampling with a two-ply search.

Every bot starts from `Stratego.observed_board(state, seat)`: the other side's hidden pieces are
UNKNOWN there, so no bot sees a hidden rank. What is known publicly about the unknown pieces —
how many of each rank are left (the army minus revealed and lost pieces) and whether a piece has
moved (so it is no Bomb or Flag) — is all the sampling bot uses to guess them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.bots.base import Bot, random_chooser
from games.stratego import RANDOM_SETUP, Stratego, StrategoState
from games.stratego.pieces import (
    ATTACKER_WINS,
    BOMB,
    BOTH_LOSE,
    CODES,
    COUNTS,
    DEFENDER_WINS,
    FLAG,
    IMMOBILE,
    SCOUT,
    UNKNOWN,
    combat,
    has_moved,
    owner_of,
    rank_of,
)
from games.stratego.rules import NEIGHBOURS, RAYS, resolve

# Material worth of each rank (index = rank); the Flag's worth is the game.
VALUE = (10_000, 90, 12, 35, 15, 25, 45, 80, 140, 250, 400, 15)
WIN = 10_000


@dataclass(frozen=True)
class Knowledge:
    """What one seat knows: the observed board and how many hidden enemy pieces of each rank remain."""

    seat: int
    board: tuple[int, ...]
    pool: tuple[int, ...]  # per rank: enemy pieces of that rank still hidden


def knowledge(game: Stratego, state: StrategoState, seat: int) -> Knowledge:
    board = game.observed_board(state, seat)
    enemy = 1 - seat
    pool = list(COUNTS)
    for code in state.captured[enemy]:  # lost pieces were revealed in battle: public
        pool[CODES.index(code)] -= 1
    for cell in board:
        if cell and owner_of(cell) == enemy and rank_of(cell) != UNKNOWN:
            pool[rank_of(cell)] -= 1
    return Knowledge(seat, board, tuple(pool))


def battle_gain(attacker: int, defender: int) -> int:
    """Material change for the attacking side."""
    result = combat(attacker, defender)
    if result == ATTACKER_WINS:
        return VALUE[defender]
    if result == BOTH_LOSE:
        return VALUE[defender] - VALUE[attacker]
    return -VALUE[attacker]


def forward(seat: int, frm: int, to: int) -> int:
    """Rows gained toward the enemy's side."""
    return (to // 10 - frm // 10) * (1 if seat == 0 else -1)


# -- Lv1: one-move rules ------------------------------------------------------------------------


def _known_threat(board: tuple[int, ...], cell: int, rank: int, seat: int) -> bool:
    """Whether a known enemy piece next to `cell` would beat `rank` if it attacked."""
    for n in NEIGHBOURS[cell]:
        other = board[n]
        if other and owner_of(other) != seat:
            enemy_rank = rank_of(other)
            if enemy_rank not in (UNKNOWN, BOMB, FLAG) and combat(enemy_rank, rank) != DEFENDER_WINS:
                return True
    return False


def expected_gain(rank: int, pool: tuple[int, ...], moved: bool, flag_worth: int) -> float:
    """Mean material change of `rank` attacking a hidden piece drawn from `pool` (a moved one is no Bomb or Flag)."""
    total = weighted = 0.0
    for enemy, count in enumerate(pool):
        if not count or (moved and enemy in IMMOBILE):
            continue
        gain = flag_worth if enemy == FLAG else battle_gain(rank, enemy)
        total += count
        weighted += count * gain
    return weighted / total if total else 0.0


def _heuristic(game: Stratego, state: StrategoState, rng: random.Random):
    """Lv1: take the flag and known weaker pieces, attack hidden ones when the odds favour it, avoid known danger."""
    if game.in_setup(state):
        return RANDOM_SETUP
    seat = state.ply % 2
    known = knowledge(game, state, seat)
    board = known.board
    best, best_score = None, float("-inf")
    for frm, to in game.legal_actions(state):
        rank = rank_of(board[frm])
        target = board[to]
        score = rng.random()  # breaks ties at random
        if target:
            enemy = rank_of(target)
            if enemy == UNKNOWN:
                score += expected_gain(rank, known.pool, has_moved(target), flag_worth=300)
            else:
                score += battle_gain(rank, enemy)
        else:
            score += forward(seat, frm, to)
            if _known_threat(board, to, rank, seat):
                score -= VALUE[rank]
            if _known_threat(board, frm, rank, seat):
                score += VALUE[rank] / 2
        if score > best_score:
            best, best_score = (frm, to), score
    return best


# -- Lv2+: determinised sampling and a two-ply search ------------------------------------------------


def determinise(known: Knowledge, rng: random.Random) -> tuple[int, ...]:
    """One full board consistent with what `known.seat` knows: hidden enemy ranks drawn from the pool.

    Moved pieces cannot be Bombs or the Flag, so they are drawn from the movable ranks first.
    """
    hidden = [i for i, cell in enumerate(known.board) if cell and rank_of(cell) == UNKNOWN]
    moved = [i for i in hidden if has_moved(known.board[i])]
    still = [i for i in hidden if not has_moved(known.board[i])]
    mobile = [rank for rank, n in enumerate(known.pool) for _ in range(n) if rank not in IMMOBILE]
    rng.shuffle(mobile)
    from_mobile, rest_mobile = mobile[: len(moved)], mobile[len(moved) :]
    rest = rest_mobile + [rank for rank in IMMOBILE for _ in range(known.pool[rank])]
    rng.shuffle(rest)
    cells = list(known.board)
    for index, rank in zip(moved + still, from_mobile + rest, strict=False):
        cells[index] = (cells[index] & ~15) | (1 + rank)
    return tuple(cells)


def _best_reply(board: tuple[int, ...], side: int) -> int:
    """The most material `side` wins with one attack (0 if no attack pays), the flag being the game."""
    best = 0
    for index, cell in enumerate(board):
        if not cell or owner_of(cell) != side:
            continue
        rank = rank_of(cell)
        if rank in IMMOBILE:
            continue
        for ray in RAYS[index]:
            for target in ray:
                occupant = board[target]
                if occupant:
                    if owner_of(occupant) != side:
                        best = max(best, battle_gain(rank, rank_of(occupant)))
                    break
                if rank != SCOUT:
                    break
    return best


def _targets(known: Knowledge) -> dict[int, list[int]]:
    """Per rank of ours, the enemy squares worth heading for: known weaker pieces, or hidden ones with good odds."""
    enemy_cells = [i for i, cell in enumerate(known.board) if cell and owner_of(cell) != known.seat]
    targets: dict[int, list[int]] = {}
    for rank in range(12):
        if rank in IMMOBILE:
            continue
        good = []
        for i in enemy_cells:
            enemy = rank_of(known.board[i])
            if enemy == UNKNOWN:
                worth = expected_gain(rank, known.pool, has_moved(known.board[i]), flag_worth=300)
            else:
                worth = battle_gain(rank, enemy)
            if worth > 0:
                good.append(i)
        targets[rank] = good
    return targets


def _distance(cell: int, targets: list[int]) -> int:
    row, col = divmod(cell, 10)
    return min((abs(row - t // 10) + abs(col - t % 10) for t in targets), default=0)


def _sampling_search(samples: int):
    """Average, over `samples` guesses of the hidden ranks, of each move's gain minus the best enemy reply.

    Quiet moves also score for closing in on enemy pieces worth attacking, so the search makes progress.
    """

    def choose(game: Stratego, state: StrategoState, rng: random.Random):
        if game.in_setup(state):
            return RANDOM_SETUP
        seat = state.ply % 2
        known = knowledge(game, state, seat)
        legal = game.legal_actions(state)
        targets = _targets(known)
        totals = []
        for frm, to in legal:
            score = rng.random() * samples
            if not known.board[to]:
                wanted = targets[rank_of(known.board[frm])]
                score += 3 * samples * (_distance(frm, wanted) - _distance(to, wanted))
            totals.append(score)
        for _ in range(samples):
            board = determinise(known, rng)
            for i, (frm, to) in enumerate(legal):
                target = board[to]
                gain = 0
                if target:
                    defender = rank_of(target)
                    if defender == FLAG:
                        totals[i] += WIN * samples
                        continue
                    gain = battle_gain(rank_of(board[frm]), defender)
                after, _ = resolve(board, frm, to)
                totals[i] += gain - _best_reply(after, 1 - seat)
        return legal[max(range(len(legal)), key=totals.__getitem__)]

    return choose


def _sometimes_random(p: float, usual):
    """Play a uniformly random legal move with probability `p`, else `usual` (the rng decides: reproducible)."""

    def choose(game: Stratego, state: StrategoState, rng: random.Random):
        return game.random_action(state, rng) if rng.random() < p else usual(game, state, rng)

    return choose


LADDER = [
    Bot("stratego", 0, "uniform random legal move (random setup)", random_chooser),
    Bot(
        "stratego",
        1,
        "the Lv2 heuristic on half of its moves, a random move on the other half",
        _sometimes_random(0.5, _heuristic),
    ),
    Bot(
        "stratego",
        2,
        "one-move heuristic (take the flag and known weaker pieces, attack hidden ones when the odds favour it, "
        "avoid known danger); a random move 15% of the time",
        _sometimes_random(0.15, _heuristic),
    ),
    Bot(
        "stratego",
        3,
        "guesses the hidden ranks 8 times from what is public and keeps the move that gains most after the best "
        "reply, closing in on worthwhile targets",
        _sampling_search(8),
    ),
]

__all__ = ["LADDER", "Knowledge", "determinise", "expected_gain", "knowledge"]
