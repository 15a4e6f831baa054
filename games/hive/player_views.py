"""What the Hive board template draws: hex cells with SVG centres, stacks, the empty cells a piece may go to, hands."""

from __future__ import annotations

import math
from typing import Any

from games.hive.board import DIRECTIONS, KIND_NAMES, ORIGIN, axial_of, colour_of, kind_of
from games.hive.notation import PIECE_NAMES
from games.hive.state import COLOURS, PASS, Action, HiveState, board_of, hand_of

RADIUS = 10  # SVG units from a hex's centre to a corner
_HEX_POINTS = " ".join(
    f"{RADIUS * math.cos(math.radians(30 + 60 * k)):.2f},{RADIUS * math.sin(math.radians(30 + 60 * k)):.2f}"
    for k in range(6)
)


def centre(q: int, r: int) -> tuple[float, float]:
    """Pointy-topped hexes: rows run east–west, each row shifted half a hex from the one above."""
    return round(RADIUS * math.sqrt(3) * (q + r / 2), 2), round(RADIUS * 1.5 * r, 2)


def _piece(piece: int) -> dict[str, Any]:
    return {"name": PIECE_NAMES[piece], "kind": kind_of(piece), "side": "wb"[colour_of(piece)]}


def board_view(state: HiveState, legal: list[Action]) -> dict[str, Any]:
    board = board_of(state)
    stacks = board.stacks
    empty = {cell + d for cell in stacks for d in DIRECTIONS} - stacks.keys()
    if not stacks:
        empty = {ORIGIN}
    last = {(state.last[i], state.last[i + 1]) for i in range(0, len(state.last), 2)}
    cells = []
    for cell in sorted(stacks.keys() | empty):
        q, r = axial_of(cell)
        x, y = centre(q, r)
        stack = stacks.get(cell, [])
        pieces = [_piece(p) for p in stack]
        if stack:
            top = stack[-1]
            under = f", on top of {', '.join(PIECE_NAMES[p] for p in reversed(stack[:-1]))}" if len(stack) > 1 else ""
            kind = f"{COLOURS[colour_of(top)].lower()} {KIND_NAMES[kind_of(top)]}"
            label = f"{PIECE_NAMES[top]}, {kind}{under} at {q},{r}"
        else:
            label = f"empty space at {q},{r}"
        cells.append(
            {
                "name": f"{q},{r}",
                "x": x,
                "y": y,
                "pieces": pieces,
                "top": pieces[-1] if pieces else None,
                "height": len(stack),
                "under": [p["name"] for p in pieces[:-1]],
                "label": label,
                "last": (q, r) in last,
            }
        )
    xs = [c["x"] for c in cells]
    ys = [c["y"] for c in cells]
    pad = RADIUS + 2
    width, height = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
    hands = []
    for colour in (0, 1):
        kinds: dict[str, list[int]] = {}
        for piece in hand_of(state, colour):
            kinds.setdefault(kind_of(piece), []).append(piece)
        hands.append(
            {
                "side": "wb"[colour],
                "colour": COLOURS[colour],
                "pieces": [
                    {
                        "cell": f"hand-{'wb'[colour]}{kind}",
                        "kind": kind,
                        "count": len(pieces),
                        "name": PIECE_NAMES[pieces[0]],
                        "label": f"{COLOURS[colour]} {KIND_NAMES[kind]} in hand ({len(pieces)} left)",
                    }
                    for kind, pieces in kinds.items()
                ],
            }
        )
    return {
        "cells": cells,
        "view_box": f"{min(xs) - pad:.1f} {min(ys) - pad:.1f} {width:.1f} {height:.1f}",
        "hex_points": _HEX_POINTS,
        "hands": hands,
        "must_pass": legal == [PASS],
        "last_move": state.moves[-1] if state.moves else "",
        "to_move": COLOURS[state.ply % 2],
    }
