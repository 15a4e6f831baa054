"""Filters for showing untrusted text (model output, names) as inert data."""

from __future__ import annotations

import re

from django import template
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import mark_safe

from ratings.record.glossary import BY_SHORT, TERMS

register = template.Library()

# C0 controls except tab and newline, and DEL: shown as their Unicode "control pictures".
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


@register.filter
def visible_controls(text: str) -> str:
    """Replace control characters with visible symbols (␀, ␇, ␛ …); escaping still happens afterwards."""
    return _CONTROLS.sub(lambda m: chr(0x2421) if m.group() == "\x7f" else chr(0x2400 + ord(m.group())), str(text))


@register.filter
def percent(value: float | None, digits: int = 0) -> str:
    """0.123 → '12%' (or '12.3%' with digits=1); '—' for no value."""
    if value is None or value == "":
        return "—"
    return f"{float(value) * 100:.{int(digits)}f}%"


@register.filter
def get_item(mapping: dict, key: str):
    """mapping[key] in a template (None when missing)."""
    return mapping.get(key) if isinstance(mapping, dict) else None


# Acronyms the pages' headings use; single letters ("n", "r") and plain words are left alone: too common.
_ACRONYMS = [t.short for t in TERMS if t.short.isupper() or t.short in ("β", "Elo")]
_TERM_PATTERN = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, _ACRONYMS)) + r")(?!\w)")


@register.filter
def terms(text: str) -> str:
    """Escape `text`, then wrap each known acronym in <abbr title="its name"> linked to its glossary entry."""
    glossary = reverse("glossary")

    def wrap(match: re.Match) -> str:
        term = BY_SHORT[match.group()]
        return (
            f'<a class="term" href="{glossary}#{term.anchor}"><abbr title="{escape(term.name)}">'
            f"{escape(term.short)}</abbr></a>"
        )

    return mark_safe(_TERM_PATTERN.sub(wrap, str(escape(text))))  # escaped above; only our markup added
