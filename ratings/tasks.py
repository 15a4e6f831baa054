"""Background refresh of leaderboard snapshots (run by the worker after matches finish, or for a page)."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

from django.tasks import task

from arena.models import Match
from ratings.models import RatingSnapshot
from ratings.services import rating_key, snapshot_fail, snapshot_mark_stale, snapshot_open, snapshot_refresh


@task()
def refresh_ratings_task(game: str = "", filters: str = "") -> int:
    """Recompute one snapshot; returns the number of matches it covers. A failure is recorded on the snapshot."""
    if not RatingSnapshot.objects.filter(game=game, filters=filters).exists():
        return 0  # evicted while queued: nobody is waiting for it
    try:
        return snapshot_refresh(game=game, filters=dict(parse_qsl(filters))).matches
    except Exception as error:
        snapshot_fail(game=game, filters=filters, error=f"{type(error).__name__}: {error}")
        raise


def request_refresh(*, games: list[str]) -> None:
    """After matches in `games` finish: queue a refresh of each snapshot they change, unless one is pending."""
    scopes = {("", "")} | {(game, "") for game in games}
    scopes |= set(RatingSnapshot.objects.filter(game__in=["", *games]).values_list("game", "filters"))
    for game, filters in sorted(scopes):
        if snapshot_mark_stale(game=game, filters=filters):
            refresh_ratings_task.enqueue(game=game, filters=filters)


def snapshot_open_and_queue(*, game: str, filters: dict[str, str]) -> RatingSnapshot:
    """The snapshot a page shows; a missing one is created and its one refit queued (SnapshotsBusy when full)."""
    snapshot, created = snapshot_open(game=game, filters=filters)
    if created:
        refresh_ratings_task.enqueue(game=game, filters=snapshot.filters)
    return snapshot


def refresh_on_match_finished(sender: type, *, match: Match, **kwargs: Any) -> None:
    """`match_finished` receiver: leaderboards read cached snapshots, so a scored result queues their refresh."""
    if match.scores is not None:
        request_refresh(games=[rating_key(match.game, match.options)])
