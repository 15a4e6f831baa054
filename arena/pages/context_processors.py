"""Template context every page needs: the navigation."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse

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
