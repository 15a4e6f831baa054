"""A person's game nobody moves in is adjourned, then ended by the rules; it stops being listed as live."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from arena.models import Match
from arena.record.agents import bots_ensure
from arena.record.people import guest_agent_create
from arena.record.services import match_create
from arena.record.turns import match_claim

pytestmark = pytest.mark.django_db


@pytest.fixture
def bot():
    return next(a for a in bots_ensure(game="tic-tac-toe") if a.slug == "tic-tac-toe-lv0")


def idle_for(match: Match, minutes: int) -> None:
    Match.objects.filter(pk=match.pk).update(created_at=timezone.now() - timedelta(minutes=minutes))


def test_a_game_waiting_on_a_person_is_adjourned_then_ended_with_the_absent_side_losing(client, bot):
    person = guest_agent_create(nickname="Robin")
    match = match_create(game="tic-tac-toe", agents=[person, bot], seed=1)
    listed = client.get("/matches/").content.decode()
    assert "Adjourned" not in listed
    idle_for(match, 20)  # past ARENA_ADJOURN_AFTER_S (10 min), not ARENA_ABANDON_AFTER_S (60 min)
    assert "Adjourned</span>" in client.get("/matches/").content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.PENDING
    idle_for(match, 61)
    client.get("/matches/")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.scores == [0.0, 1.0]
    assert match.termination == "abandoned (no move for 60 min) by seat 0"
    assert "abandoned (no move for 60 min) by Robin." in client.get(f"/matches/{match.pk}/").content.decode()


def test_a_game_a_worker_is_playing_or_a_recent_one_is_left_alone(bot):
    person = guest_agent_create(nickname="Robin")
    thinking = match_create(game="tic-tac-toe", agents=[bot, person], seed=1)
    match_claim(match_id=thinking.pk, worker="w")  # the bot is to move and a worker holds the match
    recent = match_create(game="tic-tac-toe", agents=[person, bot], seed=2)
    bots_only = match_create(game="tic-tac-toe", agents=[bot, bot], seed=3)
    for match in (thinking, bots_only):
        idle_for(match, 120)
    call_command("resume_matches", "--stale-after", "1000000")
    statuses = dict(Match.objects.values_list("pk", "status"))
    assert statuses[thinking.pk] == Match.Status.RUNNING
    assert statuses[recent.pk] == Match.Status.PENDING
    assert statuses[bots_only.pk] == Match.Status.PENDING
