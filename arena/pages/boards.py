"""Boards drawn in Python instead of a template, for the games whose board a live page redraws most.

A live game redraws its whole board after every move and a template spends a few microseconds per
node; connect-four's 42 cells cost about a millisecond through Django's template engine and a tenth
of that here. Every value from the view is escaped, exactly as the template engine would.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

_HOLE = '<g transform="translate({cx} {cy})" class="c4-cell"><circle class="c4-hole" r="40"/></g>'
_STONE = {
    "X": '<circle class="c4-stone c4-x" r="40"><title>{name}: X</title></circle>'
    '<path class="c4-x-mark" d="M-15 -15L15 15M15 -15L-15 15"/>',
    "O": '<circle class="c4-stone c4-o" r="40"><title>{name}: O</title></circle><circle class="c4-o-mark" r="17"/>',
}


def _connect_four_cell(cell: dict[str, Any]) -> str:
    if not cell["mark"]:
        return _HOLE.format(cx=cell["cx"], cy=cell["cy"])
    classes = "c4-cell" + (" c4-last" if cell["last"] else "") + (" c4-four" if cell["four"] else "")
    stone = _STONE["X" if cell["mark"] == "X" else "O"].format(name=escape(cell["name"]))
    ring = '<circle class="c4-ring" r="45"/>' if cell["last"] or cell["four"] else ""
    return f'<g transform="translate({cell["cx"]} {cell["cy"]})" class="{classes}">{stone}{ring}</g>'


def _connect_four_column(column: dict[str, Any]) -> str:
    name = escape(column["name"])
    if column["playable"]:
        opening = (
            f'<g class="c4-column c4-playable" data-cell="{name}" role="button" tabindex="0" '
            f'aria-label="Column {name}: drop a stone ({column["free"]} free)">'
        )
    else:
        full = "" if column["free"] else ", full"
        opening = f'<g class="c4-column" data-cell="{name}" aria-label="Column {name}{full}">'
    cells = "".join(_connect_four_cell(cell) for cell in column["cells"])
    return (
        f'{opening}<rect class="c4-hit" x="{column["x"]}" y="0" width="100" height="600"/>{cells}</g>'
        f'<text class="c4-label" x="{column["cx"]}" y="628" text-anchor="middle" aria-hidden="true">{name}</text>'
    )


def connect_four_board(view: dict[str, Any], seat: int | None) -> SafeString:
    """The connect-four board: one clickable column per data-cell (a–g), geometry from ConnectFour.player_view."""
    label = "Connect Four board"
    if view["to_move"]:
        label += f", {escape(view['to_move'])} to move"
    if view["last_move"]:
        label += f", last move {escape(view['last_move'])}"
    columns = "".join(_connect_four_column(column) for column in view["columns"])
    return mark_safe(  # every value from the view is escaped above
        f'\n<div class="board board-connect-four{"" if view["to_move"] else " c4-over"}">\n'
        f'  <svg viewBox="0 0 700 640" xmlns="http://www.w3.org/2000/svg" role="group"\n'
        f'       aria-label="{label}">\n'
        f'    <rect class="c4-frame" x="0" y="0" width="700" height="600" rx="16"/>\n'
        f"    {columns}\n"
        f"  </svg>\n</div>\n"
    )


#: Game slug -> its board drawn from (view, seat); every other game draws templates/games/<slug>/board.html.
PYTHON_BOARDS: dict[str, Callable[[dict[str, Any], int | None], SafeString]] = {"connect-four": connect_four_board}
