"""Stratego pieces: ranks, one-character codes, the army of 40, combat, and the bit-packed cell values.

Ranks follow the modern (ISF) numbering: 10 Marshal (highest) … 2 Scout, 1 Spy; Bombs and the
Flag have no number. A cell is an int: 0 when empty, else `1 + rank | owner << 4 | revealed << 5 |
moved << 6`, so a board is a plain tuple of 100 ints.
"""

from __future__ import annotations

FLAG, SPY, SCOUT, MINER, SERGEANT, LIEUTENANT, CAPTAIN, MAJOR, COLONEL, GENERAL, MARSHAL, BOMB = range(12)
UNKNOWN = 12  # a hidden piece as the other side sees it (games.stratego.Stratego.observed_board)
CODES = "FS23456789MB"  # index = rank
NAMES = (
    "Flag",
    "Spy",
    "Scout",
    "Miner",
    "Sergeant",
    "Lieutenant",
    "Captain",
    "Major",
    "Colonel",
    "General",
    "Marshal",
    "Bomb",
)
COUNTS = (1, 1, 8, 5, 4, 4, 4, 3, 2, 1, 1, 6)  # per rank: 40 pieces
ARMY = "".join(code * count for code, count in zip(CODES, COUNTS, strict=True))
IMMOBILE = (FLAG, BOMB)

EMPTY = 0
REVEALED = 32
MOVED = 64

# Combat results: which pieces leave the board.
ATTACKER_WINS, DEFENDER_WINS, BOTH_LOSE = "attacker", "defender", "both"


def piece(owner: int, rank: int, revealed: bool = False, moved: bool = False) -> int:
    return (1 + rank) | owner << 4 | (REVEALED if revealed else 0) | (MOVED if moved else 0)


def owner_of(cell: int) -> int:
    return (cell >> 4) & 1


def rank_of(cell: int) -> int:
    return (cell & 15) - 1


def is_revealed(cell: int) -> bool:
    return bool(cell & REVEALED)


def has_moved(cell: int) -> bool:
    return bool(cell & MOVED)


def label(rank: int) -> str:
    """'Colonel (8)', 'Bomb', 'Spy (S)'."""
    if rank in IMMOBILE:
        return NAMES[rank]
    return f"{NAMES[rank]} ({CODES[rank]})"


def combat(attacker: int, defender: int) -> str:
    """Who leaves the board when rank `attacker` strikes rank `defender`.

    The higher rank wins and equal ranks both go, except: anything captures the Flag; only a
    Miner defuses a Bomb (any other attacker is removed, the Bomb stays); a Spy that attacks the
    Marshal wins (a Marshal that attacks the Spy wins too, by rank).
    """
    if defender == FLAG:
        return ATTACKER_WINS
    if defender == BOMB:
        return ATTACKER_WINS if attacker == MINER else DEFENDER_WINS
    if attacker == SPY and defender == MARSHAL:
        return ATTACKER_WINS
    if attacker == defender:
        return BOTH_LOSE
    return ATTACKER_WINS if attacker > defender else DEFENDER_WINS
