"""One worker process plays several model matches at once (`manage.py worker --max-in-flight`): the model's calls
overlap, and every decision and attempt is recorded exactly once.

Real processes on a real SQLite file, and a real OpenAI-compatible server on loopback that takes its time."""

from __future__ import annotations

import threading
import time

import pytest

from tests.arena.llm.scripted_server import ScriptedServer, first_legal_move
from tests.sites import Site

pytestmark = pytest.mark.slow


class SlowModel:
    """Answers each call after `delay_s` with the first legal move, counting the calls in flight at once."""

    def __init__(self, delay_s: float) -> None:
        self.delay_s = delay_s
        self.lock = threading.Lock()
        self.in_flight = 0
        self.peak = 0
        self.calls = 0

    def __call__(self, body: dict):
        with self.lock:
            self.in_flight += 1
            self.calls += 1
            self.peak = max(self.peak, self.in_flight)
        try:
            time.sleep(self.delay_s)
            return first_legal_move(body)
        finally:
            with self.lock:
                self.in_flight -= 1


def play_round_robin(site: Site, *agents: str, queue: str, in_flight: int) -> None:
    """Queue a tic-tac-toe round robin of `agents` (3 games per seat) and play the queue out with one worker."""
    site.manage(
        "tournament", "create", "--slug", "rr", "--format", "round_robin", "--games", "tic-tac-toe",
        "--agents", *agents, "--games-per-seat", "3",
    )  # fmt: skip
    site.manage("tournament", "run", "rr", "--enqueue")
    site.manage(
        "worker", "--queue-name", queue, "--max-in-flight", str(in_flight), "--batch", "--interval", "0.1",
        "--no-startup-delay", "--no-reload",
    )  # fmt: skip


def test_one_worker_runs_model_matches_side_by_side_and_records_each_decision_once(tmp_path):
    model = SlowModel(delay_s=0.3)
    with ScriptedServer(model, record=False) as server:
        site = Site(tmp_path / "site")
        site.migrate("tic-tac-toe")
        site.manage(
            "agents", "add", "--kind", "llm", "--slug", "slow-model", "--base-url", server.base_url,
            "--model", "scripted-model", "--scaffold", "direct", "--max-concurrency", "16",
        )  # fmt: skip
        play_round_robin(site, "slow-model", "tic-tac-toe-lv0", queue="matches", in_flight=6)
    assert site.status("rr")["status"] == "finished"
    results = site.results()  # asserts one decision per ply of every match
    assert len(results) == 6
    assert model.peak >= 2, "the worker never had two of its matches waiting on the model at once"
    # Every call the model answered is one attempt on record, none lost and none written twice.
    attempts = site.query("SELECT count(*), count(DISTINCT match_id || ':' || ply || ':' || number) FROM arena_attempt")
    assert attempts[0] == (model.calls, model.calls)
    runners = site.query("SELECT count(DISTINCT worker_ids) FROM django_tasks_database_dbtaskresult")
    assert runners[0][0] >= 2


def test_one_worker_runs_the_refits_its_matches_queue_beside_them(tmp_path):
    """Ratings refits are plain functions, not coroutines: the worker that plays the matches on its event loop runs
    the refits their results queue too, and the last one covers every match."""
    site = Site(tmp_path / "site")
    site.migrate("tic-tac-toe")
    play_round_robin(site, "tic-tac-toe-lv0", "tic-tac-toe-lv1", queue="*", in_flight=4)
    tasks = site.query("SELECT task_path, status FROM django_tasks_database_dbtaskresult")
    assert {status for _, status in tasks} == {"SUCCESSFUL"}
    assert any(path.endswith("refresh_ratings_task") for path, _ in tasks)
    assert site.query("SELECT matches FROM ratings_ratingsnapshot WHERE game = 'tic-tac-toe'") == [(6,)]


def test_a_task_whose_code_is_gone_is_recorded_failed_and_the_worker_plays_on(tmp_path):
    site = Site(tmp_path / "site")
    site.migrate("tic-tac-toe")
    site.manage(
        "shell", "-c",
        "from django_tasks_db.models import DBTaskResult; from arena.runner.tasks import run_match_task; "
        "DBTaskResult.objects.filter(pk=run_match_task.enqueue(1).id).update(task_path='arena.gone.task')",
    )  # fmt: skip
    play_round_robin(site, "tic-tac-toe-lv0", "tic-tac-toe-lv1", queue="*", in_flight=4)
    gone = site.query("SELECT status, exception_class_path FROM django_tasks_database_dbtaskresult "
                      "WHERE task_path = 'arena.gone.task'")  # fmt: skip
    assert gone == [("FAILED", "builtins.ModuleNotFoundError")]
    assert site.status("rr")["status"] == "finished"
    assert len(site.results()) == 6
