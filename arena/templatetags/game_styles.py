"""The stylesheets of the game a page shows (its `game` in the context), and none on pages without one."""

from __future__ import annotations

from django import template
from django.templatetags.static import static
from django.utils.html import format_html_join

from arena.pages.context_processors import game_stylesheets

register = template.Library()


@register.simple_tag(takes_context=True)
def game_stylesheet_links(context) -> str:
    """<link> tags for the page's game (a Game in the context as `game`); nothing when the page has none."""
    slug = getattr(context.get("game"), "slug", None)
    if not isinstance(slug, str):
        return ""
    return format_html_join(
        "", '<link rel="stylesheet" href="{}">', ((static(path),) for path in game_stylesheets(slug))
    )
