"""A guest who then signs in to an existing account may merge the guest's games into it, after a confirm step."""

from __future__ import annotations

import pytest

from arena.models import Agent, Match, Seat
from arena.record.agents import bots_ensure
from arena.record.people import person_agent_for_user
from arena.record.services import decision_record
from arena.record.turns import match_claim
from ratings.record.models import RatingCell
from ratings.record.services import snapshot_refresh

pytestmark = pytest.mark.django_db

PASSWORD = "Sx9!long-pass"
TOP_ROW = [0, 3, 1, 4, 2]  # seat 0 (X) takes the top row and wins


@pytest.fixture
def account(django_user_model):
    user = django_user_model.objects.create_user("robin42", password=PASSWORD)
    return person_agent_for_user(user=user)


def _play_as_guest(client) -> Match:
    bots_ensure(game="tic-tac-toe")
    client.post("/play/", {"nickname": "Robin", "consent": "yes", "seat": "0", "time_limit": "",
                           "game": "tic-tac-toe", "opponent": "tic-tac-toe-lv0"})  # fmt: skip
    return Match.objects.get(seats__agent_version__agent__kind=Agent.Kind.HUMAN)


def _finish(match: Match) -> None:
    match = match_claim(match_id=match.pk, worker="w").match
    for ply, cell in enumerate(TOP_ROW):
        match = decision_record(match=match, ply=ply, action=cell)


def _sign_in(client, next_url: str = "/leaderboard/"):
    return client.post(f"/accounts/login/?next={next_url}", {"username": "robin42", "password": PASSWORD})


def test_signing_in_after_playing_as_a_guest_offers_the_merge_and_moves_the_games(
    client, account, django_capture_on_commit_callbacks
):
    match = _play_as_guest(client)
    guest = Agent.objects.get(kind=Agent.Kind.HUMAN, user__isnull=True)
    _finish(match)
    response = _sign_in(client)
    assert response.status_code == 302
    assert response["Location"] == "/accounts/merge-guest/?next=%2Fleaderboard%2F"
    page = client.get(response["Location"]).content.decode()
    assert "played 1 game in this browser as the guest <strong>Robin</strong>" in page
    assert "Merge into robin42" in page
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post("/accounts/merge-guest/", {"action": "merge", "next": "/leaderboard/"})
    assert done.status_code == 302
    assert done["Location"] == "/leaderboard/"
    assert not Agent.objects.filter(pk=guest.pk).exists()
    assert Seat.objects.get(match=match, index=0).agent_version.agent == account
    assert Agent.objects.get(pk=account.pk).baseline_consent is True  # the account never answered: the guest's
    rows = snapshot_refresh(game="tic-tac-toe").data["rows"]
    mine = next(r for r in rows if r["slug"] == account.slug)
    assert (mine["matches"], mine["wins"]) == (1, 1)
    assert not any(r["slug"] == guest.slug for r in rows)
    assert "(you)" in client.get(f"/play/{match.pk}/").content.decode()
    assert client.get("/accounts/merge-guest/").status_code == 302  # nothing left to merge


def test_a_merged_game_already_counted_into_the_rating_cells_moves_there_too(
    client, account, django_capture_on_commit_callbacks
):
    match = _play_as_guest(client)
    guest = Agent.objects.get(kind=Agent.Kind.HUMAN, user__isnull=True)
    with django_capture_on_commit_callbacks(execute=True):
        _finish(match)  # match_finished counts the guest's win into its cell at once
    (bot,) = Agent.objects.filter(slug="tic-tac-toe-lv0")
    assert list(RatingCell.objects.values_list("a", "b", "score", "weight")) == [(guest.pk, bot.pk, 1.0, 1.0)]
    _sign_in(client)
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/accounts/merge-guest/", {"action": "merge", "next": "/leaderboard/"})
    assert list(RatingCell.objects.values_list("a", "b", "score", "weight")) == [(account.pk, bot.pk, 1.0, 1.0)]
    rows = snapshot_refresh(game="tic-tac-toe").data["rows"]  # before: no cells left, so no rows at all
    mine = next(r for r in rows if r["slug"] == account.slug)
    assert (mine["matches"], mine["wins"]) == (1, 1)
    assert mine["rating"] > next(r for r in rows if r["slug"] == bot.slug)["rating"]


def test_an_unfinished_guest_game_is_not_merged_and_nothing_moves(client, account):
    match = _play_as_guest(client)
    guest = Agent.objects.get(kind=Agent.Kind.HUMAN, user__isnull=True)
    _sign_in(client)
    body = client.post("/accounts/merge-guest/", {"action": "merge"}, follow=True).content.decode()
    assert f"Finish or resign game {match.pk} first" in body
    assert Seat.objects.get(match=match, index=0).agent_version.agent == guest


def test_keeping_the_guest_apart_moves_nothing_and_asks_no_more(client, account):
    match = _play_as_guest(client)
    _finish(match)
    _sign_in(client)
    response = client.post("/accounts/merge-guest/", {"action": "keep", "next": "https://evil.example/"})
    assert response["Location"] == "/play/"  # an outside next is not followed
    guest = Agent.objects.get(kind=Agent.Kind.HUMAN, user__isnull=True)
    assert Seat.objects.get(match=match, index=0).agent_version.agent == guest
    assert client.get("/accounts/merge-guest/?next=/matches/")["Location"] == "/matches/"  # not asked again


def test_signing_in_without_guest_games_goes_straight_on(client, account):
    assert _sign_in(client)["Location"] == "/leaderboard/"
