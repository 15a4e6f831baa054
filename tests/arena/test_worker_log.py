"""A worker's console by default: warnings and failures, not a line for every match it starts and ends."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.sites import ROOT, Site

pytestmark = pytest.mark.slow


def test_a_worker_logs_each_match_only_when_asked_to(tmp_path):
    site = Site(tmp_path)
    site.migrate("tic-tac-toe")

    def run_two_matches(slug: str, *verbosity: str) -> str:
        site.manage(
            "tournament", "create", "--slug", slug, "--format", "round_robin", "--games", "tic-tac-toe",
            "--agents", "tic-tac-toe-lv0", "tic-tac-toe-lv1", "--games-per-seat", "1",
        )  # fmt: skip
        site.manage("tournament", "run", slug, "--enqueue")
        worker = subprocess.run(
            [sys.executable, "manage.py", "worker", "--queue-name", "matches", "--batch", "--interval", "0.1",
             "--no-startup-delay", "--no-reload", *verbosity],
            cwd=ROOT, env=site.env, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert worker.returncode == 0, worker.stderr
        assert site.status(slug)["status"] == "finished"
        return worker.stdout + worker.stderr

    assert "state=SUCCESSFUL" not in run_two_matches("quiet")
    assert run_two_matches("told", "-v", "2").count("state=SUCCESSFUL") == 2
