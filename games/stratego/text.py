"""Stratego as text for LLM prompts: the board as one seat sees it, and the rules."""

from __future__ import annotations

from games.stratego.pieces import CODES, COUNTS, NAMES, has_moved, is_revealed, owner_of, rank_of
from games.stratego.rules import FILES, LAKES

SIDE_LETTERS = ("r", "b")


def cell_text(cell: int, index: int, viewer: int | None) -> str:
    """Two characters: '..' empty, '~~' lake, 'r7' a known Red Major, 'b?' a hidden Blue piece, 'b+' one that moved."""
    if index in LAKES:
        return "~~"
    if not cell:
        return ".."
    owner = owner_of(cell)
    letter = SIDE_LETTERS[owner]
    if owner == viewer or is_revealed(cell):
        return letter + CODES[rank_of(cell)]
    return letter + ("+" if has_moved(cell) else "?")


def board_text(board: tuple[int, ...], viewer: int | None) -> str:
    """Ranks 10 (top, Blue's back row) to 1 (bottom, Red's back row), files a–j."""
    lines = []
    for row in range(9, -1, -1):
        cells = " ".join(cell_text(board[row * 10 + col], row * 10 + col, viewer) for col in range(10))
        lines.append(f"{row + 1:>2} {cells}")
    lines.append("   " + " ".join(f"{f} " for f in FILES))
    return "\n".join(lines)


def rules_text(max_play_plies: int, max_quiet_plies: int) -> str:
    army = ", ".join(f"{count} {NAMES[rank]} ({CODES[rank]})" for rank, count in enumerate(COUNTS))
    return (
        "Stratego for two players, Red (moves first, ranks 1–4) and Blue (ranks 7–10), on a 10×10 board with "
        "files a–j and ranks 1–10. The lakes c5 d5 g5 h5 c6 d6 g6 h6 cannot be entered or crossed. "
        f"Each side has 40 pieces: {army}. Higher numbers are stronger: Marshal (M, 10) > General (9) > … > "
        "Scout (2) > Spy (S, 1). You see your own pieces; the other side's ranks are hidden until they fight.\n"
        "Setup: Red then Blue places all 40 pieces on its four home ranks. Answer 'random' for a random setup, or "
        "40 piece codes listing your front rank first (Red: rank 4, then 3, 2, 1; Blue: rank 7, then 8, 9, 10), "
        "files a→j within a rank, optionally in four groups of ten joined by '/'.\n"
        "Moves: one piece one square up, down, left or right onto an empty square or an enemy piece (an attack). "
        "Scouts move any number of empty squares in a straight line and may attack at the end of that line. "
        "Bombs and the Flag never move. No piece may move back and forth between the same two squares more than "
        "three times in a row.\n"
        "Attacks: both ranks are revealed; the lower rank is removed, equal ranks are both removed. Exceptions: "
        "a Spy that attacks the Marshal wins (if the Marshal attacks, the Spy loses); any piece except a Miner "
        "that attacks a Bomb is removed (a Miner removes the Bomb); any piece that attacks the Flag captures it. "
        "A Scout that moves more than one square is revealed as a Scout.\n"
        "You win by capturing the enemy Flag, or when the enemy has no legal move on its turn. The game is a draw "
        f"after {max_play_plies // 2:,} moves each, or after {max_quiet_plies // 2} moves each without any attack.\n"
        "Board encoding: rank 10 at the top; '..' empty, '~~' lake, 'r' Red and 'b' Blue followed by the piece "
        "code when you know it, '?' for a hidden piece that has never moved and '+' for a hidden piece that has "
        "moved (so it is not a Bomb or the Flag).\n"
        "Answer a move as from-to squares, e.g. b4-b5 (or b4xb5 for an attack)."
    )
