"""The person behind a request: their seat agent, and what they may see."""

from __future__ import annotations

from django.http import HttpRequest

from arena.models import Agent
from arena.record.people import person_agent_for_user
from arena.record.visibility import Viewer


def current_person(request: HttpRequest) -> Agent | None:
    """The person's seat: their account's agent, or the guest agent kept in the session."""
    if request.user.is_authenticated:
        return person_agent_for_user(user=request.user)
    slug = request.session.get("guest_agent")
    return Agent.objects.filter(slug=slug, kind=Agent.Kind.HUMAN).first() if slug else None


def page_viewer(request: HttpRequest) -> Viewer:
    """Who is looking at a page, as arena.record.visibility asks: the person's seat agent and the staff flag."""
    return Viewer.of_person(current_person(request), staff=request.user.is_staff)
