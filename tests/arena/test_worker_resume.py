"""A db_worker killed with SIGKILL mid-tournament: restart it and nothing is lost or doubled.

Real processes on a real SQLite file: manage.py commands and `db_worker`, as `make run` starts them.
"""

from __future__ import annotations

import signal
import time

import pytest

from tests.sites import Site

AGENTS = ["tic-tac-toe-lv0", "tic-tac-toe-lv1", "tic-tac-toe-lv2", "tic-tac-toe-lv3", "tic-tac-toe-lv4"]

pytestmark = pytest.mark.slow


class TournamentSite(Site):
    """A site holding one fixed-seed round robin of the tic-tac-toe ladder, `rr`."""

    def prepare(self) -> None:
        self.migrate("tic-tac-toe")
        # Fixed seeds, so the killed site replays the reference's deals.
        self.manage(
            "tournament", "create", "--slug", "rr", "--format", "round_robin", "--games", "tic-tac-toe",
            "--agents", *AGENTS, "--games-per-seat", "4", "--first-seed", "0",
        )  # fmt: skip


def wait_for(predicate, timeout: float = 240.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_killed_worker_resumes_with_identical_results(tmp_path):
    reference = TournamentSite(tmp_path / "reference")
    reference.prepare()
    reference.manage("tournament", "run", "rr")
    expected = reference.results()
    assert len(expected) == 10 * 8

    site = TournamentSite(tmp_path / "killed")
    site.prepare()
    site.manage("tournament", "run", "rr", "--enqueue")
    worker = site.worker()
    try:
        wait_for(lambda: site.query("SELECT count(*) FROM arena_match WHERE status='finished'")[0][0] >= 5)
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.wait()
    done_at_kill = site.query("SELECT count(*) FROM arena_match WHERE status='finished'")[0][0]
    assert done_at_kill < len(expected), "the worker finished everything before it could be killed"

    assert "enqueued" in site.manage("resume_matches", "--stale-after", "0")
    worker = site.worker()
    try:
        site.manage("tournament", "status", "rr", "--watch")  # one process following it to its end, not one a poll
    finally:
        worker.terminate()
        worker.wait(timeout=30)

    status = site.status("rr")
    assert (status["done"], status["aborted"]) == (len(expected), 0)
    assert site.results() == expected
    # No decision was stored twice: one row per (match, ply), plies contiguous from 0.
    (duplicates,) = site.query(
        "SELECT count(*) FROM (SELECT match_id, ply FROM arena_decision GROUP BY match_id, ply HAVING count(*) > 1)"
    )
    assert duplicates == (0,)
