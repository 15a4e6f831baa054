"""A Botzone program is seated only under rules Botzone's requests cover: a match, a tournament or a study that
would seat it in standard hold'em (or Mahjong) is refused when it is created, whoever creates it."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from arena.models import Agent, Match, Tournament
from arena.record.agents import agent_create, bots_ensure
from arena.record.services import ServiceError, match_create, variant_options
from arena.studies.models import Study
from arena.studies.services import study_save
from arena.tournaments.services import tournament_create

pytestmark = pytest.mark.django_db

REFUSED = "Botzone bot is a Botzone program and cannot play these rules."


@pytest.fixture
def program() -> Agent:
    bots_ensure(game="holdem")
    return agent_create(slug="bz", name="Botzone bot", kind="program", config={"command": "/bin/true"})


def test_a_match_seats_a_program_only_in_the_botzone_variant(program):
    bot = Agent.objects.get(slug="holdem-lv0")
    with pytest.raises(ServiceError, match=REFUSED) as refused:
        match_create(game="holdem", agents=[program, bot])
    assert "programs play hold'em's botzone variant" in str(refused.value)
    assert not Match.objects.exists()
    match = match_create(game="holdem", agents=[bot, program], options=variant_options("holdem", "botzone"))
    assert match.record["variant"] == "botzone"


@pytest.mark.parametrize("format", ["round_robin", "ladder"])
def test_a_tournament_that_would_seat_a_program_under_other_rules_is_refused(program, format):
    entrants = [program, Agent.objects.get(slug="holdem-lv1")] if format == "round_robin" else [program]
    with pytest.raises(ServiceError, match=REFUSED):
        tournament_create(slug="t", name="T", format=format, games=["holdem"], agents=entrants, games_per_seat=1)
    assert not Tournament.objects.exists()
    assert not Match.objects.exists()
    botzone = tournament_create(
        slug="t", name="T", format=format, games=["holdem"], agents=entrants, games_per_seat=1, variant="botzone"
    )
    assert botzone.matches.exists()


def test_the_command_line_and_a_studys_set_up_say_why(program):
    with pytest.raises(CommandError, match=REFUSED):
        call_command("play_match", "--game", "holdem", "--agents", "bz", "holdem-lv0", stdout=StringIO())
    fields = {
        "slug": "poker",
        "title": "Poker",
        "design": [{"game": "holdem", "opponents": ["bz"]}],
        "games_per_opponent": 1,
        "order": "fixed",
        "move_time_limit_s": None,
        "questionnaire": False,
        "completion_code": "C0DE",
        "max_participants": 10,
        "is_open": True,
    }
    with pytest.raises(ServiceError, match=f"holdem: {REFUSED}"):
        study_save(consent_text="Play poker.", **fields)
    assert not Study.objects.exists()
    botzone = [{"game": "holdem", "opponents": ["bz"], "options": variant_options("holdem", "botzone")}]
    assert study_save(consent_text="Play poker.", **{**fields, "design": botzone}).pk
