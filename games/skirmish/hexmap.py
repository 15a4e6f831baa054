"""The skirmish map: flat-topped hexes in even-q offset coordinates, terrain, hex distance and line of sight.

Cells are named like STAR's (col, row) with a column letter and a row number from 1: "a1" is (0, 0).
Even columns sit half a row higher (toward larger rows), so an even column's hex (c, r) touches the
odd-column hexes (c±1, r) and (c±1, r+1); an odd column's touches (c±1, r-1) and (c±1, r).
"""

from __future__ import annotations

import random
from collections import deque
from functools import cache

COLS, ROWS = 12, 10
LETTERS = "abcdefghijkl"
PLAIN, FOREST, HILL, MOUNTAIN, CITY, WATER = "P", "F", "H", "M", "C", "W"
# STAR Table 4: move cost, defence bonus, blocks vision.
TERRAIN = {
    PLAIN: ("plain", 1, 0.0, False),
    FOREST: ("forest", 2, 0.2, True),
    HILL: ("hill", 2, 0.3, True),
    MOUNTAIN: ("mountain", 3, 0.5, True),
    CITY: ("city", 1, 0.4, True),
    WATER: ("water", None, 0.0, False),
}
TERRAIN_WEIGHTS = ((PLAIN, 52), (FOREST, 16), (HILL, 11), (MOUNTAIN, 6), (CITY, 4), (WATER, 11))


def cell_name(col: int, row: int) -> str:
    return f"{LETTERS[col]}{row + 1}"


def parse_cell(text: str) -> tuple[int, int] | None:
    """'e4' → (4, 3); None when it is not a cell of the map."""
    text = text.strip().lower()
    if len(text) < 2 or text[0] not in LETTERS or not text[1:].isdigit():
        return None
    col, row = LETTERS.index(text[0]), int(text[1:]) - 1
    return (col, row) if 0 <= row < ROWS else None


def to_axial(col: int, row: int) -> tuple[int, int]:
    return col, row - (col + (col & 1)) // 2


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Hex distance (axial), never Euclidean or Manhattan."""
    aq, ar = to_axial(*a)
    bq, br = to_axial(*b)
    dq, dr = aq - bq, ar - br
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@cache
def neighbours(col: int, row: int) -> tuple[tuple[int, int], ...]:
    shift = 1 if col % 2 == 0 else -1
    found = [(col, row - 1), (col, row + 1)]
    for dc in (-1, 1):
        found += [(col + dc, row), (col + dc, row + shift)]
    return tuple(sorted((c, r) for c, r in found if 0 <= c < COLS and 0 <= r < ROWS))


def terrain_at(terrain: str, cell: tuple[int, int]) -> str:
    return terrain[cell[0] * ROWS + cell[1]]


@cache
def _line(a: tuple[int, int], b: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """The hexes strictly between a and b on the straight line (cube interpolation, nudged off edges)."""
    n = distance(a, b)
    aq, ar = to_axial(*a)
    bq, br = to_axial(*b)
    cells = []
    for i in range(1, n):
        t = i / n
        q = aq + (bq - aq) * t + 1e-6
        r = ar + (br - ar) * t + 1e-6
        s = -q - r
        rq, rr, rs = round(q), round(r), round(s)
        if abs(rq - q) > abs(rr - r) and abs(rq - q) > abs(rs - s):
            rq = -rr - rs
        elif abs(rr - r) > abs(rs - s):
            rr = -rq - rs
        cells.append((rq, rr + (rq + (rq & 1)) // 2))
    return tuple(cells)


def line_of_sight(terrain: str, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """True unless a vision-blocking hex (forest, hill, mountain, city) lies strictly between a and b."""
    return not any(TERRAIN[terrain_at(terrain, c)][3] for c in _line(a, b))


def mirror(cell: tuple[int, int]) -> tuple[int, int]:
    """The point-symmetric cell; with an even number of columns this maps the hex grid onto itself."""
    return COLS - 1 - cell[0], ROWS - 1 - cell[1]


def generate(seed: int, keep_plain: set[tuple[int, int]]) -> str:
    """A point-symmetric map from `seed` whose land is connected; `keep_plain` cells (deployments) stay plain."""
    rng = random.Random(f"skirmish-map-{seed}")
    kinds, weights = zip(*TERRAIN_WEIGHTS, strict=True)
    while True:
        grid = {}
        for col in range(COLS):
            for row in range(ROWS):
                cell = (col, row)
                if cell in grid:
                    continue
                kind = PLAIN if cell in keep_plain or mirror(cell) in keep_plain else rng.choices(kinds, weights)[0]
                grid[cell] = grid[mirror(cell)] = kind
        terrain = "".join(grid[(c, r)] for c in range(COLS) for r in range(ROWS))
        if _land_connected(terrain):
            return terrain


def _land_connected(terrain: str) -> bool:
    land = [(c, r) for c in range(COLS) for r in range(ROWS) if terrain_at(terrain, (c, r)) != WATER]
    seen = {land[0]}
    queue = deque([land[0]])
    while queue:
        for n in neighbours(*queue.popleft()):
            if n not in seen and terrain_at(terrain, n) != WATER:
                seen.add(n)
                queue.append(n)
    return len(seen) == len(land)
