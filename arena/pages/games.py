"""The games pages: every game, and one game's rules, starting position and bot ladder."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from arena.pages.rendering import board_html
from games import UnknownGame, all_games, get_game
from games.bots import UnknownBot, ladder


def game_list(request: HttpRequest) -> HttpResponse:
    return render(request, "arena/game_list.html", {"games": all_games()})


def game_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """Rules, the starting position and the bot ladder of one game."""
    try:
        game = get_game(slug)
    except UnknownGame:
        raise Http404(f"No game called {slug!r}.") from None
    try:
        bots = ladder(slug)
    except UnknownBot:
        bots = []
    state = game.initial_state(seed=0)
    return render(
        request,
        "arena/game_detail.html",
        {
            "game": game,
            "board": board_html(game, state, None),  # an example start (seed 0), as a spectator sees it
            "bots": bots,
            # People's rules, one template per game next to its board (tests check every game has one).
            "how_to_play": f"games/{game.slug}/how_to_play.html",
        },
    )
