"""A skirmish's state as an immutable value, and the game clock's rate in real-time mode."""

from __future__ import annotations

from dataclasses import dataclass

from games.skirmish.units import Unit


@dataclass(frozen=True)
class SkirmishState:
    seed: int
    ply: int
    terrain: str  # COLS×ROWS letters, column by column
    units: tuple[Unit, ...]  # living units, by id
    side: int
    turn: int  # rounds from 1; Red then Blue each round
    max_turns: int
    mode: str  # "turn-based" or "real-time"
    clock: int  # real-time: the current tick; turn-based: 0
    window_ticks: int
    failed: tuple[int, int]  # commands accepted but failed on execution (fog ambush, late arrival)
    spatial: tuple[int, int]  # of which caused by a spatial constraint (path blocked)
    log: tuple[tuple[int, int, str], ...]  # (turn, audience: -1 both sides or the side, text)
    winner: int  # -1 running, 0/1 a side, 2 draw
    reason: str


#: Real-time mode: game-clock ticks per second of an agent's thinking (a slow model acts less often).
TICKS_PER_SECOND = 1.0
