"""The first run seeds a real record in the background: bot ladders ranked in level order."""

from __future__ import annotations

import io
import re

import pytest
from asgiref.sync import async_to_sync
from django.core.management import call_command
from django_tasks_db.models import DBTaskResult

from arena.config import Config
from arena.models import Match, Tournament
from arena.tournaments.first_run import (
    FIRST_RUN_GAMES_PER_SEAT,
    MEASURED_SCORES,
    first_run_games,
    first_run_matches,
    games_per_seat,
    separating_games_per_seat,
)
from arena.tournaments.run import run_tournament
from ratings.record.services import snapshot_refresh

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


def test_seed_then_resume_queues_each_match_once(django_capture_on_commit_callbacks):
    """`make run` runs `seed` then `resume_matches`: the seeded matches are queued by the first only."""
    with django_capture_on_commit_callbacks(execute=True):
        call_command(*SEED, "--first-run-matches", "12", stdout=io.StringIO())
    out = io.StringIO()
    call_command("resume_matches", "--stale-after", "0", stdout=out)
    assert "enqueued 0 matches (12 already queued)" in out.getvalue()
    queued = DBTaskResult.objects.filter(queue_name="matches").values_list("args_kwargs", flat=True)
    match_ids = sorted(task["args"][0] for task in queued)
    assert match_ids == sorted(Match.objects.values_list("pk", flat=True))  # 12 tasks, one per match
    assert len(match_ids) == 12


def test_every_first_run_game_has_a_measured_size_and_the_default_plays_them_all():
    assert set(FIRST_RUN_GAMES_PER_SEAT) == set(MEASURED_SCORES) == set(first_run_games())
    assert Config.seed_matches == first_run_matches() == 8832  # ARENA_SEED_MATCHES' default
    assert games_per_seat(["tic-tac-toe", "chess"], 8832) == {"tic-tac-toe": 72, "chess": 64}
    # A smaller cap scales every game down evenly: 136 seeds in all asked, 12 allowed (72 matches).
    assert games_per_seat(["tic-tac-toe", "chess"], 72) == {"tic-tac-toe": 6, "chess": 5}


def test_each_game_plays_the_seeds_its_measured_scores_call_for_to_separate_its_levels():
    """Every game, chess, Hive and Hold'em included, is sized so a fresh first run shows Lv0 < Lv1 < Lv2 apart
    (each adjacent pair 99.74% of the time: all 38 pairs of the 19 games 90% of the time)."""
    for game, scores in MEASURED_SCORES.items():
        needed = separating_games_per_seat(scores)
        assert needed is not None, game  # the levels are in order
        assert needed <= FIRST_RUN_GAMES_PER_SEAT[game] < needed + 8, game  # the rule's size, rounded up to 8s


def test_the_separating_size_follows_from_the_scores_fisher_information():
    """Worked by hand for levels one step of log-odds ln 3 apart, no draws (variance p(1−p)), so the model fits:
    per seed (two matches) Cov(s1, s2) = H⁻¹/2 with H = [[.375, −.1875], [−.1875, .2775]], so the standard
    errors are 1.419 (Lv1), 1.650 (Lv2) and 1.419 (the gap); Lv2 clears Lv1 with 2.79 standard errors of the gap
    to spare when √n·ln 3 ≥ 1.96·(1.419 + 1.650) + 2.79·1.419, n ≥ 82.4, and Lv1 clears Lv0 already at n ≥ 37.6."""
    assert separating_games_per_seat(((0.75, 0.1875), (0.9, 0.09), (0.75, 0.1875))) == 83
    # Draws shrink the spread of the scores, so the same means separate sooner.
    assert separating_games_per_seat(((0.75, 0.1), (0.9, 0.05), (0.75, 0.1))) < 83
    # Lv2 no better than Lv1: no size separates them.
    assert separating_games_per_seat(((0.75, 0.1875), (0.7, 0.21), (0.5, 0.25))) is None


def test_the_seeding_can_be_skipped(settings):
    settings.ARENA_SEED_MATCHES = 0  # from the environment through arena.config
    call_command(*SEED, stdout=io.StringIO())
    assert not Tournament.objects.exists()
    assert not Match.objects.exists()


def test_measuring_reports_the_levels_scores_and_the_size_they_call_for():
    out = io.StringIO()
    call_command("measure_first_run", "--game", "tic-tac-toe", "--games-per-seat", "4", "--rounds", "50", stdout=out)
    first, second, *figures = out.getvalue().splitlines()
    assert first.startswith("tic-tac-toe          4/seat   24 matches")
    # Each pair's eight matches, scored for the higher level: a mean of k/16 (draws score ½) to 3 places.
    pairs = re.findall(r"Lv(\d)-Lv(\d) (\d\.\d{3}) \(var (\d\.\d{3})\)", second)
    assert [(high, low) for high, low, _, _ in pairs] == [("1", "0"), ("2", "0"), ("2", "1")]
    assert all(abs(float(mean) * 16 - round(float(mean) * 16)) < 0.01 for _, _, mean, _ in pairs)
    assert re.search(r"separating size (\d+|never)$", second)
    assert figures[0] == "figure first_run_matches_at_4_per_seat 24 matches"
