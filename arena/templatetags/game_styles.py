"""The stylesheets of the game a page shows (its `game` in the context), and none on pages without one."""

from __future__ import annotations

from functools import cache

from django import template
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.utils.html import format_html_join

from games import all_games

register = template.Library()


@cache
def game_stylesheets(slug: str) -> tuple[str, ...]:
    """The stylesheets of the game `slug` that exist (a game may need none): its shared one first, then its own.
    Only pages that draw a game's board link them (templates/base.html, via `game.slug`); others load none."""
    game = next((g for g in all_games() if g.slug == slug), None)
    if game is None:
        return ()
    names = [name for name in (game.shared_stylesheet, game.slug) if name]
    return tuple(path for name in names if finders.find(path := f"games/{name}.css"))


@register.simple_tag(takes_context=True)
def game_stylesheet_links(context) -> str:
    """<link> tags for the page's game (a Game in the context as `game`); nothing when the page has none."""
    slug = getattr(context.get("game"), "slug", None)
    if not isinstance(slug, str):
        return ""
    return format_html_join(
        "", '<link rel="stylesheet" href="{}">', ((static(path),) for path in game_stylesheets(slug))
    )
