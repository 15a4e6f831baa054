"""A read compiled once gives what the ORM's own read gives: the same row, fields and converted annotations."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from arena.models import Agent, Attempt, Decision, Match
from arena.record.agents import bots_ensure
from arena.record.compiled import rows_insert, rows_update
from arena.record.decisions import AttemptData
from arena.record.people import _MOVE_READ, guest_agent_create, person_match_create, person_move
from arena.record.services import LOCK_READ, attempt_record_rejected

pytestmark = pytest.mark.django_db


def _fields(match: Match) -> dict:
    return {field.attname: getattr(match, field.attname) for field in Match._meta.concrete_fields}


def test_a_moves_read_is_the_orms_with_its_clock_and_its_waiting_tries():
    bots_ensure(game="connect-four")
    person = guest_agent_create(nickname="Robin")
    opponent = Agent.objects.get(slug="connect-four-lv0")
    match = person_match_create(person=person, opponent=opponent, game="connect-four", seat=0)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.RUNNING, started_at=timezone.now())
    person_move(match_id=match.pk, agent=person, text="a", ply=0)  # the clock now runs from this move
    assert Match.objects.get(pk=match.pk).decisions.exists()
    for read in (_MOVE_READ, LOCK_READ):
        for tries in (False, True):
            if tries:
                attempt = AttemptData(verdict="illegal", raw_text="z")
                attempt_record_rejected(match=match, ply=1, seat=1, attempt=attempt)
            with transaction.atomic():
                orm, compiled = read.queryset.get(pk=match.pk), read.get(match.pk)
            assert _fields(compiled) == _fields(orm)
            assert compiled.tries_waiting is tries
            annotations = read.queryset.query.annotations
            assert {name: getattr(compiled, name) for name in annotations} == {
                name: getattr(orm, name) for name in annotations
            }
        match.attempts.all().delete()  # the next read starts without waiting tries again


def test_a_missing_row_raises_as_the_orms_get_does():
    with transaction.atomic(), pytest.raises(Match.DoesNotExist):
        LOCK_READ.get(10**9)


def test_a_written_update_stores_what_the_orms_would_and_only_where_its_conditions_hold():
    bots_ensure(game="connect-four")
    person = guest_agent_create(nickname="Robin")
    opponent = Agent.objects.get(slug="connect-four-lv0")
    match = person_match_create(person=person, opponent=opponent, game="connect-four", seat=0)
    now, state = timezone.now(), dict(match.state)  # the same position, written back as JSON (replays still check)
    values = {"state": state, "heartbeat_at": now, "pause": None, "claimed_by": "w:1"}
    assert rows_update(Match, where={"pk": match.pk, "ply": 1}, values=values) == 0  # not at ply 1: nothing written
    assert rows_update(Match, where={"pk": match.pk, "ply": 0, "claimed_by": ""}, values=values) == 1
    written = Match.objects.get(pk=match.pk)
    assert (written.state, written.heartbeat_at, written.pause, written.claimed_by) == (state, now, None, "w:1")
    # The same names again: the statement built for them binds these values.
    assert (
        rows_update(
            Match, where={"pk": match.pk, "ply": 0, "claimed_by": "w:1"}, values={**values, "claimed_by": "w:2"}
        )
        == 1
    )
    assert Match.objects.get(pk=match.pk).claimed_by == "w:2"


def test_written_inserts_give_each_row_its_key_and_time_and_refuse_a_duplicate():
    bots_ensure(game="connect-four")
    person = guest_agent_create(nickname="Robin")
    opponent = Agent.objects.get(slug="connect-four-lv0")
    match = person_match_create(person=person, opponent=opponent, game="connect-four", seat=0)
    made = [
        Decision(match=match, ply=ply, seat=ply % 2, state_before=match.state, action_text="a", action={"c": ply})
        for ply in (0, 1)
    ]
    rows_insert(made)
    stored = list(Decision.objects.filter(match=match).order_by("ply"))
    assert None not in [row.pk for row in made]
    assert [row.pk for row in stored] == [row.pk for row in made]
    assert [(row.created_at, row.action, row.state_before) for row in stored] == [
        (row.created_at, row.action, row.state_before) for row in made
    ]
    tries = [
        Attempt(match=match, ply=0, seat=0, number=1, decision=made[0], messages=[{"role": "user", "content": "é"}])
    ]
    rows_insert(tries)
    assert Attempt.objects.get(pk=tries[0].pk).messages == [{"role": "user", "content": "é"}]
    with pytest.raises(IntegrityError), transaction.atomic():
        rows_insert([Decision(match=match, ply=1, seat=1, state_before=match.state, action_text="b", action={})])
    Attempt.objects.filter(match=match).delete()  # made-up moves and tries: the replay check is not for them
    Decision.objects.filter(match=match).delete()
