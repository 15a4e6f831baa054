"""Filters for showing untrusted text (model output, names) as inert data."""

from __future__ import annotations

import re

from django import template

register = template.Library()

# C0 controls except tab and newline, and DEL: shown as their Unicode "control pictures".
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


@register.filter
def visible_controls(text: str) -> str:
    """Replace control characters with visible symbols (␀, ␇, ␛ …); escaping still happens afterwards."""
    return _CONTROLS.sub(lambda m: chr(0x2421) if m.group() == "\x7f" else chr(0x2400 + ord(m.group())), str(text))
