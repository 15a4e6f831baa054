"""The plan-game process metrics read one snapshot of the matches: a match finishing while they are read is left
for the next replay, never half-read (its state without its seats)."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from django.db import connection

from arena.models import Match
from arena.record.agents import bots_ensure
from arena.record.services import match_create
from arena.runner.loop import run_match
from ratings.record.plan_metrics import round_records

pytestmark = pytest.mark.django_db


def test_a_match_finishing_between_the_reads_is_left_out_whole():
    bots = {a.slug: a for a in bots_ensure(game="battle-card")}
    played = [
        async_to_sync(run_match)(
            match_create(game="battle-card", agents=[bots["battle-card-lv1"], bots["battle-card-lv0"]], seed=seed).pk
        )
        for seed in (1, 2)
    ]
    finishing = played[1]
    Match.objects.filter(pk=finishing.pk).update(status=Match.Status.RUNNING)  # its last move is being recorded

    def finish_after_first_read(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if not finished:
            finished.append(True)  # the runner's closing write lands right after the first read
            Match.objects.filter(pk=finishing.pk).update(status=Match.Status.FINISHED)
        return result

    finished: list[bool] = []
    with connection.execute_wrapper(finish_after_first_read):
        records = round_records()
    assert finished
    assert {r.match[0] for r in records} == {played[0].pk}  # the finished one whole, the finishing one next time
    assert {r.agent for r in records} == {"battle-card-lv1", "battle-card-lv0"}
    assert {r.match[0] for r in round_records()} == {m.pk for m in played}  # and the next read has both
