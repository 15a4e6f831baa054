"""Background refresh of leaderboard snapshots (run by the worker after matches finish)."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

from django.tasks import task

from arena.models import Match
from ratings.models import RatingSnapshot
from ratings.services import snapshot_refresh


@task()
def refresh_ratings_task(game: str = "", filters: str = "") -> int:
    """Recompute one snapshot; returns the number of matches it covers."""
    return snapshot_refresh(game=game, filters=dict(parse_qsl(filters))).matches


def request_refresh(*, games: list[str]) -> None:
    """After matches in `games` finish: queue a refresh of each snapshot they change, unless one is queued."""
    scopes = {("", "")} | {(game, "") for game in games}
    scopes |= set(RatingSnapshot.objects.filter(game__in=["", *games]).values_list("game", "filters"))
    already = set(RatingSnapshot.objects.filter(stale=True).values_list("game", "filters"))
    for game, filters in scopes - already:
        RatingSnapshot.objects.update_or_create(game=game, filters=filters, defaults={"stale": True})
        refresh_ratings_task.enqueue(game=game, filters=filters)


def refresh_on_match_finished(sender: type, *, match: Match, **kwargs: Any) -> None:
    """`match_finished` receiver: leaderboards read cached snapshots, so a scored result queues their refresh."""
    if match.scores is not None:
        request_refresh(games=[match.game])
