"""A match's players as lists of matches show them: a blinded study's opponents by their labels ("Opponent A"),
unlinked, to anyone but staff (docs/studies.md, "blind the opponents")."""

from __future__ import annotations

from django import template
from django.template.loader import get_template
from django.utils.html import format_html, format_html_join

from arena.models import Match

register = template.Library()


def blinded_label(label: str) -> str:
    """A seat shown by a label or a name alone: no kind, no link to a page that would say more."""
    return format_html('<span class="agent agent-blinded">{}</span>', label)


@register.simple_tag(takes_context=True)
def match_players(context: template.Context, match: Match) -> str:
    """The match's seats, "A vs B": agents linked to their pages, or a blinded study's seats by their labels (the
    participant's own by its name, unlinked: its page lists the opponents) unless the viewer is staff."""
    user = getattr(context.get("request"), "user", None)
    labels = {} if user is not None and user.is_staff else match.record.get("seat_labels") or {}
    link = get_template("arena/partials/agent-link.html")
    shown = [
        blinded_label(labels.get(str(seat.index), seat.agent_version.agent.name))
        if labels
        else link.render({"agent": seat.agent_version.agent})
        for seat in match.seats.all()
    ]
    return format_html_join(" vs ", "{}", ((part,) for part in shown))
