"""Template context every page needs: the navigation and the game stylesheets."""

from __future__ import annotations

from functools import cache

from django.contrib.staticfiles import finders
from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse

from games import all_games

# (label, url name); entries whose page is not installed are left out.
NAVIGATION = (
    ("Play", "play"),
    ("Leaderboards", "leaderboard"),
    ("Matches", "match-list"),
    ("Agents", "agent-list"),
    ("Analysis", "analysis"),
    ("Reports", "reports"),
    ("Tournaments", "tournament-list"),
    ("Annotations", "annotation-list"),
    ("Games", "game-list"),
)


@cache
def game_stylesheets() -> list[str]:
    """Each registered game's stylesheet that exists (a game may need none), shared ones once, first."""
    names = []
    for game in all_games():
        names += [name for name in (game.shared_stylesheet, game.slug) if name and name not in names]
    return [path for name in names if finders.find(path := f"games/{name}.css")]


def site(request: HttpRequest) -> dict:
    items = []
    for label, name in NAVIGATION:
        try:
            url = reverse(name)
        except NoReverseMatch:
            continue
        items.append({"label": label, "url": url, "active": request.path.startswith(url)})
    user = getattr(request, "user", None)
    if user is not None and user.is_staff:  # researchers' set-up and results pages
        items.append({"label": "Studies", "url": "/studies/", "active": request.path.startswith("/studies/")})
    return {"nav_items": items, "game_stylesheets": game_stylesheets()}
