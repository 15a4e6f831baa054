"""`match_finished`: sent once, on commit, with the closed match; never for an ending that rolls back."""

from __future__ import annotations

import pytest
from django.db import transaction

from arena.models import Match
from arena.record.services import match_abort, match_create, match_resign
from arena.record.signals import match_finished
from arena.record.turns import match_claim

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def heard():
    """The (status, scores) of every match_finished, as receivers see it."""
    events = []

    def receiver(sender, *, match, **kwargs):
        events.append((sender, match.pk, match.status, match.scores))

    match_finished.connect(receiver)
    yield events
    match_finished.disconnect(receiver)


def _running(ttt_bots):
    match = match_create(game="tic-tac-toe", agents=[ttt_bots["tic-tac-toe-lv1"], ttt_bots["tic-tac-toe-lv0"]])
    return match_claim(match_id=match.pk, worker="test").match


def test_sent_once_after_commit_with_the_closed_match(ttt_bots, heard):
    match = _running(ttt_bots)
    with transaction.atomic():
        match_resign(match=match, seat=0)
        assert heard == []  # not before the ending is committed
    assert heard == [(Match, match.pk, Match.Status.FINISHED, [0.0, 1.0])]
    match_abort(match=match, reason="operator")  # already over: no second ending, no second event
    assert len(heard) == 1


def test_an_abort_is_sent_without_scores(ttt_bots, heard):
    match = _running(ttt_bots)
    match_abort(match=match, reason="operator")
    assert heard == [(Match, match.pk, Match.Status.ABORTED, None)]


@transaction.atomic
def _resign_then_fail(match: Match) -> None:
    match_resign(match=match, seat=1)
    raise RuntimeError("the caller's transaction fails after the resignation")


def test_an_ending_that_rolls_back_sends_nothing(ttt_bots, heard):
    match = _running(ttt_bots)
    with pytest.raises(RuntimeError, match="fails after the resignation"):
        _resign_then_fail(match)
    assert heard == []
    assert Match.objects.get(pk=match.pk).status == Match.Status.RUNNING
