"""The research dataset download."""

from __future__ import annotations

from django.http import FileResponse, HttpRequest, HttpResponse

from arena.models import Agent, Tournament
from arena.pages.ratelimit import limited
from arena.pages.refusal import refusal
from arena.record.dataset import cached_export
from games import all_games


def dataset_download(request: HttpRequest) -> HttpResponse:
    """The research dataset (JSONL, manifest first) for the filters given, streamed from the export cache."""
    filters = {key: request.GET.get(key, "") for key in ("game", "agent", "tournament") if request.GET.get(key)}
    known = {
        "game": lambda slug: slug in {g.slug for g in all_games()},
        "agent": lambda slug: Agent.objects.filter(slug=slug).exists(),
        "tournament": lambda slug: Tournament.objects.filter(slug=slug).exists(),
    }
    for key, value in filters.items():
        if not known[key](value):
            return refusal(request, status=400, message=f"{key}={value[:40]!r} is not known here; no such {key}.")
    if wait := limited(request, "dataset"):
        return refusal(request, status=429, message="Too many dataset downloads from here.", retry_after=wait)
    return FileResponse(
        cached_export(filters=filters),
        as_attachment=True,
        filename="arena-dataset.jsonl",
        content_type="application/x-ndjson; charset=utf-8",
    )
