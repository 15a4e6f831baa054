"""Template context every page needs: the navigation; and the stylesheets of the game a page shows."""

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
def game_stylesheets(slug: str) -> tuple[str, ...]:
    """The stylesheets of the game `slug` that exist (a game may need none): its shared one first, then its own.
    Only pages that draw a game's board link them (templates/base.html, via `game.slug`); others load none."""
    game = next((g for g in all_games() if g.slug == slug), None)
    if game is None:
        return ()
    names = [name for name in (game.shared_stylesheet, game.slug) if name]
    return tuple(path for name in names if finders.find(path := f"games/{name}.css"))


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
    return {"nav_items": items}
