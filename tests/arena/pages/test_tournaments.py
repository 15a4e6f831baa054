"""A tournament's page shows its live progress, then its standings; staff create tournaments from the web, through the
tournament service."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from django_tasks_db.models import DBTaskResult

from arena.models import Match, Tournament
from arena.record.agents import bots_ensure
from arena.tournaments.run import run_tournament
from arena.tournaments.services import tournament_create

pytestmark = pytest.mark.django_db

FORM = {"name": "TTT levels", "slug": "ttt-levels", "format": "round_robin", "games": ["tic-tac-toe"],
        "agents": ["tic-tac-toe-lv0", "tic-tac-toe-lv1"], "games_per_seat": "2", "budget": "200"}  # fmt: skip


@pytest.fixture
def staff_client(client, django_user_model):
    bots_ensure(game="tic-tac-toe")
    client.force_login(django_user_model.objects.create_user("staff", password="pw-123456", is_staff=True))
    return client


def test_staff_create_a_tournament_that_is_queued_and_followed_live(staff_client, django_capture_on_commit_callbacks):
    assert "New tournament" in staff_client.get("/tournaments/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post("/tournaments/new/", FORM)
    assert response["Location"] == "/tournaments/ttt-levels/"
    tournament = Tournament.objects.get(slug="ttt-levels")
    assert tournament.matches.filter(status=Match.Status.PENDING).count() == 4  # 1 pair × 2 seeds × 2 seat orders
    assert DBTaskResult.objects.filter(queue_name="matches").count() == 4  # handed to the workers
    assert "0 of 4 matches done" in staff_client.get("/tournaments/ttt-levels/").content.decode()
    async_to_sync(run_tournament)(tournament.pk)  # what the workers do
    assert "4 of 4 matches done" in staff_client.get("/tournaments/ttt-levels/progress/").content.decode()


def test_the_form_plays_random_seeds_unless_a_fixed_first_seed_is_given(staff_client):
    staff_client.post("/tournaments/new/", FORM)
    assert not Tournament.objects.get(slug="ttt-levels").fixed_seeds
    assert min(Match.objects.values_list("seed", flat=True)) >= 2**31  # no small, guessable seed
    staff_client.post("/tournaments/new/", {**FORM, "slug": "repro", "first_seed": "7"})
    repro = Tournament.objects.get(slug="repro")
    assert sorted(set(repro.matches.values_list("seed", flat=True))) == [7, 8]
    assert "Fixed seeds:" in staff_client.get("/tournaments/repro/").content.decode()


def test_bad_input_is_explained_and_creates_nothing(staff_client):
    Tournament.objects.create(slug="ttt-levels", name="taken", format="round_robin", config={"games": [], "agents": []})
    body = staff_client.post("/tournaments/new/", FORM).content.decode()
    assert "A tournament called &#x27;ttt-levels&#x27; already exists." in body
    body = staff_client.post("/tournaments/new/", {**FORM, "slug": "other", "games_per_seat": "1000"}).content.decode()
    assert "less than or equal to 100" in body
    assert Tournament.objects.count() == 1
    assert not Match.objects.exists()


def test_only_staff_may_create(client, django_user_model):
    assert client.get("/tournaments/new/").status_code == 302
    assert "New tournament" not in client.get("/tournaments/").content.decode()
    client.force_login(django_user_model.objects.create_user("someone", password="pw-123456"))
    assert client.post("/tournaments/new/", FORM).status_code == 302
    assert not Tournament.objects.exists()


@pytest.mark.django_db(transaction=True)  # tournaments advance in on-commit callbacks
def test_tournament_page_shows_live_progress_then_standings(client, ttt_bots):
    tournament = tournament_create(
        slug="t1", name="T1", format="round_robin", games=["tic-tac-toe"],
        agents=[ttt_bots["tic-tac-toe-lv4"], ttt_bots["tic-tac-toe-lv0"]], games_per_seat=1, first_seed=0,
    )  # fmt: skip
    body = client.get("/tournaments/t1/").content.decode()
    assert "0 of 2 matches done" in body
    assert 'hx-trigger="every 2s"' in body
    async_to_sync(run_tournament)(tournament.pk)
    fragment = client.get("/tournaments/t1/progress/").content.decode()
    assert "2 of 2 matches done" in fragment
    assert "hx-trigger" not in fragment  # finished: the block stops polling
    assert "tic-tac-toe-lv4" in fragment
    assert "T1" in client.get("/tournaments/").content.decode()
