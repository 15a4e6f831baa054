"""A study match whose model stalls is voided by a worker, with nobody opening a page: the participant's replay is
ready on their next visit and the export already says "void".

Over real HTTP on loopback: the scripted model server takes longer than the agent's timeout on every call."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from io import StringIO

import pytest
from asgiref.sync import async_to_sync
from django.core.management import call_command
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from arena.models import Decision, Match
from arena.runner.loop import run_match
from arena.studies.tasks import study_void_check_task
from tests.arena.llm.model_study import first_move_against
from tests.arena.llm.scripted_server import MODEL, ScriptedServer, slow
from tests.arena.test_studies import staff  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db(transaction=True)

VOID_AFTER_S = 10


def run_worker() -> None:
    """What a worker does with the queue: every task ready now, then stop."""
    call_command(
        "worker", "--queue-name", "matches", "--batch", "--max-in-flight", "1", "--interval", "0",
        "--no-startup-delay", stdout=StringIO(),
    )  # fmt: skip


def checks(match: Match):
    return DBTaskResult.objects.filter(task_path=study_void_check_task.module_path, args_kwargs__args__0=match.pk)


def test_a_worker_voids_a_stalled_models_match_without_anyone_opening_a_page(staff):  # noqa: F811
    with ScriptedServer(lambda body: slow(1.0)) as server:
        config = {"base_url": server.base_url, "model": MODEL, "timeout_s": 0.2, "provider_retries": 0}
        player, participant, match = first_move_against(
            config, study="stalls", opponent="stalling-model", name="Stalling model", void_after_s=VOID_AFTER_S
        )
        async_to_sync(run_match)(match.pk)  # the model's turn: every call times out, and the match pauses
        assert server.requests

    match.refresh_from_db()
    assert (match.status, match.paused_until is not None) == (Match.Status.RUNNING, True)
    [queued] = checks(match)  # queued as the model's turn began, for when it would count as stalled
    moved_at = Decision.objects.get(match=match).created_at
    assert moved_at + timedelta(seconds=VOID_AFTER_S - 1) < queued.run_after

    # Taken up early (a worker whose clock runs ahead): the opponent has not stalled yet, so it is checked again then.
    checks(match).update(run_after=timezone.now())
    run_worker()
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING
    again = checks(match).filter(status="READY").get()
    assert again.run_after == moved_at + timedelta(seconds=VOID_AFTER_S)

    # The model has not answered for VOID_AFTER_S: the worker voids the match. Nobody opens a study page.
    Decision.objects.filter(match=match).update(created_at=timezone.now() - timedelta(seconds=VOID_AFTER_S + 1))
    checks(match).filter(status="READY").update(run_after=timezone.now())
    run_worker()
    match.refresh_from_db()
    assert (match.status, match.termination) == (
        Match.Status.ABORTED,
        f"void: the opponent did not move for {VOID_AFTER_S} s",
    )
    assert match.scores is None
    assignment = participant.assignments.get()
    assert (assignment.match, assignment.void_matches) == (None, [str(match.uid)])  # free for the replay
    assert set(checks(match).values_list("status", flat=True)) == {"SUCCESSFUL"}

    rows = list(csv.DictReader(io.StringIO(staff.get("/studies/stalls/export/matches.csv").content.decode())))
    assert [(r["match_uid"], r["match_status"]) for r in rows] == [(str(match.uid), "void"), ("", "not started")]
    page = player.get("/studies/stalls/").content.decode()
    assert "it is void, and you play it again below" in page
