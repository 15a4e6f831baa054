"""Stratego board geometry, setups, move generation and move resolution on raw board tuples.

Cells are numbered 0–99: index = 10 × row + column, row 0 is rank 1 (Red's back row), column 0
is file a. The lakes are c5 d5 g5 h5 c6 d6 g6 h6. Red (seat 0) sets up on ranks 1–4, Blue (seat 1)
on ranks 7–10. These functions are the hot loop of the search bots, so they work on plain tuples.
"""

from __future__ import annotations

import random
import re

from games.stratego.pieces import (
    ARMY,
    ATTACKER_WINS,
    BOMB,
    BOTH_LOSE,
    CODES,
    COUNTS,
    FLAG,
    IMMOBILE,
    MOVED,
    NAMES,
    REVEALED,
    SCOUT,
    combat,
    owner_of,
    piece,
    rank_of,
)

FILES = "abcdefghij"
LAKES = frozenset({42, 43, 46, 47, 52, 53, 56, 57})
Move = tuple[int, int]


def cell_name(index: int) -> str:
    return f"{FILES[index % 10]}{index // 10 + 1}"


def cell_index(name: str) -> int:
    """'a1' → 0, 'j10' → 99; ValueError for anything else."""
    match = re.fullmatch(r"([a-j])(10|[1-9])", name.strip().lower())
    if not match:
        raise ValueError(f"{name!r} is not a square (files a–j, ranks 1–10)")
    return (int(match[2]) - 1) * 10 + FILES.index(match[1])


def _rays(index: int) -> tuple[tuple[int, ...], ...]:
    """The squares reachable in a straight line from `index` in each direction, stopping at lakes and edges."""
    row, col = divmod(index, 10)
    rays = []
    for d_row, d_col in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        ray = []
        r, c = row + d_row, col + d_col
        while 0 <= r < 10 and 0 <= c < 10 and r * 10 + c not in LAKES:
            ray.append(r * 10 + c)
            r, c = r + d_row, c + d_col
        rays.append(tuple(ray))
    return tuple(rays)


RAYS = tuple(_rays(i) for i in range(100))
NEIGHBOURS = tuple(tuple(ray[0] for ray in RAYS[i] if ray) for i in range(100))


def home_cells(seat: int) -> tuple[int, ...]:
    """A seat's 40 setup squares in setup-string order: front row first, files a→j within a row."""
    rows = (3, 2, 1, 0) if seat == 0 else (6, 7, 8, 9)
    return tuple(row * 10 + col for row in rows for col in range(10))


def parse_setup(text: str) -> str:
    """A setup string made canonical (four rows of ten codes joined by '/'); ValueError says what is wrong."""
    codes = re.sub(r"[\s/,|]", "", text).upper()
    if len(codes) != 40 or any(code not in CODES for code in codes):
        raise ValueError(
            f"A setup is 40 piece codes ({CODES}), front row first, files a–j; got {len(codes)} characters."
        )
    wrong = [
        f"{COUNTS[rank]} × {code} ({NAMES[rank]}) but {codes.count(code)} given"
        for rank, code in enumerate(CODES)
        if codes.count(code) != COUNTS[rank]
    ]
    if wrong:
        raise ValueError("A setup must hold the classic army: " + "; ".join(wrong) + ".")
    return "/".join(codes[i : i + 10] for i in range(0, 40, 10))


def random_setup(rng: random.Random) -> str:
    """A plausible random setup: the Flag on the back row with Bombs beside and before it, the rest shuffled."""
    cells = list(range(40))  # setup order: 0–9 front row … 30–39 back row
    layout: dict[int, str] = {}
    flag = 30 + rng.randrange(10)
    layout[flag] = "F"
    guards = [c for c in (flag - 10, flag - 1, flag + 1) if 0 <= c < 40 and (c // 10 == flag // 10 or c == flag - 10)]
    bombs = 6
    for cell in guards:
        layout[cell] = "B"
        bombs -= 1
    back = [c for c in cells if c >= 20 and c not in layout]
    for cell in rng.sample(back, bombs):
        layout[cell] = "B"
    rest = [code for code in ARMY if code not in "FB"]
    rng.shuffle(rest)
    for cell, code in zip((c for c in cells if c not in layout), rest, strict=True):
        layout[cell] = code
    return parse_setup("".join(layout[c] for c in cells))


def place_setup(board: tuple[int, ...], seat: int, setup: str) -> tuple[int, ...]:
    """The board with `seat`'s canonical setup string placed on its home squares (all face down)."""
    cells = list(board)
    for index, code in zip(home_cells(seat), setup.replace("/", ""), strict=True):
        cells[index] = piece(seat, CODES.index(code))
    return tuple(cells)


def forbidden_move(recent: tuple[Move, ...]) -> Move | None:
    """The two-square rule: after A→B, B→A, A→B by one piece, B→A is not allowed (a fourth time)."""
    if len(recent) < 3:
        return None
    first, second, third = recent[-3:]
    if first == third and second == (first[1], first[0]):
        return second
    return None


def moves(board: tuple[int, ...], seat: int, recent: tuple[Move, ...] = ()) -> list[Move]:
    """Every legal (from, to) of `seat`, in board order; `recent` is that seat's last moves."""
    out = []
    for index, cell in enumerate(board):
        if not cell or owner_of(cell) != seat:
            continue
        rank = rank_of(cell)
        if rank in IMMOBILE:
            continue
        for ray in RAYS[index]:
            for target in ray:
                occupant = board[target]
                if not occupant:
                    out.append((index, target))
                    if rank != SCOUT:
                        break
                    continue
                if owner_of(occupant) != seat:
                    out.append((index, target))
                break
    banned = forbidden_move(recent)
    if banned is not None and banned in out:
        out.remove(banned)
    return out


def has_movable_piece(board: tuple[int, ...], seat: int) -> bool:
    return any(cell and owner_of(cell) == seat and rank_of(cell) not in IMMOBILE for cell in board)


def resolve(board: tuple[int, ...], frm: int, to: int) -> tuple[tuple[int, ...], tuple[int, int, str] | None]:
    """The board after moving the piece on `frm` to `to`, and the battle (attacker rank, defender rank, result).

    Both pieces of a battle are revealed; a Scout that moves more than one square is revealed
    too, since no other piece can.
    """
    cells = list(board)
    mover = board[frm] | MOVED
    if abs(to - frm) not in (1, 10):
        mover |= REVEALED
    target = board[to]
    cells[frm] = 0
    if not target:
        cells[to] = mover
        return tuple(cells), None
    attacker, defender = rank_of(mover), rank_of(target)
    result = combat(attacker, defender)
    if result == ATTACKER_WINS:
        cells[to] = mover | REVEALED
    elif result == BOTH_LOSE:
        cells[to] = 0
    else:
        cells[to] = target | REVEALED
    return tuple(cells), (attacker, defender, result)


__all__ = ["BOMB", "FLAG", "forbidden_move", "has_movable_piece", "moves", "resolve"]
