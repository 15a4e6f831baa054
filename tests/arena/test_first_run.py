"""The first run seeds a real record in the background: bot ladders ranked in level order."""

from __future__ import annotations

import io

import pytest
from asgiref.sync import async_to_sync
from django.core.management import call_command
from django_tasks_db.models import DBTaskResult

from arena.models import Match, Tournament
from arena.tournaments.run import run_tournament
from ratings.services import snapshot_refresh

pytestmark = pytest.mark.django_db

SEED = ["seed", "--game", "tic-tac-toe", "--no-demo"]


def test_the_first_run_queues_bounded_ladder_matches_behind_peoples_games_and_ranks_the_levels(
    client, django_capture_on_commit_callbacks
):
    out = io.StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        # Fixed seeds, asked for, make the ranking below reproducible; the first run's default is random seeds.
        call_command(*SEED, "--first-run-matches", "36", "--first-run-seed", "0", stdout=out)
    assert "first run: 36 bot matches queued for the worker" in out.getvalue()
    (tournament,) = Tournament.objects.filter(slug="first-run-tic-tac-toe")
    assert tournament.fixed_seeds
    assert tournament.matches.filter(status=Match.Status.PENDING).count() == 36  # queued, not played before start
    priorities = set(DBTaskResult.objects.filter(queue_name="matches").values_list("priority", flat=True))
    assert priorities == {-50}  # below a person's game (priority 0)
    assert "Seeding the first run: 0 / 36" in client.get("/").content.decode()

    async_to_sync(run_tournament)(tournament.pk)  # what the worker does, through the real runner
    assert "Seeding the first run" not in client.get("/leaderboard/tic-tac-toe/").content.decode()
    snapshot_refresh(game="tic-tac-toe")
    rows = client.get("/leaderboard/tic-tac-toe/?format=json&kind=bot").json()["rows"]
    levels = [r["slug"] for r in rows if r["ranked"]]
    assert levels == ["tic-tac-toe-lv2", "tic-tac-toe-lv1", "tic-tac-toe-lv0"]  # strongest first, all ranked
    assert next(r for r in rows if r["slug"] == "tic-tac-toe-lv0")["matches"] == 24

    call_command(*SEED, "--first-run-matches", "36", stdout=io.StringIO())
    assert Match.objects.count() == 36  # idempotent


def test_the_seeding_can_be_skipped(settings):
    settings.ARENA_SEED_MATCHES = 0  # from the environment through arena.config
    call_command(*SEED, stdout=io.StringIO())
    assert not Tournament.objects.exists()
    assert not Match.objects.exists()
