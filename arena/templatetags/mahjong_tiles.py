"""Mahjong tiles drawn as people know them: a rank or honour on a suit-coloured face, the code (W3) on hover."""

from __future__ import annotations

import re

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

_SUITS = {"W": ("characters", "char"), "T": ("bamboo", "bam"), "B": ("dots", "dot")}
_WINDS = ("East", "South", "West", "North")
_DRAGONS = (("Red", "mj-red"), ("Green", "mj-green"), ("White", "mj-white"))
_CODE = re.compile(r"\b([WTB][1-9]|F[1-4]|J[1-3]|H[1-8])\b")


def _face(code: str) -> tuple[str, str, str, str]:
    """(big mark, small caption, full name, colour class) of a tile code."""
    kind, number = code[0], int(code[1:])
    if kind in _SUITS:
        suit, short = _SUITS[kind]
        return str(number), short, f"{number} of {suit}", f"mj-{kind.lower()}"
    if kind == "F":
        wind = _WINDS[number - 1]
        return wind[0], "wind", f"{wind} wind", "mj-f"
    if kind == "J":
        dragon, colour = _DRAGONS[number - 1]
        return dragon[0], "dragon", f"{dragon} dragon", colour
    return f"✿{number}", "flower", f"flower {number}", "mj-h"


@register.filter
def tile_name(code: str) -> str:
    """'W3' → '3 of characters'; anything else unchanged."""
    return _face(code)[2] if _CODE.fullmatch(str(code)) else str(code)


def tile_face(code: str, *, small: bool = False) -> str:
    """The inner marks and the class and title of a tile, escaped."""
    mark, caption, full, colour = _face(code)
    return (
        f'{colour}{" mj-small" if small else ""}" title="{escape(code)}: {escape(full)}">'
        f'<b class="mj-mark" aria-hidden="true">{escape(mark)}</b><small class="mj-suit" aria-hidden="true">'
        f'{escape(caption)}</small><span class="mj-sr">{escape(full)}</span>'
    )


@register.filter
def tile(code: str, size: str = "") -> SafeString:
    """A tile code drawn as a tile face (`size` "small" for discards and melds); unknown text is escaped."""
    code = str(code)
    if not _CODE.fullmatch(code):
        return escape(code)
    return mark_safe(f'<span class="mj-tile {tile_face(code, small=size == "small")}</span>')


@register.filter
def tile_button(code: str) -> SafeString:
    """The viewer's tile as a button that discards it (data-cell is its code, which the legal moves name)."""
    code = str(code)
    label = f"discard {tile_name(code)} ({code})"
    return mark_safe(
        f'<button type="button" data-cell="{escape(code)}" aria-label="{escape(label)}" '
        f'class="mj-tile {tile_face(code)}</button>'
    )


@register.filter
def tiles_in(text: str) -> SafeString:
    """Escape `text`, then draw each tile code in it ('P2 discards W3') as a small tile face."""
    return mark_safe(_CODE.sub(lambda m: str(tile(m.group(), "small")), str(escape(text))))
