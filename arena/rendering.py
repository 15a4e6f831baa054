"""HTML fragments shared by views and websocket consumers: one renderer per fragment."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

from arena.models import Tournament
from arena.selectors import tournament_progress
from games import Game


def board_html(game: Game, state: Any, seat: int | None) -> str:
    """The game's board as `seat` (None: a spectator) may see it."""
    return render_to_string(f"games/{game.slug}/board.html", {"view": game.player_view(state, seat), "seat": seat})


def tournament_progress_html(tournament: Tournament) -> str:
    """Progress bar and standings; polls itself every 2 s while the tournament runs."""
    progress = tournament_progress(tournament)
    percent = round(100 * progress["done"] / progress["total"]) if progress["total"] else 100
    live = tournament.status in (Tournament.Status.CREATED, Tournament.Status.RUNNING)
    return render_to_string(
        "arena/partials/tournament-progress.html",
        {"tournament": tournament, "progress": progress, "percent": percent, "live": live},
    )
