"""Hive's texts for models and people: the rules (GameBench's Appendix J text first) and the observation."""

from __future__ import annotations

from games.hive.board import DIRECTIONS, QUEENS, Board, axial_of, cell_of
from games.hive.notation import PIECE_NAMES
from games.hive.state import COLOURS, MAX_PLIES, HiveState, board_of, hand_of

# GameBench (Appendix J) gave its models this text; what it leaves out follows it, then the notation.
GAMEBENCH_RULES = (
    "Hive is a bug-themed abstract strategy game. The object of Hive is to capture the opponent's queen bee by "
    "allowing it to become completely surrounded by pieces belonging to either player, while avoiding the capture "
    "of one's own queen. Tiles can be moved to other positions after being placed according to various rules, much "
    "like chess pieces.\n"
    "- Placing the Queen Bee: Players must place their Queen Bee by their fourth turn. Until then, they cannot move "
    "any placed pieces.\n"
    "- Queen Bee Movement: The Queen Bee can only move one space at a time around the hive.\n"
    "- Spider Movement: The Spider can move exactly three spaces.\n"
    "- Ant Movement: Able to move to any empty space around the hive as long as other movement rules are not "
    "violated.\n"
    "- Grasshopper Movement: The Grasshopper can jump over adjacent pieces, landing on the first empty space.\n"
    "- One Hive Rule: The tiles must always be connected; you cannot move a piece if it would break the hive into "
    "separate groups.\n"
    "- Freedom to Move: A piece can only move if it can physically slide to its new position without disturbing "
    "other tiles.\n"
    f"- Max Turns: The game ends after {MAX_PLIES} turns. If no Queen Bee is surrounded by the end of the game, the "
    "game is a draw."
)

RULES_TEXT = (
    GAMEBENCH_RULES + "\n\n"
    "The full rules played here (the base game, no expansion pieces): each side has a queen bee (Q), two spiders "
    "(S), two beetles (B), three grasshoppers (G) and three soldier ants (A). White moves first; a turn is one "
    "side's move and both sides' turns count towards the limit. A turn places a piece from your hand or moves one "
    "of your pieces. A placed piece must touch at least one of your pieces and none of your opponent's (only the "
    "top piece of a stack counts), except the first piece of each side. You may not place your queen on your first "
    "turn, and you must place it by your fourth. The spider moves exactly three steps without going back; the "
    "queen, spider and ant slide around the edge of the hive, staying in touch with it, and cannot squeeze "
    "between two pieces. The beetle moves one space in any direction and may climb on top of the hive; a piece "
    "under a beetle cannot move, and the stack counts as the colour of its top piece. Only the top piece of a "
    "stack moves. If you have no legal move you must pass. If both queens are surrounded at once, it is a draw.\n"
    "Board encoding: the hexes form rows running east–west; each piece is listed with its axial coordinates "
    "(q, r), where east is q+1, west q-1, south-east r+1, north-west r-1, north-east (q+1, r-1) and south-west "
    "(q-1, r+1). Pieces are named as in the Universal Hive Protocol (UHP): colour w/b, kind letter, number "
    "(wQ, wS1, bA3).\n"
    "Answer with one UHP move: the piece, a space, then where it goes, named from a piece next to that place: "
    "'-bQ' is west of bQ, 'bQ-' east, '/bQ' south-west, 'bQ/' north-east, '\\bQ' north-west, 'bQ\\' south-east, "
    "and 'bQ' alone is on top of it (beetles only). Examples: 'wA1 -bQ', 'bG2 wS1\\', 'wB1 bQ'. The very first "
    "move names only the piece (e.g. 'wA1'). Write 'pass' only when it is the only legal move."
)

_DIRECTION_WORDS = ("east", "south-east", "south-west", "west", "north-west", "north-east")


def _neighbour_words(board: Board, cell: int) -> str:
    """'next to wQ (east), bA1 (west)': what touches a cell, for models that reason in words."""
    parts = []
    for word, step in zip(_DIRECTION_WORDS, DIRECTIONS, strict=True):
        stack = board.stacks.get(cell + step)
        if stack:
            parts.append(f"{PIECE_NAMES[stack[-1]]} to the {word}")
    return ", ".join(parts) if parts else "nothing"


def observation_text(state: HiveState, player: int, legal_texts: list[str]) -> str:
    """The board as pieces with coordinates and neighbours, both hands, queens' free sides and the legal moves."""
    board = board_of(state)
    colour = COLOURS[player]
    lines = [f"You play {colour} (pieces starting with '{'wb'[player]}'). Turn {state.ply + 1} of at most {MAX_PLIES}."]
    if state.moves:
        shown = "; ".join(state.moves[-12:])
        lines.append(f"Moves so far (UHP): {shown}" + (" (the last 12)" if len(state.moves) > 12 else ""))
    if board.stacks:
        lines.append("Board (top piece first where pieces are stacked):")
        for cell in sorted(board.stacks, key=lambda c: axial_of(c)[::-1]):  # row by row, north to south
            stack = board.stacks[cell]
            q, r = axial_of(cell)
            names = " on ".join(PIECE_NAMES[p] for p in reversed(stack))
            lines.append(f"  {names} at ({q},{r}), touching {_neighbour_words(board, cell)}")
    else:
        lines.append("Board: empty.")
    for side in (player, 1 - player):
        hand = [PIECE_NAMES[p] for p in hand_of(state, side)]
        owner = "Your" if side == player else "Opponent's"
        lines.append(f"{owner} hand: {', '.join(hand) if hand else 'empty'}.")
    for side in (player, 1 - player):
        queen = state.pieces[QUEENS[side]]
        owner = "Your" if side == player else "Opponent's"
        if queen:
            q, r = queen[:2]
            free = sum(cell_of(q, r) + d not in board.stacks for d in DIRECTIONS)
            lines.append(f"{owner} queen is at ({q},{r}) with {free} of 6 sides free.")
        else:
            lines.append(f"{owner} queen is not placed yet.")
    if legal_texts:
        lines.append(f"Legal moves ({len(legal_texts)}): " + "; ".join(legal_texts))
    return "\n".join(lines)
