"""Who may move a match, read from one module: the claim's results and the hand-over a write makes."""

from __future__ import annotations

import pytest
from django.utils import timezone

from arena.models import Match
from arena.record.people import person_agent_for_user
from arena.record.services import match_create, match_resign
from arena.record.turns import (
    AwaitingPerson,
    ByHolder,
    ByPerson,
    Claimed,
    Refused,
    holder_after,
    match_claim,
    needs_runner,
)

pytestmark = pytest.mark.django_db


def _bots_match(ttt_bots) -> Match:
    return match_create(game="tic-tac-toe", agents=[ttt_bots["tic-tac-toe-lv0"], ttt_bots["tic-tac-toe-lv1"]], seed=3)


def test_a_claim_says_whether_it_started_the_match_and_who_may_not_run_it(ttt_bots):
    match = _bots_match(ttt_bots)
    first = match_claim(match_id=match.pk, worker="a")
    assert isinstance(first, Claimed)
    assert first.started is True
    assert first.match.claimed_by == "a"
    again = match_claim(match_id=match.pk, worker="a")
    assert isinstance(again, Claimed)
    assert again.started is False
    assert match_claim(match_id=match.pk, worker="b") is Refused.HELD
    match_resign(match=first.match, seat=0)
    assert match_claim(match_id=match.pk, worker="a") is Refused.OVER


def test_a_match_a_person_is_to_move_is_started_and_held_by_nobody(ttt_bots, django_user_model):
    person = person_agent_for_user(user=django_user_model.objects.create_user("ana", password="x"))
    match = match_create(game="tic-tac-toe", agents=[person, ttt_bots["tic-tac-toe-lv0"]], seed=3)
    turn = match_claim(match_id=match.pk, worker="a")
    assert isinstance(turn, AwaitingPerson)
    assert turn.started is True
    assert (turn.match.status, turn.match.claimed_by) == (Match.Status.RUNNING, "")
    assert needs_runner(turn.match, viewer_seats=(0,), person_seats={0}) is False  # the person is to move


def test_a_paused_match_is_refused_until_its_pause_is_over(ttt_bots):
    match = _bots_match(ttt_bots)
    reason = "the model provider is not answering; the match resumes when it does"
    pause = {"reason": reason, "since": timezone.now().isoformat(), "delay_s": 30.0}
    later = timezone.now() + timezone.timedelta(minutes=5)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.RUNNING, paused_until=later, pause=pause)
    assert match_claim(match_id=match.pk, worker="a") is Refused.PAUSED
    assert needs_runner(Match.objects.get(pk=match.pk), viewer_seats=(0,), person_seats=set()) is False
    Match.objects.filter(pk=match.pk).update(paused_until=timezone.now())
    turn = match_claim(match_id=match.pk, worker="a")
    assert isinstance(turn, Claimed)
    assert turn.match.paused_until is None
    assert turn.match.pause == pause  # until a decision is recorded, the next pause of this outage waits longer


def test_who_holds_the_match_after_a_write(ttt_bots):
    now = timezone.now()
    match = _bots_match(ttt_bots)
    match.claimed_by, match.heartbeat_at = "", now
    people = frozenset({0})
    assert holder_after(ByHolder("w", people), match, 0, now) == ""  # a person is next: let go
    assert holder_after(ByHolder("w", people), match, 1, now) is None  # a bot is next: keep it
    assert holder_after(None, match, 0, now) is None
    assert holder_after(ByPerson("runner", people), match, 1, now) == "runner"  # the reply is handed over
    assert holder_after(ByPerson("runner", people), match, None, now) is None  # the move ended the match
    assert holder_after(ByPerson("", people), match, 1, now) is None  # no runner here: the workers take it
    match.claimed_by = "alive"
    assert holder_after(ByPerson("runner", people), match, 1, now) is None  # another live worker holds it
