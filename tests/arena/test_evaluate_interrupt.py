"""One Ctrl-C on `manage.py evaluate --run` while a model thinks: it stops cleanly, and the match it was playing
waits for the next run as pending, not as running under a claim nobody holds."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

from tests.arena.llm.scripted_server import ScriptedServer, slow
from tests.sites import ROOT, Site

pytestmark = pytest.mark.slow


def ctrl_c_at_its_default() -> None:
    """In the child before it runs: SIGINT as a terminal's foreground job has it. A background job of a shell
    without job control (a script's `make test &`) ignores SIGINT, and every process it starts inherits that, so
    without this the Ctrl-C below would reach a run that ignores it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_one_ctrl_c_stops_the_run_and_hands_its_match_back(tmp_path):
    site = Site(tmp_path)
    site.migrate("tic-tac-toe")
    with ScriptedServer(lambda body: slow(600.0)) as server:  # a model that thinks for ten minutes
        site.manage(
            "agents", "add", "--kind", "llm", "--slug", "pondering", "--base-url", server.base_url,
            "--model", "scripted-model", "--timeout-s", "600",
        )  # fmt: skip
        run = subprocess.Popen(
            [sys.executable, "manage.py", "evaluate", "pondering", "--protocol", "botzonebench",
             "--games", "tic-tac-toe", "--games-per-seat", "1", "--max-in-flight", "2", "--run"],
            cwd=ROOT, env={**site.env, "PYTHONFAULTHANDLER": "1"}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, preexec_fn=ctrl_c_at_its_default,
        )  # fmt: skip
        try:
            server.until_busy(timeout_s=120)
            held = site.query("SELECT id FROM arena_match WHERE status = 'running' AND claimed_by != ''")
            assert held
            run.send_signal(signal.SIGINT)
            try:
                _out, err = run.communicate(timeout=120)  # not the model's ten minutes (a busy machine's margin)
            except subprocess.TimeoutExpired:
                run.send_signal(signal.SIGABRT)  # the fault handler prints where every thread is stuck
                pytest.fail(
                    f"the run did not stop within 120 s of Ctrl-C; its threads:\n{run.communicate()[1][-6000:]}"
                )
        finally:
            if run.poll() is None:
                run.kill()
                run.wait()
    assert run.returncode == 130
    assert "Traceback" not in err
    assert "interrupted: the matches in play are pending again" in err
    for (match_id,) in held:
        assert site.query(f"SELECT status, claimed_by FROM arena_match WHERE id = {match_id}") == [("pending", "")]
    assert not site.query("SELECT id FROM arena_match WHERE status = 'running'")
