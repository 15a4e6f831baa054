"""A model server that is down pauses its matches, and 429s are waited out: neither becomes a fallback or an abort.

Over real HTTP on loopback: the scripted server is closed (connection refused) and started again on its port.
"""

from __future__ import annotations

import json
from datetime import timedelta
from io import StringIO

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from arena.models import Attempt, Decision, Match, Tournament
from arena.pages.rendering import live_match_html, live_seats
from arena.record.agents import agent_create
from arena.record.people import person_agent_for_user, person_match_create
from arena.record.selectors import tournament_progress
from arena.record.services import match_create
from arena.record.turns import PAUSE_FIRST_S, PAUSE_GIVE_UP_S, PAUSE_LONGEST_S
from arena.runner.loop import run_match
from arena.runner.tasks import run_match_task
from arena.tournaments.run import next_runnable, pause_left_s
from tests.arena.llm.scripted_server import ScriptedServer, first_legal_move, rate_limited
from tests.arena.test_consumers import connect, next_fragment, person_cookie  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)

DOWN = "the local model server is not answering"


def _match(ttt_bots, llm_config) -> Match:
    llm = agent_create(slug="scripted-llm", name="Scripted LLM", kind="llm", config=llm_config)
    return match_create(game="tic-tac-toe", agents=[llm, ttt_bots["tic-tac-toe-lv0"]], seed=5)


def _run(match: Match) -> Match | None:
    ran = async_to_sync(run_match)(match.pk)
    match.refresh_from_db()
    return ran


def _pause_is_due(match: Match) -> None:
    """The pause's time has come (what waiting it out would do, without the wait)."""
    Match.objects.filter(pk=match.pk).update(paused_until=timezone.now())


def test_a_dead_server_pauses_the_match_and_it_finishes_once_the_server_is_back(ttt_bots, scripted, llm_config):
    port = scripted.port
    scripted.close()
    match = _match(ttt_bots, {**llm_config, "provider_retries": 1})
    _run(match)
    assert (match.status, match.claimed_by, match.scores) == (Match.Status.RUNNING, "", None)
    assert match.pause["reason"] == f"{DOWN}; the match resumes when it does"
    assert match.pause["delay_s"] == PAUSE_FIRST_S
    assert match.paused_until > timezone.now()
    assert not Decision.objects.filter(match=match).exists()
    # Its resumption waits in the stored queue, for whichever worker is up by then.
    [queued] = DBTaskResult.objects.filter(task_path=run_match_task.module_path)
    assert queued.args_kwargs["args"] == [match.pk]
    assert queued.run_after == match.paused_until

    # Until its pause is over nobody runs it: a restarted worker does not hammer the dead server.
    assert _run(match) is None
    assert Attempt.objects.filter(match=match).count() == 2

    with ScriptedServer(first_legal_move, port=port) as back:
        _pause_is_due(match)
        _run(match)
    assert match.status == Match.Status.FINISHED
    assert match.pause is None
    assert match.paused_until is None
    llm_decisions = Decision.objects.filter(match=match, seat=0).order_by("ply")
    assert llm_decisions.count() == len(back.chat_requests())
    assert not Decision.objects.filter(match=match).exclude(fallback="").exists()
    # The failed tries stay in the trace, ahead of the answer of the decision they delayed.
    first = llm_decisions[0]
    assert [(a.number, a.verdict, a.transient) for a in first.attempts.order_by("number")] == [
        (1, "api_error", True),
        (2, "api_error", True),
        (3, "ok", False),
    ]


def test_people_see_a_paused_match_and_why(ttt_bots, scripted, llm_config, client):
    scripted.close()
    match = _match(ttt_bots, llm_config)
    _run(match)
    listing = client.get(reverse("match-list")).content.decode()
    assert f'title="{DOWN}; the match resumes when it does">Paused</span>' in listing
    panel = live_match_html(match, None, live_seats(match))
    assert f"<strong>Paused:</strong> {DOWN}; the match resumes when it does" in panel


def test_a_resumption_taken_up_early_or_lost_is_queued_again(ttt_bots, scripted, llm_config):
    scripted.close()
    match = _match(ttt_bots, llm_config)
    _run(match)
    queue = DBTaskResult.objects.filter(task_path=run_match_task.module_path)
    queue.delete()  # lost: the queue was emptied by hand
    out = StringIO()
    call_command("resume_matches", stdout=out)
    assert "1 paused (1 queued again)" in out.getvalue()
    assert list(queue.values_list("args_kwargs", "run_after")) == [
        ({"args": [match.pk], "kwargs": {}}, match.paused_until)
    ]
    queue.delete()
    # A worker whose clock runs ahead takes it up before its pause is over: refused, and queued again for then.
    assert async_to_sync(run_match_task.acall)(match.pk) == "skipped: paused"
    assert list(queue.values_list("run_after", flat=True)) == [match.paused_until]


def test_each_failed_retry_pauses_longer_up_to_the_cap_then_gives_up(ttt_bots, scripted, llm_config):
    scripted.close()
    match = _match(ttt_bots, {**llm_config, "provider_retries": 0})
    delays = []
    for _ in range(7):
        _run(match)
        delays.append(match.pause["delay_s"])
        _pause_is_due(match)
    assert delays == [30, 60, 120, 240, 480, 600, 600]
    assert PAUSE_LONGEST_S == 600
    since = timezone.now() - timedelta(seconds=PAUSE_GIVE_UP_S)
    Match.objects.filter(pk=match.pk).update(pause={**match.pause, "since": since.isoformat()})
    _run(match)
    assert match.status == Match.Status.ABORTED
    assert match.termination == f"{DOWN}; given up after 24 h"
    assert match.record["transient_failure"] is True
    assert not Decision.objects.filter(match=match).exists()
    assert Attempt.objects.filter(match=match).count() == 8


def test_a_tournament_runner_waits_for_a_paused_match_rather_than_spinning_on_it(ttt_bots, scripted, llm_config):
    scripted.close()
    tournament = Tournament.objects.create(slug="waits", name="waits", format="round_robin", config={})
    match = _match(ttt_bots, llm_config)
    Match.objects.filter(pk=match.pk).update(tournament=tournament)
    assert pause_left_s([tournament.pk]) is None
    _run(match)
    assert next_runnable(tournament.pk, stale_after_s=0) is None
    assert 0 < pause_left_s([tournament.pk]) <= PAUSE_FIRST_S
    assert tournament_progress(tournament)["paused"] == 1
    _pause_is_due(match)
    assert next_runnable(tournament.pk, stale_after_s=0) == match.pk


def test_429s_with_retry_after_are_waited_out_without_failing_the_decision(ttt_bots, scripted, llm_config):
    scripted.responder = first_legal_move
    scripted.push(*[rate_limited("0.01") for _ in range(6)])  # more than provider_retries allows failures
    match = _match(ttt_bots, {**llm_config, "provider_retries": 1})
    _run(match)
    assert match.status == Match.Status.FINISHED
    assert not Decision.objects.filter(match=match).exclude(fallback="").exists()
    first = Decision.objects.get(match=match, ply=0)
    verdicts = [(a.verdict, a.message[:8]) for a in first.attempts.order_by("number")]
    assert verdicts == [("api_error", "HTTP 429")] * 6 + [("ok", "")]


@pytest.mark.asyncio
async def test_a_players_page_shows_the_pause_as_it_happens(ttt_bots, scripted, llm_config, person_cookie):  # noqa: F811
    user, cookie = person_cookie
    scripted.close()

    def setup() -> Match:
        model = agent_create(slug="scripted-llm", name="Scripted LLM", kind="llm", config=llm_config)
        return person_match_create(person=person_agent_for_user(user=user), opponent=model, game="tic-tac-toe", seat=0)

    match = await sync_to_async(setup)()
    ws = await connect(match.pk, cookie)
    assert "Your move." in (await next_fragment(ws))["html"]
    await ws.send_to(text_data=json.dumps({"type": "move", "move": "b2", "ply": 0}))
    fragment = await next_fragment(ws, min_ply=1)
    while "Paused:" not in fragment["html"]:  # the move, the model thinking, then the pause: at the same ply
        fragment = await next_fragment(ws, min_ply=1)
    assert f"<strong>Paused:</strong> {DOWN}; the match resumes when it does" in fragment["html"]
    assert fragment["ply"] == 1
    await ws.disconnect()
