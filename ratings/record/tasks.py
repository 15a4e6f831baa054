"""Background refresh of leaderboard snapshots (run by the worker after matches finish, or for a page)."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

from django.db import transaction
from django.tasks import task

from arena.models import Agent, Match
from ratings.record.models import RatingSnapshot
from ratings.record.rated_matches import rating_key
from ratings.record.services import (
    cells_add_finished,
    cells_agent_merge,
    cells_catch_up,
    snapshot_claim,
    snapshot_fail,
    snapshot_mark_stale,
    snapshot_open,
    snapshot_refit,
    snapshot_replay,
)


@task()
def refresh_ratings_task(game: str = "", filters: str = "") -> int:
    """Refit one snapshot's Bradley–Terry ratings from the cells; returns the number of matches it covers.
    A failure is recorded on the snapshot. A task finding no refit pending does nothing: another took it (a
    duplicate), or the snapshot was evicted while it waited."""
    if not snapshot_claim(game=game, filters=filters):
        return 0
    try:
        return snapshot_refit(game=game, filters=dict(parse_qsl(filters))).matches
    except Exception as error:
        snapshot_fail(game=game, filters=filters, error=f"{type(error).__name__}: {error}")
        raise


@task()
def replay_ratings_task(game: str = "", filters: str = "") -> int:
    """Replay the record for one snapshot's order-dependent columns (Elo, people, W/D/L, …), apart from the refit,
    which never waits for it; returns the snapshot's match count. A failure is recorded on the snapshot; a task
    finding no replay pending does nothing."""
    if not snapshot_claim(game=game, filters=filters, replay=True):
        return 0
    if cells_catch_up():  # matches no match_finished announced (an import): every snapshot must see them
        _queue(set(RatingSnapshot.objects.values_list("game", "filters")))
    try:
        return snapshot_replay(game=game, filters=dict(parse_qsl(filters))).matches
    except Exception as error:
        snapshot_fail(game=game, filters=filters, error=f"{type(error).__name__}: {error}")
        raise


def request_refresh(*, games: list[str]) -> None:
    """After matches in `games` finish: queue a refit and a replay of each snapshot they change, each unless one
    is pending (a refit that starts clears its flag, so results arriving meanwhile queue exactly one more). One
    read when all of them are pending already, as while matches finish faster than the worker refits."""
    scopes = RatingSnapshot.objects.filter(game__in=["", *games])
    flags = scopes.values_list("game", "filters", "stale", "replay_stale")
    pending = {(game, filters): stale and replay for game, filters, stale, replay in flags}
    wanted = {("", "")} | {(game, "") for game in games} | pending.keys()
    _queue({scope for scope in wanted if not pending.get(scope)})


#: The refit worker's order (django.tasks priority, higher first). A game's board refits in about a second from its
#: cells and is what a player who just finished looks at; the all-games board and the replays of the record take
#: longer, so they wait for the games' refits, not the other way round.
PRIORITY = {("game", "refit"): 30, ("game", "replay"): 20, ("all", "refit"): 10, ("all", "replay"): 0}


def _enqueue(*, game: str, filters: str, refit: bool, replay: bool) -> None:
    """Queue the scope's refit and/or replay at their priorities; the caller holds the pending marks."""
    scope = "game" if game else "all"
    if refit:
        refresh_ratings_task.using(priority=PRIORITY[scope, "refit"]).enqueue(game=game, filters=filters)
    if replay:
        replay_ratings_task.using(priority=PRIORITY[scope, "replay"]).enqueue(game=game, filters=filters)


def _queue(scopes: set[tuple[str, str]]) -> None:
    """Queue what each scope does not have pending yet: the mark is set by one conditional UPDATE, and only the
    caller that set it enqueues, so a scope never has two refits (or two replays) waiting."""
    for game, filters in sorted(scopes):
        refit, replay = snapshot_mark_stale(game=game, filters=filters)
        _enqueue(game=game, filters=filters, refit=refit, replay=replay)


def snapshot_open_and_queue(*, game: str, filters: dict[str, str]) -> RatingSnapshot:
    """The snapshot a page shows; a missing one is created and its one refit and replay queued (SnapshotsBusy
    when full)."""
    snapshot, created = snapshot_open(game=game, filters=filters)
    if created:
        _enqueue(game=game, filters=snapshot.filters, refit=True, replay=True)
    return snapshot


def refresh_on_match_finished(sender: type, *, match: Match, **kwargs: Any) -> None:
    """`match_finished` receiver: a scored result is counted into the rating cells (once, whoever asks again) and
    queues the refresh of the leaderboards it changes."""
    if match.scores is not None:
        cells_add_finished(match=match)
        request_refresh(games=[rating_key(match.game, match.options)])


def merge_on_agents_merged(sender: type, *, source: Agent, target: Agent, match_ids: list[int], **kwargs: Any) -> None:
    """`agents_merged` receiver: `source`'s rating cells become `target`'s, and once the merge commits the
    leaderboards of the merged matches' games refit."""
    games = sorted({rating_key(m.game, m.options) for m in Match.objects.filter(pk__in=match_ids)})
    cells_agent_merge(source=source, target=target)
    transaction.on_commit(lambda: request_refresh(games=games))
