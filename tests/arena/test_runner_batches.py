"""Bots' consecutive turns are recorded in batches: the same record as one by one, all or nothing, resumable."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap

import pytest
from asgiref.sync import async_to_sync
from django.db import connection
from django.test.utils import CaptureQueriesContext

from arena.agents.base import AttemptData, DecisionResult
from arena.models import Attempt, Decision, Match
from arena.record.agents import bots_ensure
from arena.record.selectors import match_replayed_state
from arena.record.services import ServiceError, attempt_record_rejected, decision_record, decisions_record, match_create
from arena.record.turns import match_claim
from arena.runner import loop
from games import IllegalAction
from tests.sites import ROOT, Site

TOP_ROW = [0, 3, 1, 4, 2]  # X takes the top row at ply 4


def _running(ttt_bots, seed=1) -> Match:
    match = match_create(game="tic-tac-toe", agents=[ttt_bots["tic-tac-toe-lv0"]] * 2, seed=seed)
    return match_claim(match_id=match.pk, worker="test").match


def _rows(match: Match) -> list[tuple]:
    return list(match.decisions.order_by("ply").values_list("ply", "seat", "action_text", "state_before"))


@pytest.mark.django_db
def test_a_batch_leaves_the_record_one_by_one_decisions_leave(ttt_bots):
    one_by_one = _running(ttt_bots)
    for ply, cell in enumerate(TOP_ROW):
        one_by_one = decision_record(match=one_by_one, ply=ply, action=cell, worker="test")
    batched = decisions_record(
        match=_running(ttt_bots), ply=0, decisions=[DecisionResult(action=cell) for cell in TOP_ROW], worker="test"
    ).match
    assert _rows(batched) == _rows(one_by_one)
    assert [row[2] for row in _rows(batched)] == ["a3", "a2", "b3", "b2", "c3"]
    assert (batched.status, batched.ply, batched.scores, batched.state) == (
        Match.Status.FINISHED, 5, [1.0, 0.0], one_by_one.state,
    )  # fmt: skip
    assert list(batched.seats.order_by("index").values_list("score", flat=True)) == [1.0, 0.0]
    assert batched.claimed_by == ""


@pytest.mark.django_db
def test_a_batch_is_recorded_whole_or_not_at_all(ttt_bots):
    match = _running(ttt_bots)
    with pytest.raises(IllegalAction):  # the third move takes a taken cell
        decisions_record(match=match, ply=0, decisions=[DecisionResult(action=c) for c in (0, 3, 0)], worker="test")
    with pytest.raises(ServiceError, match="ended at ply 5"):  # a move after the game is won
        decisions_record(match=match, ply=0, decisions=[DecisionResult(action=c) for c in [*TOP_ROW, 5]], worker="test")
    with pytest.raises(ServiceError, match="now run by test"):
        decisions_record(match=match, ply=0, decisions=[DecisionResult(action=0)], worker="someone-else")
    assert Decision.objects.count() == 0
    match.refresh_from_db()
    assert (match.ply, match.status) == (0, Match.Status.RUNNING)
    decisions_record(match=match, ply=0, decisions=[DecisionResult(action=0), DecisionResult(action=3)])
    with pytest.raises(ServiceError, match="stale"):
        decisions_record(match=match, ply=1, decisions=[DecisionResult(action=1)])
    assert list(Decision.objects.values_list("ply", "action_text")) == [(0, "a3"), (1, "a2")]


@pytest.mark.django_db
def test_tries_turned_down_earlier_belong_to_the_first_decision_of_a_batch(ttt_bots):
    match = _running(ttt_bots)
    for text in ("z9", "b2b2"):
        attempt_record_rejected(match=match, ply=0, seat=0, attempt=AttemptData(verdict="illegal", raw_text=text))
    decisions = [
        DecisionResult(action=4, attempts=[AttemptData(verdict="ok", raw_text="b2")]),
        DecisionResult(
            action=0, attempts=[AttemptData(verdict="unparseable", raw_text="?"), AttemptData(verdict="ok")]
        ),
    ]
    decisions_record(match=match, ply=0, decisions=decisions)
    stored = Attempt.objects.order_by("ply", "number").values_list("ply", "number", "raw_text", "decision__ply")
    assert list(stored) == [(0, 1, "z9", 0), (0, 2, "b2b2", 0), (0, 3, "b2", 0), (1, 1, "?", 1), (1, 2, "", 1)]


@pytest.fixture
def connect_four_lv0(db):
    return bots_ensure(game="connect-four")[0]


@pytest.mark.django_db
def test_a_bots_match_costs_a_bounded_number_of_statements_however_long(connect_four_lv0):
    """A whole connect-four match between bots: its statements do not grow with its decisions (one batch)."""
    match = match_create(game="connect-four", agents=[connect_four_lv0] * 2, seed=3)
    with CaptureQueriesContext(connection) as queries:
        finished = async_to_sync(loop.run_match)(match.pk)
    assert finished.status == Match.Status.FINISHED
    assert finished.ply >= 20
    assert finished.decisions.count() == finished.ply
    statements = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    # The claim (read, write), the seats, then one batch: lock the match (and see whether tries were turned down
    # at its ply: none), store the decisions, write the match and its seats' scores. (match_finished's listeners
    # run on commit, which a test's transaction never reaches.) Before batches: five statements per decision.
    assert len(statements) <= 7, "\n".join(sql[:120] for sql in statements)


@pytest.mark.django_db
def test_where_batches_are_cut_changes_nothing_in_the_game(connect_four_lv0, monkeypatch):
    whole = async_to_sync(loop.run_match)(match_create(game="connect-four", agents=[connect_four_lv0] * 2, seed=7).pk)
    monkeypatch.setattr(loop, "BATCH_MAX_DECISIONS", 3)
    cut = async_to_sync(loop.run_match)(match_create(game="connect-four", agents=[connect_four_lv0] * 2, seed=7).pk)
    assert _rows(cut) == _rows(whole)
    assert (cut.scores, cut.state) == (whole.scores, whole.state)
    assert match_replayed_state(cut) is not None


#: A worker that records bots' turns in batches of 4 and dies (SIGKILL) deciding ply 9, mid-way through its third
#: batch: plies 8-11 were decided in part and never committed.
DOOMED_RUN = """
import os, signal
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")
import django
django.setup()
from asgiref.sync import async_to_sync
from arena.agents.bots import BotAgent
from arena.record.agents import bots_ensure
from arena.record.services import match_create
from arena.runner import loop

lv0 = bots_ensure(game="connect-four")[0]
for _ in range(2):
    match_create(game="connect-four", agents=[lv0, lv0], seed=11)
async_to_sync(loop.run_match)(1, worker="reference")
choose = BotAgent.choose

def choose_or_die(self, game, state, seat, seed):
    if state.ply == 9:
        os.kill(os.getpid(), signal.SIGKILL)
    return choose(self, game, state, seat, seed)

BotAgent.choose = choose_or_die
loop.BATCH_MAX_DECISIONS, loop.BATCH_MAX_SECONDS = 4, 3600.0  # cut by count only
async_to_sync(loop.run_match)(2, worker="doomed")
"""

RESUME = """
import os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")
import django
django.setup()
from asgiref.sync import async_to_sync
from arena.record.turns import match_release_stale
from arena.runner.loop import run_match

assert match_release_stale(stale_after_s=0) == [2]
async_to_sync(run_match)(2, worker="next")
"""


@pytest.mark.slow
def test_a_worker_killed_mid_batch_resumes_to_the_same_game(tmp_path):
    site = Site(tmp_path)
    site.migrate()

    def python(code: str) -> int:
        run = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, env=site.env, timeout=300)
        return run.returncode

    assert python(DOOMED_RUN) == -signal.SIGKILL
    # What the dead worker committed: two whole batches, nothing of the third.
    assert site.query("SELECT ply, status, claimed_by FROM arena_match WHERE id=2") == [(8, "running", "doomed")]
    assert site.query("SELECT max(ply), count(*) FROM arena_decision WHERE match_id=2") == [(7, 8)]
    assert python(RESUME) == 0

    def record(match_id: int) -> list[tuple]:
        return site.query(
            f"SELECT ply, seat, action_text, state_before FROM arena_decision WHERE match_id={match_id} ORDER BY ply"
        )

    assert len(record(1)) > 9
    assert record(2) == record(1)
    assert site.query("SELECT status, scores, state FROM arena_match WHERE id=2") == site.query(
        "SELECT status, scores, state FROM arena_match WHERE id=1"
    )
