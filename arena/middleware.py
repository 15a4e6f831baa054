"""Turn a database outage into a clear 503 page instead of a server error."""

from __future__ import annotations

import logging

from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)


class DatabaseUnavailableMiddleware:
    """Requests that hit an unreachable database get 503 + Retry-After; nothing is half-written (atomic services)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, (OperationalError, InterfaceError)) or not _is_outage(exception):
            return None
        logger.warning("database unavailable for %s: %s", request.path, exception)
        response = HttpResponse(render_to_string("503.html", {}), status=503)
        response["Retry-After"] = "10"
        return response


def _is_outage(error: DatabaseError) -> bool:
    """Connection trouble (refused, closed, locked for too long), not a bug in a query."""
    text = str(error).lower()
    return isinstance(error, InterfaceError) or any(
        marker in text for marker in ("connect", "closed", "terminat", "locked", "unable to open", "timeout", "shut")
    )
