"""How a refused request is answered: the reason in a short page, or in JSON for JSON clients."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

TITLES = {400: "This request cannot be answered", 429: "Too many requests", 503: "Busy right now"}


def refusal(request: HttpRequest, *, status: int, message: str, retry_after: int = 0) -> HttpResponse:
    """`status` with `message`: JSON for JSON clients (?format=json or Accept), else a page; Retry-After if set."""
    if request.GET.get("format") == "json" or request.headers.get("Accept", "").startswith("application/json"):
        response: HttpResponse = JsonResponse({"error": message, "retry_after": retry_after or None}, status=status)
    else:
        context = {"title": TITLES.get(status, "Refused"), "message": message, "retry_after": retry_after}
        response = render(request, "refused.html", context, status=status)
    if retry_after:
        response["Retry-After"] = str(retry_after)
    return response
