"""Annotations: annotating a move, deleting an annotation, and the list of everyone's annotations."""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from arena.models import Annotation, AnnotationTag, Decision
from arena.pages.people import page_viewer
from arena.pages.ratelimit import limited
from arena.pages.refusal import refusal
from arena.pages.rendering import annotations_html
from arena.record.annotations import annotation_agreement, annotation_delete, annotation_list, annotation_save
from arena.record.services import ServiceError
from arena.record.visibility import MatchView, Viewer, matches_visible_to
from games import all_games


@require_POST
def decision_annotate(request: HttpRequest, pk: int) -> HttpResponse:
    """Save the signed-in person's annotation of a decision; answers with the updated block."""
    if wait := limited(request, "annotate"):
        return refusal(request, status=429, message="You are annotating too quickly.", retry_after=wait)
    viewer = page_viewer(request)
    decision, shown = _decision_shown(viewer, pk)
    if not shown.annotatable(decision):
        raise Http404("No such move.")  # a move hidden from the viewer is not theirs to annotate, nor to probe
    error = ""
    try:
        annotation_save(
            author=request.user,
            decision=decision,
            glyph=request.POST.get("glyph", ""),
            tags=request.POST.getlist("tags"),
            comment=request.POST.get("comment", ""),
        )
    except ServiceError as problem:
        error = str(problem)
    return _annotations_response(request, shown, decision, error)


def _decision_shown(viewer: Viewer, pk: int) -> tuple[Decision, MatchView]:
    """A decision of a match `viewer` may know of, and their view of that match; 404 for any other."""
    decision = get_object_or_404(
        Decision.objects.filter(match__in=matches_visible_to(viewer).values("pk")).select_related("match"), pk=pk
    )
    return decision, MatchView.for_viewer(decision.match, viewer)


@require_POST
def annotation_delete_view(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = page_viewer(request)
    annotation = get_object_or_404(
        Annotation.objects.filter(decision__match__in=matches_visible_to(viewer).values("pk")), pk=pk
    )
    decision, shown = _decision_shown(viewer, annotation.decision_id)
    error = ""
    try:
        annotation_delete(annotation=annotation, by=request.user)
    except ServiceError as problem:
        error = str(problem)
    return _annotations_response(request, shown, decision, error)


def _annotations_response(request: HttpRequest, shown: MatchView, decision: Decision, error: str) -> HttpResponse:
    if request.htmx:
        return HttpResponse(annotations_html(shown, decision, request.user, error), status=400 if error else 200)
    if error:
        messages.error(request, error)
    return redirect(f"{reverse('match-detail', args=[decision.match_id])}?ply={decision.ply + 1}")


def annotation_list_view(request: HttpRequest) -> HttpResponse:
    filters = {key: request.GET.get(key, "") for key in ("game", "agent", "tag", "annotator")}
    viewer = page_viewer(request)
    annotations = annotation_list(viewer, **filters)
    page = Paginator(annotations, 50).get_page(request.GET.get("page"))
    views: dict[int, MatchView] = {}
    for annotation in page.object_list:
        decision = annotation.decision
        shown = views.setdefault(decision.match_id, MatchView.for_viewer(decision.match, viewer))
        annotation.hidden = shown.hides(decision)
        # The move as the move list names it (chess's SAN "Qb6", not the record's UCI "d8b6"); a plan stays its
        # text; a hidden one its public text, with nothing of who made it (its annotator included: their own move).
        annotation.move_label = shown.shown(decision).action_text
        if not annotation.hidden and not shown.game.document_actions:
            state = shown.game.from_json(decision.state_before)
            annotation.move_label = shown.game.action_label(state, shown.game.action_from_json(decision.action))
    context = {
        "page": page,
        "filters": filters,
        "agreement": annotation_agreement(annotations),
        "games": all_games(),
        "tags": AnnotationTag.objects.filter(is_active=True),
    }
    return render(request, "arena/annotation_list.html", context)
