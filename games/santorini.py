"""Santorini without god powers on a 5×5 board. Cells are a1–e5 (column letter, row number from the bottom).

Setup: the first player places both workers, then the second player places both (one action per
worker, "place c3"); with the option `setup="random"` both sides' workers start on distinct cells
drawn from the seed instead and the first player moves at once. A turn is one action: move one of
your workers to an adjacent (8-neighbour) unoccupied, undomed cell at most one level higher (any
number lower), then build one level (a dome on level 3) on an unoccupied, undomed cell adjacent to
where it arrived. Moving up onto level 3 wins at once (no build follows); a player who cannot move
on their turn loses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from games.base import Game, IllegalAction, Outcome

SIZE = 5
CELLS = SIZE * SIZE
DOME = 4  # a domed cell: height 4, never entered or built on
MARKS = ("X", "O")
NO_BUILD = -1  # build cell of a winning move: the game ends before the build


def cell_name(index: int) -> str:
    """Index 0 is a5 (top left), 24 is e1 (bottom right): rows printed top to bottom."""
    row, col = divmod(index, SIZE)
    return f"{'abcde'[col]}{SIZE - row}"


def cell_index(name: str) -> int:
    return (SIZE - int(name[1])) * SIZE + "abcde".index(name[0])


def _neighbours(index: int) -> tuple[int, ...]:
    row, col = divmod(index, SIZE)
    return tuple(
        r * SIZE + c
        for r in range(row - 1, row + 2)
        for c in range(col - 1, col + 2)
        if (r, c) != (row, col) and 0 <= r < SIZE and 0 <= c < SIZE
    )


NEIGHBOURS = tuple(_neighbours(i) for i in range(CELLS))
ADJACENT = tuple(frozenset(n) for n in NEIGHBOURS)
_CELL = re.compile(r"(?<![a-z])([a-e])([1-5])(?![0-9])")

Action = tuple[int, ...]  # (cell,) placement, or (worker cell, move cell, build cell or NO_BUILD)


@dataclass(frozen=True)
class SantoriniState:
    seed: int
    ply: int
    heights: tuple[int, ...]  # 25 cells: 0–3 levels, 4 = dome
    workers: tuple[int, ...]  # X's two workers then O's two; -1 while not placed
    last: tuple[int, ...] = ()  # the previous action, for highlighting


def winner_on_top(state: SantoriniState) -> int | None:
    """The seat with a worker on level 3 (only reachable by climbing there), if any."""
    for i, cell in enumerate(state.workers):
        if cell >= 0 and state.heights[cell] == 3:
            return i // 2
    return None


def can_move(heights: tuple[int, ...], workers: tuple[int, ...], seat: int) -> bool:
    """Whether `seat` has any move; a worker that moves can always build on the cell it left."""
    for cell in workers[2 * seat : 2 * seat + 2]:
        limit = heights[cell] + 1
        for n in NEIGHBOURS[cell]:
            if heights[n] <= limit and heights[n] != DOME and n not in workers:
                return True
    return False


def turns(heights: tuple[int, ...], workers: tuple[int, ...], seat: int) -> list[Action]:
    """Every (worker, move, build) turn for `seat`; a move onto level 3 is (worker, move, NO_BUILD)."""
    result: list[Action] = []
    for w in workers[2 * seat : 2 * seat + 2]:
        limit = heights[w] + 1
        others = [c for c in workers if c != w]
        for m in NEIGHBOURS[w]:
            h = heights[m]
            if h > limit or h == DOME or m in others:
                continue
            if h == 3:
                result.append((w, m, NO_BUILD))
                continue
            for b in NEIGHBOURS[m]:
                if heights[b] != DOME and b not in others:  # the vacated cell w is buildable
                    result.append((w, m, b))
    return result


class Santorini(Game[SantoriniState, Action]):
    slug = "santorini"
    name = "Santorini"
    seat_names = MARKS

    def initial_state(self, *, seed: int, **options: Any) -> SantoriniState:
        """Option `setup`: "place" (default; players place their workers) or "random" (drawn from the seed)."""
        setup = options.pop("setup", "place")
        if options:
            raise ValueError(f"santorini takes only the option setup, got {sorted(options)}")
        state = SantoriniState(seed=seed, ply=0, heights=(0,) * CELLS, workers=(-1,) * 4)
        if setup == "random":
            cells = self.rng(state).sample(range(CELLS), 4)
            return SantoriniState(seed=seed, ply=0, heights=state.heights, workers=tuple(cells))
        if setup != "place":
            raise ValueError(f"setup must be 'place' or 'random', got {setup!r}")
        return state

    def placing(self, state: SantoriniState) -> bool:
        return state.workers[3] < 0

    def current_player(self, state: SantoriniState) -> int | None:
        if self.placing(state):
            return state.ply // 2
        if winner_on_top(state) is not None:
            return None
        mover = state.ply % 2
        return mover if can_move(state.heights, state.workers, mover) else None

    def legal_actions(self, state: SantoriniState) -> list[Action]:
        mover = self.current_player(state)
        if mover is None:
            return []
        if self.placing(state):
            return [(i,) for i in range(CELLS) if i not in state.workers]
        return turns(state.heights, state.workers, mover)

    def is_legal(self, state: SantoriniState, action: Action) -> bool:
        mover = self.current_player(state)
        if mover is None or not isinstance(action, tuple) or not all(isinstance(c, int) for c in action):
            return False
        heights, workers = state.heights, state.workers
        if self.placing(state):
            return len(action) == 1 and 0 <= action[0] < CELLS and action[0] not in workers
        if len(action) != 3:
            return False
        w, m, b = action
        if w not in workers[2 * mover : 2 * mover + 2] or not 0 <= m < CELLS or m not in ADJACENT[w]:
            return False
        if heights[m] > heights[w] + 1 or heights[m] == DOME or m in workers:
            return False
        if heights[m] == 3:
            return b == NO_BUILD
        return 0 <= b < CELLS and b in ADJACENT[m] and heights[b] != DOME and (b == w or b not in workers)

    def apply(self, state: SantoriniState, action: Action) -> SantoriniState:
        self.require_legal(state, action)
        workers = list(state.workers)
        heights = state.heights
        if len(action) == 1:
            workers[workers.index(-1)] = action[0]
        else:
            w, m, b = action
            workers[workers.index(w)] = m
            if b != NO_BUILD:
                heights = (*heights[:b], heights[b] + 1, *heights[b + 1 :])
        return SantoriniState(seed=state.seed, ply=state.ply + 1, heights=heights, workers=tuple(workers), last=action)

    def outcome(self, state: SantoriniState) -> Outcome | None:
        if self.placing(state):
            return None
        top = winner_on_top(state)
        if top is not None:
            return Outcome.win(top, "climbed to level 3")
        mover = state.ply % 2
        if not can_move(state.heights, state.workers, mover):
            return Outcome.win(1 - mover, "opponent cannot move")
        return None

    def to_json(self, state: SantoriniState) -> dict[str, Any]:
        return {
            "seed": state.seed,
            "ply": state.ply,
            "heights": list(state.heights),
            "workers": list(state.workers),
            "last": list(state.last),
        }

    def from_json(self, data: dict[str, Any]) -> SantoriniState:
        return SantoriniState(
            seed=int(data["seed"]),
            ply=int(data["ply"]),
            heights=tuple(int(h) for h in data["heights"]),
            workers=tuple(int(w) for w in data["workers"]),
            last=tuple(int(c) for c in data.get("last", ())),
        )

    # -- notation ------------------------------------------------------------------------

    def action_to_text(self, state: SantoriniState, action: Action) -> str:
        """'place c3'; 'c3-d4^e5' (worker on c3 moves to d4, builds on e5); 'c3-d4' for a winning climb."""
        if len(action) == 1:
            return f"place {cell_name(action[0])}"
        w, m, b = action
        text = f"{cell_name(w)}-{cell_name(m)}"
        return text if b == NO_BUILD else f"{text}^{cell_name(b)}"

    def action_cells(self, state: SantoriniState, action: Action) -> tuple[str, ...]:
        return tuple(cell_name(c) for c in action if c != NO_BUILD)

    def parse_action(self, state: SantoriniState, text: str) -> Action:
        """Reads the cells named in order: 'place c3', 'c3', 'c3-d4^e5', 'c3 d4 e5', 'move c3 to d4 build e5'."""
        cells = tuple(cell_index(f"{c}{r}") for c, r in _CELL.findall(text.lower()))
        if self.placing(state):
            if len(cells) == 1:
                return cells
            raise IllegalAction(
                f"Could not read {text.strip()!r} as a placement; name one empty cell for your worker, e.g. place c3."
            )
        if len(cells) == 3:
            w, m, _b = cells
            if (w, m, NO_BUILD) in self.legal_actions(state):
                return (w, m, NO_BUILD)  # a winning climb ends the game before the build
            return cells
        if len(cells) == 2:
            return (*cells, NO_BUILD)
        raise IllegalAction(
            f"Could not read {text.strip()!r} as a turn; write worker cell, move cell and build cell, "
            "e.g. c3-d4^e5 (or just c3-d4 when that move climbs onto level 3)."
        )

    # -- text for people and models ------------------------------------------------------

    def rules_text(self) -> str:
        return (
            "Santorini (no god powers). Two players, X (first) and O, each have two workers on a 5×5 board of "
            "building levels 0–3. Setup: X places both workers on empty cells, then O places both. Then each "
            "turn you move one of your workers to an adjacent cell (8 directions) that has no worker and no "
            "dome and is at most one level higher than where it stands (it may drop any number of levels), "
            "then that worker builds on an adjacent cell with no worker and no dome: one level on 0–2, a dome "
            "on 3. You win at once by moving a worker up onto level 3. If you cannot move on your turn, you "
            "lose.\n"
            "Board encoding: five rows printed top to bottom (row 5 first), columns a–e left to right; each "
            "cell is its level 0–3 or D for a dome, followed by X or O for a worker or '.' for none "
            "(e.g. '2X' is an X worker on level 2).\n"
            "Answer during setup with 'place' and one empty cell, e.g. place c3. Answer a turn as worker "
            "cell-move cell^build cell, e.g. c3-d4^e5 (worker on c3 moves to d4 and builds on e5); a move "
            "onto level 3 wins and is written without a build, e.g. c3-d4."
        )

    def board_text(self, state: SantoriniState) -> str:
        rows = []
        for row in range(SIZE):
            cells = []
            for i in range(row * SIZE, row * SIZE + SIZE):
                height = "D" if state.heights[i] == DOME else str(state.heights[i])
                who = MARKS[state.workers.index(i) // 2] if i in state.workers else "."
                cells.append(height + who)
            rows.append(f"{SIZE - row} {' '.join(cells)}")
        return "\n".join([*rows, "  a  b  c  d  e"])

    def observation_text(self, state: SantoriniState, player: int) -> str:
        phase = "Setup: place a worker." if self.placing(state) else "Move and build."
        last = f" Last move: {self.action_to_text(state, state.last)}." if state.last else ""
        return f"You play {MARKS[player]}. Ply {state.ply + 1}. {phase}{last}\n{self.board_text(state)}"

    def player_view(self, state: SantoriniState, player: int | None) -> dict[str, Any]:
        """Adds the 25 cells with SVG coordinates, level, dome, worker and highlight of the last move."""
        last = {c for c in state.last if c != NO_BUILD}
        cells = []
        for i in range(CELLS):
            row, col = divmod(i, SIZE)
            height = state.heights[i]
            seat = state.workers.index(i) // 2 if i in state.workers else None
            worker = MARKS[seat] if seat is not None else ""
            level = "dome" if height == DOME else f"level {height}"
            label = f"{cell_name(i)}, {level}" + (f", {worker} worker" if worker else "")
            cells.append(
                {
                    "name": cell_name(i),
                    "x": col * 20,
                    "y": row * 20,
                    "height": min(height, 3),
                    # Nested squares, one per level, each smaller: inset and side in cell units (20).
                    "blocks": [
                        {"level": lv, "inset": 2 * lv - 0.5, "size": 21 - 4 * lv} for lv in range(1, min(height, 3) + 1)
                    ],
                    "dome": height == DOME,
                    "worker": worker,
                    "seat": seat if seat is not None else "",
                    "label": label,
                    "last": i in last,
                }
            )
        return {
            **self.to_json(state),
            "cells": cells,
            "placing": self.placing(state),
            "last_move": self.action_to_text(state, state.last) if state.last else "",
            "files": [{"text": "abcde"[c], "x": c * 20 + 10} for c in range(SIZE)],
            "ranks": [{"text": str(SIZE - r), "y": r * 20 + 10} for r in range(SIZE)],
        }
