"""Hive's position and move generator: a mutable board with make/unmake, for the rules, perft and search.

Cells are axial hex coordinates (q, r) packed into one int (`cell_of`); hexes are pointy-topped as in
the Universal Hive Protocol, so a cell's neighbours lie east, south-east, south-west, west, north-west
and north-east (`DIRECTIONS`, clockwise). A move is (piece, destination cell); a placement is a move
of a piece still in hand. Passing is left to the caller: `moves()` is empty when the mover has none.
"""

from __future__ import annotations

from collections.abc import Iterable

# -- pieces: 11 a side, white 0–10 then black 11–21, numbered as UHP numbers them ------------------

KINDS = ("Q", "S", "S", "B", "B", "G", "G", "G", "A", "A", "A")
NUMBERS = (0, 1, 2, 1, 2, 1, 2, 3, 1, 2, 3)  # 0: the queen, which UHP writes without a number
PER_SIDE = len(KINDS)
PIECES = 2 * PER_SIDE
QUEENS = (0, PER_SIDE)
KIND_ORDER = "QSBGA"  # placements are listed in this order of kinds
KIND_NAMES = {"Q": "queen bee", "S": "spider", "B": "beetle", "G": "grasshopper", "A": "soldier ant"}


def kind_of(piece: int) -> str:
    return KINDS[piece % PER_SIDE]


def colour_of(piece: int) -> int:
    """0 for white (the first player), 1 for black."""
    return piece // PER_SIDE


# -- cells ---------------------------------------------------------------------------------

_OFFSET, _STRIDE = 128, 256  # no game reaches 128 cells from the first piece: there are 22 pieces
ORIGIN = _OFFSET * _STRIDE + _OFFSET
# East, south-east, south-west, west, north-west, north-east: clockwise, so d-1 and d+1 flank d.
DIRECTIONS = (_STRIDE, 1, 1 - _STRIDE, -_STRIDE, -1, _STRIDE - 1)
AXIAL = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
# For each direction, the two cells next to both ends of a step that way: (cell + left, cell + right).
_FLANKS = tuple((DIRECTIONS[(d - 1) % 6], DIRECTIONS[(d + 1) % 6]) for d in range(6))
_STEPS = tuple((step, left, right) for step, (left, right) in zip(DIRECTIONS, _FLANKS, strict=True))
_EAST, _SOUTH_EAST, _SOUTH_WEST, _WEST, _NORTH_WEST, _NORTH_EAST = DIRECTIONS


def _slide_steps(around: int) -> tuple[int, ...]:
    """The ground slides out of a cell whose occupied neighbours are the bits of `around` (bit d: DIRECTIONS[d]).

    A slide goes to an empty neighbour with exactly one of its two flanking cells occupied: both is a gate too
    narrow to pass (freedom to move), neither would lose touch with the hive.
    """
    bit = [(around >> d) & 1 for d in range(6)]
    return tuple(DIRECTIONS[d] for d in range(6) if not bit[d] and bit[d - 1] != bit[(d + 1) % 6])


#: Ground slides by neighbourhood: one table lookup instead of three occupancy tests per direction.
_SLIDE_STEPS = tuple(_slide_steps(around) for around in range(64))
#: Per direction d from a cell: the step to that neighbour, and the neighbour's bit for the cell (direction d + 3).
_BACK_BITS = tuple((step, 1 << ((d + 3) % 6)) for d, step in enumerate(DIRECTIONS))
#: The steps to the occupied neighbours, by neighbourhood bits.
_OCCUPIED_STEPS = tuple(tuple(DIRECTIONS[d] for d in range(6) if (around >> d) & 1) for around in range(64))


def _occupy(around: dict[int, int], cell: int) -> None:
    """Record in `around` that `cell` has become occupied."""
    for step, bit in _BACK_BITS:
        neighbour = cell + step
        around[neighbour] = around.get(neighbour, 0) | bit


def _around(stacks: dict[int, tuple[int, ...]], cell: int) -> int:
    """Which of `cell`'s six neighbours are occupied, as bits in DIRECTIONS order."""
    return (
        (cell + _EAST in stacks)
        | (cell + _SOUTH_EAST in stacks) << 1
        | (cell + _SOUTH_WEST in stacks) << 2
        | (cell + _WEST in stacks) << 3
        | (cell + _NORTH_WEST in stacks) << 4
        | (cell + _NORTH_EAST in stacks) << 5
    )


def cell_of(q: int, r: int) -> int:
    return (q + _OFFSET) * _STRIDE + r + _OFFSET


def axial_of(cell: int) -> tuple[int, int]:
    return cell // _STRIDE - _OFFSET, cell % _STRIDE - _OFFSET


def neighbours(cell: int) -> tuple[int, ...]:
    return tuple(cell + d for d in DIRECTIONS)


Move = tuple[int, int]  # (piece, destination cell)


class Board:
    """Stacks by cell (bottom piece first) and the cell of every piece (-1 in hand); white moves on even plies.

    Stacks are tuples, so a copy of the board shares them and only the cells a move touches change.
    `around` keeps, for every cell next to an occupied one, its occupied neighbours as bits in DIRECTIONS
    order: kept up to date by make and unmake, it serves the ants' flood fill and the One Hive search.
    """

    __slots__ = ("around", "ply", "stacks", "where")

    def __init__(
        self,
        where: Iterable[int] = (-1,) * PIECES,
        stacks: dict[int, tuple[int, ...]] | None = None,
        ply: int = 0,
        around: dict[int, int] | None = None,
    ):
        self.where = list(where)
        self.stacks = stacks if stacks is not None else {}
        self.ply = ply
        if around is None:
            around = {}
            for cell in self.stacks:
                _occupy(around, cell)
        self.around = around

    @property
    def mover(self) -> int:
        return self.ply % 2

    def turn_of_mover(self) -> int:
        """The mover's own turn number, 1 for its first."""
        return self.ply // 2 + 1

    def copy(self) -> Board:
        return Board(self.where, dict(self.stacks), self.ply, dict(self.around))

    def top(self, cell: int) -> int:
        return self.stacks[cell][-1]

    def height(self, cell: int) -> int:
        stack = self.stacks.get(cell)
        return len(stack) if stack else 0

    # -- make / unmake -------------------------------------------------------------------

    def make(self, move: Move | None) -> int:
        """Play `move` (None: pass); returns the cell the piece left (-1 from hand), for `unmake`."""
        self.ply += 1
        if move is None:
            return -1
        piece, dest = move
        source = self.where[piece]
        if source >= 0:
            self._lift(source)
        self._drop(dest, piece)
        self.where[piece] = dest
        return source

    def unmake(self, move: Move | None, source: int) -> None:
        self.ply -= 1
        if move is None:
            return
        piece, dest = move
        self._lift(dest)
        if source >= 0:
            self._drop(source, piece)
        self.where[piece] = source

    def _lift(self, cell: int) -> None:
        """Take the top piece off `cell`'s stack."""
        stack = self.stacks[cell]
        if len(stack) == 1:
            del self.stacks[cell]
            around = self.around
            for step, bit in _BACK_BITS:
                neighbour = cell + step
                left = around[neighbour] & ~bit
                if left:
                    around[neighbour] = left
                else:
                    del around[neighbour]
        else:
            self.stacks[cell] = stack[:-1]

    def _drop(self, cell: int, piece: int) -> None:
        """Put `piece` on top of `cell`'s stack."""
        stack = self.stacks.get(cell)
        if stack:
            self.stacks[cell] = (*stack, piece)
        else:
            self.stacks[cell] = (piece,)
            _occupy(self.around, cell)

    # -- rules ---------------------------------------------------------------------------

    def surrounded(self, colour: int) -> bool:
        """Whether `colour`'s queen is on the board with all six neighbours occupied."""
        cell = self.where[QUEENS[colour]]
        return cell >= 0 and self.around.get(cell) == 0b111111

    def moves(self) -> list[Move]:
        """Every legal placement and movement of the mover, placements first, in a fixed order."""
        colour = self.mover
        pieces = self.placeable(colour)
        result = [(piece, cell) for cell in self.placement_cells(colour) for piece in pieces] if pieces else []
        if self.where[QUEENS[colour]] >= 0:
            result.extend(self.movements(colour))
        return result

    def placeable(self, colour: int) -> list[int]:
        """The lowest-numbered piece in hand of each kind the mover may place now (queen rules applied)."""
        turn = self.turn_of_mover()
        queen = QUEENS[colour]
        if turn == 4 and self.where[queen] < 0:
            return [queen]  # the queen must be on the board by the fourth turn
        chosen: dict[str, int] = {}
        for piece in range(queen, queen + PER_SIDE):
            if self.where[piece] < 0 and kind_of(piece) not in chosen:
                chosen[kind_of(piece)] = piece
        if turn == 1:
            chosen.pop("Q", None)  # tournament opening: no queen on the first turn
        return [chosen[k] for k in KIND_ORDER if k in chosen]

    def placement_cells(self, colour: int) -> list[int]:
        """Empty cells touching the mover's colour and no enemy piece (stack tops count); the first two are fixed."""
        if self.ply == 0:
            return [ORIGIN]
        if self.ply == 1:
            return [ORIGIN + d for d in DIRECTIONS]
        touching: tuple[set[int], set[int]] = (set(), set())  # cells next to a white top, next to a black top
        for cell, stack in self.stacks.items():
            touching[stack[-1] // PER_SIDE].update([cell + d for d in DIRECTIONS])
        return sorted(touching[colour] - touching[1 - colour] - self.stacks.keys())

    def pinned(self) -> set[int]:
        """Cells whose single piece cannot leave without splitting the hive: articulation points, one DFS."""
        stacks = self.stacks
        if len(stacks) < 3:
            return set()
        around = self.around
        order: dict[int, int] = {}
        result: set[int] = set()

        def low_point(cell: int, parent: int) -> int:
            """Tarjan: the earliest cell reachable from `cell`'s subtree by one back edge (recursion ≤ 22 deep)."""
            order[cell] = low = entered = len(order)
            for step in _OCCUPIED_STEPS[around[cell]]:
                child = cell + step
                if child == parent:
                    continue
                seen = order.get(child)
                if seen is not None:
                    if seen < low:
                        low = seen
                    continue
                child_low = low_point(child, cell)
                if child_low < low:
                    low = child_low
                if child_low >= entered:
                    result.add(cell)  # the child's subtree hangs on this cell alone
            return low

        root = next(iter(stacks))
        order[root] = 0
        subtrees = 0
        for step in _OCCUPIED_STEPS[around[root]]:
            if root + step not in order:
                subtrees += 1
                low_point(root + step, root)
        if subtrees > 1:
            result.add(root)  # the root is a cut cell when the search had to start afresh from it
        return result

    def movements(self, colour: int) -> list[Move]:
        """Moves of the mover's pieces on top of their stacks that the One Hive rule lets go."""
        pinned = self.pinned()
        result: list[Move] = []
        for cell in sorted(self.stacks):
            stack = self.stacks[cell]
            piece = stack[-1]
            if colour_of(piece) != colour:
                continue
            if len(stack) == 1 and cell in pinned:
                continue
            result.extend([(piece, dest) for dest in self.destinations(piece, cell)])
        return result

    def destinations(self, piece: int, cell: int) -> list[int]:
        """Where the piece on top of `cell` can go, sorted; the piece is lifted while it is worked out."""
        kind = kind_of(piece)
        if kind == "B":
            return self._beetle(cell)
        if kind == "G":
            return self._grasshopper(cell)
        if kind == "A":
            return sorted(self._ant(cell))
        stacks = self.stacks
        lifted = stacks.pop(cell)
        try:
            found = set(self._slides(cell)) if kind == "Q" else self._spider(cell)
        finally:
            stacks[cell] = lifted
        return sorted(found)

    def _slides(self, cell: int) -> list[int]:
        """Empty neighbours reachable in one ground slide (see `_slide_steps`)."""
        return [cell + step for step in _SLIDE_STEPS[_around(self.stacks, cell)]]

    def _ant(self, start: int) -> set[int]:
        """Every cell reachable by any number of slides (the hot loop of move generation); the ant is lifted
        from `start` by clearing its bit in its neighbours' `around`, in a copy."""
        around = self.around.copy()
        for step, bit in _BACK_BITS:
            around[start + step] &= ~bit
        seen = {start}
        frontier = [start]
        while frontier:
            cell = frontier.pop()
            for step in _SLIDE_STEPS[around[cell]]:
                target = cell + step
                if target not in seen:
                    seen.add(target)
                    frontier.append(target)
        seen.discard(start)
        return seen

    def _spider(self, start: int) -> set[int]:
        ends: set[int] = set()
        paths = [(start,)]
        for _ in range(3):
            paths = [(*path, target) for path in paths for target in self._slides(path[-1]) if target not in path]
        ends.update(path[-1] for path in paths)
        return ends

    def _grasshopper(self, cell: int) -> list[int]:
        stacks = self.stacks
        found = []
        for d in DIRECTIONS:
            target = cell + d
            if target not in stacks:
                continue
            while target in stacks:
                target += d
            found.append(target)
        return sorted(found)

    def _beetle(self, cell: int) -> list[int]:
        """One step in any direction, onto stacks too, unless both flanks stand higher than both ends."""
        stacks = self.stacks
        below = len(stacks[cell]) - 1
        found = []
        for step, left, right in _STEPS:
            target = cell + step
            up = self.height(target)
            left_h, right_h = self.height(cell + left), self.height(cell + right)
            if below == 0 and up == 0:
                if (left_h > 0) != (right_h > 0):
                    found.append(target)
            elif min(left_h, right_h) <= max(below, up):
                found.append(target)
        return sorted(found)

    # -- counting ------------------------------------------------------------------------

    def perft(self, depth: int) -> int:
        """Leaf count of the move tree `depth` plies deep (a pass counts as one move when nothing else is legal)."""
        if depth == 0:
            return 1
        moves = self.moves() or [None]
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            source = self.make(move)
            total += self.perft(depth - 1)
            self.unmake(move, source)
        return total
