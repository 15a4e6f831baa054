"""Leaderboard refits are coalesced (at most one pending refit and one pending replay per board, whatever fails or
arrives meanwhile) and a game's board is refitted first, ahead of the slower all-games board and the replays."""

from __future__ import annotations

import pytest
from django.tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from arena.record.agents import bots_ensure
from ratings.record.models import RatingSnapshot
from ratings.record.services import snapshot_fail, snapshot_refresh
from ratings.record.tasks import refresh_ratings_task, replay_ratings_task, request_refresh
from tests.arena.test_worker_resume import Site

pytestmark = pytest.mark.django_db


def waiting(task, game: str) -> int:
    """Tasks of `task` for `game`'s unfiltered board that wait for a worker."""
    queued = DBTaskResult.objects.filter(status=TaskResultStatus.READY, task_path=task.module_path)
    return sum(1 for kw in queued.values_list("args_kwargs__kwargs", flat=True) if kw == {"game": game, "filters": ""})


@pytest.mark.usefixtures("small_bootstrap")
def test_asking_again_while_a_refit_is_pending_queues_nothing_even_after_a_failure():
    bots_ensure(game="tic-tac-toe")
    snapshot_refresh(game="tic-tac-toe")
    for _ in range(5):  # five matches finishing before the worker gets to the board
        request_refresh(games=["tic-tac-toe"])
    assert (waiting(refresh_ratings_task, "tic-tac-toe"), waiting(replay_ratings_task, "tic-tac-toe")) == (1, 1)
    # A replay that started earlier fails now: its error is recorded, but the queued refit and replay stay pending,
    # so the next result does not queue a second of each (what left 10 + 10 waiting on one board).
    snapshot_fail(game="tic-tac-toe", filters="", error="KeyError: 0")
    request_refresh(games=["tic-tac-toe"])
    assert (waiting(refresh_ratings_task, "tic-tac-toe"), waiting(replay_ratings_task, "tic-tac-toe")) == (1, 1)
    assert RatingSnapshot.objects.get(game="tic-tac-toe").error == "KeyError: 0"


@pytest.mark.usefixtures("small_bootstrap")
def test_of_two_tasks_for_one_pending_refit_only_one_refits():
    bots_ensure(game="tic-tac-toe")
    snapshot_refresh(game="tic-tac-toe")
    request_refresh(games=["tic-tac-toe"])
    before = RatingSnapshot.objects.get(game="tic-tac-toe").computed_at
    assert refresh_ratings_task.call(game="tic-tac-toe", filters="") == 0  # the one that took the mark refits …
    refitted = RatingSnapshot.objects.get(game="tic-tac-toe").computed_at
    assert refitted > before
    assert refresh_ratings_task.call(game="tic-tac-toe", filters="") == 0  # … a duplicate finds nothing pending
    assert RatingSnapshot.objects.get(game="tic-tac-toe").computed_at == refitted


@pytest.mark.slow
def test_each_game_s_board_includes_its_match_after_the_refit_worker_s_next_tasks(tmp_path):
    """A Connect Four match ends (queueing the all-games board's and Connect Four's refits and replays), then a
    tic-tac-toe match: the refit worker's next two tasks are the two games' refits, ahead of the all-games board
    and the replays queued before them, so each game's board counts its match at once."""
    site = Site(tmp_path / "site")
    site.manage("migrate", "--noinput")
    site.manage("seed", "--no-demo", "--game", "tic-tac-toe", "--game", "connect-four")
    for game in ("", "tic-tac-toe", "connect-four"):
        site.manage("refresh_ratings", *(["--game", game] if game else []))
    site.manage("play_match", "--game", "connect-four", "--agents", "connect-four-lv1", "connect-four-lv0")
    site.manage("play_match", "--game", "tic-tac-toe", "--agents", "tic-tac-toe-lv1", "tic-tac-toe-lv0")
    waiting_now = site.query("SELECT count(*) FROM django_tasks_database_dbtaskresult WHERE status = 'READY'")
    assert waiting_now == [(6,)]  # refit and replay of all games, Connect Four and tic-tac-toe: one each
    site.manage(
        "worker", "--queue-name", "default", "--max-in-flight", "1", "--max-tasks", "2", "--batch",
        "--interval", "0.1", "--no-startup-delay", "--no-reload",
    )  # fmt: skip
    boards = "SELECT game, matches FROM ratings_ratingsnapshot WHERE game IN ('', 'tic-tac-toe', 'connect-four')"
    assert sorted(site.query(boards)) == [("", 0), ("connect-four", 1), ("tic-tac-toe", 1)]
