"""Template context every page needs: the navigation and the game stylesheets."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse

from games.registry import GAMES

# (label, url name); entries whose page is not installed are left out.
NAVIGATION = (
    ("Play", "play"),
    ("Leaderboards", "leaderboard"),
    ("Matches", "match-list"),
    ("Agents", "agent-list"),
    ("Analysis", "analysis"),
    ("Tournaments", "tournament-list"),
    ("Annotations", "annotation-list"),
    ("Games", "game-list"),
)


def site(request: HttpRequest) -> dict:
    items = []
    for label, name in NAVIGATION:
        try:
            url = reverse(name)
        except NoReverseMatch:
            continue
        items.append({"label": label, "url": url, "active": request.path.startswith(url)})
    return {"nav_items": items, "game_stylesheets": [f"games/{slug}.css" for slug in GAMES]}
