"""Services and reads for annotations: people's judgements of decisions."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db import transaction
from django.db.models import QuerySet

from arena.models import Agent, Annotation, AnnotationTag, Decision
from arena.record.services import ServiceError
from arena.record.visibility import MatchView, Viewer, matches_visible_to
from ratings.maths.agreement import fleiss_kappa, label_counts

MAX_COMMENT = 5000
NO_GLYPH = "(none)"


@transaction.atomic
def annotation_save(*, author, decision: Decision, glyph: str, tags: list[str], comment: str) -> Annotation:
    """Create or replace `author`'s annotation of `decision` (one per person per decision)."""
    if not author.is_authenticated:
        raise ServiceError("Log in to annotate.")
    viewer = Viewer.of_person(Agent.objects.filter(user=author).first(), staff=author.is_staff)
    match = matches_visible_to(viewer).filter(pk=decision.match_id).first()
    if match is None or not MatchView.for_viewer(match, viewer).annotatable(decision):
        raise ServiceError("This move stays hidden from you until the match ends; annotate it then.")
    if glyph not in {g for g, _ in Annotation.GLYPHS} | {""}:
        raise ServiceError(f"Unknown glyph {glyph!r}.")
    if len(comment) > MAX_COMMENT:
        raise ServiceError(f"Comments are at most {MAX_COMMENT} characters.")
    known = list(AnnotationTag.objects.filter(slug__in=tags, is_active=True))
    if len(known) != len(set(tags)):
        raise ServiceError("Unknown tag(s): " + ", ".join(sorted(set(tags) - {t.slug for t in known})) + ".")
    if not (glyph or known or comment.strip()):
        raise ServiceError("Give a glyph, a tag or a comment.")
    annotation, _ = Annotation.objects.update_or_create(
        decision=decision, author=author, defaults={"glyph": glyph, "comment": comment.strip()}
    )
    annotation.tags.set(known)
    return annotation


@transaction.atomic
def annotation_delete(*, annotation: Annotation, by) -> None:
    """Authors delete their own annotations; staff moderate anyone's."""
    if annotation.author_id != by.pk and not by.is_staff:
        raise ServiceError("You can only delete your own annotations.")
    annotation.delete()


def annotation_list(
    viewer: Viewer, *, game: str = "", agent: str = "", tag: str = "", annotator: str = ""
) -> QuerySet[Annotation]:
    """Annotations of the matches `viewer` may know of, newest first, filtered as the annotations page asks."""
    rows = Annotation.objects.select_related("decision__match", "author").prefetch_related("tags")
    rows = rows.filter(decision__match__in=matches_visible_to(viewer).values("pk"))
    if game:
        rows = rows.filter(decision__match__game=game)
    if agent:
        rows = rows.filter(decision__match__seats__agent_version__agent__slug=agent).distinct()
    if tag:
        rows = rows.filter(tags__slug=tag)
    if annotator:
        rows = rows.filter(author__username=annotator)
    return rows


def annotation_agreement(annotations: QuerySet[Annotation]) -> dict[str, Any]:
    """Fleiss' κ over glyphs and per tag, on decisions that two or more people annotated."""
    by_decision: dict[int, list[Annotation]] = defaultdict(list)
    for annotation in annotations.prefetch_related("tags"):
        by_decision[annotation.decision_id].append(annotation)
    shared = [group for group in by_decision.values() if len(group) >= 2]
    glyphs = [[a.glyph or NO_GLYPH for a in group] for group in shared]
    categories = [g for g, _ in Annotation.GLYPHS] + [NO_GLYPH]
    per_tag = {}
    for tag in AnnotationTag.objects.filter(is_active=True):
        labels = [[tag.slug in {t.slug for t in a.tags.all()} for a in group] for group in shared]
        per_tag[tag.label] = fleiss_kappa(label_counts(labels, [True, False])) if shared else None
    return {
        "decisions": len(shared),
        "glyph_kappa": fleiss_kappa(label_counts(glyphs, categories)) if shared else None,
        "tag_kappa": {label: kappa for label, kappa in per_tag.items() if kappa is not None},
    }
