"""Leaderboard filters are checked before any work is queued; refits are coalesced and their snapshots bounded."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django_tasks_db.models import DBTaskResult

from arena.agents.llm import PROMPT_VERSION
from arena.models import Match
from arena.record.agents import bots_ensure
from arena.record.services import match_create
from arena.runner.loop import run_match
from ratings.record.models import RatingCount, RatingSnapshot
from ratings.record.tasks import refresh_ratings_task, request_refresh

pytestmark = pytest.mark.django_db


def queued_refits() -> int:
    return DBTaskResult.objects.filter(task_path__endswith="refresh_ratings_task").count()


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        ("since=2026-13-01", "since='2026-13-01' is not a date"),
        ("until=20260101", "until='20260101' is not a date"),
        ("since=yesterday", "since='yesterday' is not a date"),
        ("since=2026-02-01&until=2026-01-01", "is not before until=2026-01-01"),
        ("prompt=99", "prompt='99' is not known"),
        ("kind=robot", "kind='robot' is not known"),
        ("scaffold=magic", "scaffold='magic' is not known"),
        ("sort=height", "sort='height' is not known"),
        ("format=xml", "format='xml' is not known"),
    ],
)
def test_a_bad_filter_is_refused_with_its_reason_and_queues_nothing(client, query, reason):
    response = client.get(f"/leaderboard/tic-tac-toe/?{query}")
    assert response.status_code == 400
    assert reason.replace("'", "&#x27;") in response.content.decode()
    data = client.get(f"/leaderboard/?{query}", HTTP_ACCEPT="application/json")
    assert data.status_code == 400
    assert reason in data.json()["error"]
    assert queued_refits() == 0
    assert not RatingSnapshot.objects.exists()


def test_empty_filter_fields_mean_any(client):
    response = client.get("/leaderboard/?prompt=&since=&until=&scaffold=&kind=llm")
    assert response.status_code == 200
    assert RatingSnapshot.objects.get().filters == ""
    query = f"prompt={PROMPT_VERSION}&since=2026-01-01&until=2026-02-01"
    assert client.get(f"/leaderboard/?{query}&sort=-elo").status_code == 200
    assert RatingSnapshot.objects.filter(filters=query).exists()


def test_repeated_requests_for_one_filter_queue_one_refit(client):
    for _ in range(5):
        assert client.get("/leaderboard/tic-tac-toe/?since=2026-01-01").status_code == 200
    request_refresh(games=["tic-tac-toe"])  # a match finishing while the refit is still pending
    assert (
        DBTaskResult.objects.filter(
            task_path__endswith="refresh_ratings_task", args_kwargs__kwargs__filters="since=2026-01-01"
        ).count()
        == 1
    )


def test_eight_anonymous_clients_asking_for_new_filters_queue_at_most_the_default_allowance():
    answers = [Client().get(f"/leaderboard/?since=2026-03-0{day}").status_code for day in range(1, 9)]
    assert answers == [200] * 5 + [429] * 3
    assert queued_refits() == 5


@override_settings(ARENA_MAX_FILTERED_SNAPSHOTS=3, ARENA_BOOTSTRAP_ROUNDS=20, ARENA_RATE_LIMITS={"refit": (100, 600)})
def test_new_filters_queue_at_most_the_bound_and_evict_the_least_recently_used(client):
    answers = [client.get(f"/leaderboard/?since=2026-01-0{day}").status_code for day in range(1, 9)]
    assert answers == [200, 200, 200, 503, 503, 503, 503, 503]
    assert queued_refits() == 3
    assert RatingSnapshot.objects.exclude(filters="").count() == 3
    busy = client.get("/leaderboard/?since=2026-01-08")
    assert "still being computed" in busy.content.decode()
    assert busy["Retry-After"]
    for snapshot in RatingSnapshot.objects.exclude(filters=""):
        refresh_ratings_task.call(game=snapshot.game, filters=snapshot.filters)
    RatingSnapshot.objects.update(used_at=None)
    client.get("/leaderboard/?since=2026-01-01")  # read again: the most recently used
    assert client.get("/leaderboard/?since=2026-01-09").status_code == 200
    kept = set(RatingSnapshot.objects.exclude(filters="").values_list("filters", flat=True))
    assert len(kept) == 3
    assert {"since=2026-01-01", "since=2026-01-09"} <= kept
    assert queued_refits() == 4


@override_settings(ARENA_RATE_LIMITS={"refit": (2, 600)})
def test_one_client_asking_for_many_new_filters_is_slowed_down(client):
    statuses = [client.get(f"/leaderboard/?since=2026-02-0{day}").status_code for day in (1, 2, 3)]
    assert statuses == [200, 200, 429]
    assert queued_refits() == 2
    assert client.get("/leaderboard/?since=2026-02-01").status_code == 200  # already computed: no new work


def test_a_failed_refit_shows_its_error_and_the_page_stops_polling(client):
    body = client.get("/leaderboard/tic-tac-toe/?since=2026-01-01").content.decode()
    assert 'hx-trigger="every 3s"' in body
    with override_settings(ARENA_BOOTSTRAP_ROUNDS="many"), pytest.raises(ValueError):
        refresh_ratings_task.call(game="tic-tac-toe", filters="since=2026-01-01")
    body = client.get("/leaderboard/tic-tac-toe/?since=2026-01-01").content.decode()
    assert "Computing this leaderboard failed: ValueError" in body
    assert "every 3s" not in body
    assert "Computing this leaderboard (fit" not in body
    assert client.get("/leaderboard/tic-tac-toe/?since=2026-01-01&format=json").json()["error"].startswith("ValueError")
    request_refresh(games=["tic-tac-toe"])  # new results try again
    assert RatingSnapshot.objects.get(filters="since=2026-01-01").stale


def queued(task: str, game: str) -> int:
    return DBTaskResult.objects.filter(task_path__endswith=task, args_kwargs__kwargs__game=game).count()


@pytest.mark.django_db(transaction=True)
def test_matches_finishing_while_refits_are_pending_queue_nothing_more_and_read_one_row_set_each():
    bots = {a.slug: a for a in bots_ensure(game="tic-tac-toe")}
    agents = [bots["tic-tac-toe-lv1"], bots["tic-tac-toe-lv0"]]
    played = [match_create(game="tic-tac-toe", agents=agents, seed=seed) for seed in range(6)]
    async_to_sync(run_match)(played[0].pk)  # the first result queues a refit and a replay of each board
    refits = {game: queued("refresh_ratings_task", game) for game in ("", "tic-tac-toe")}
    assert refits == {"": 1, "tic-tac-toe": 1}
    assert queued("replay_ratings_task", "") == queued("replay_ratings_task", "tic-tac-toe") == 1
    for match in played[1:4]:  # more results while the worker has not started those: coalesced
        finished = async_to_sync(run_match)(match.pk)
        with CaptureQueriesContext(connection) as statements:
            request_refresh(games=["tic-tac-toe"])  # what the receiver asks, asked again: one read, no write
        assert [q["sql"].split()[0] for q in statements.captured_queries] == ["SELECT"]
        assert finished.status == Match.Status.FINISHED
    assert DBTaskResult.objects.count() == 4
    assert sum(RatingCount.objects.values_list("matches", flat=True)) == 4  # all in the cells the refit reads
    refresh_ratings_task.call(game="tic-tac-toe", filters="")  # the worker runs the refit: it takes the mark first
    async_to_sync(run_match)(played[4].pk)
    async_to_sync(run_match)(played[5].pk)
    assert queued("refresh_ratings_task", "tic-tac-toe") == 2  # exactly one more for the results since
    assert queued("refresh_ratings_task", "") == 1
    assert queued("replay_ratings_task", "tic-tac-toe") == 1  # its replay had not started: still the one
