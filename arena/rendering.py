"""HTML fragments shared by views and websocket consumers: one renderer per fragment."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

from games import Game


def board_html(game: Game, state: Any, seat: int | None) -> str:
    """The game's board as `seat` (None: a spectator) may see it."""
    return render_to_string(f"games/{game.slug}/board.html", {"view": game.player_view(state, seat), "seat": seat})
