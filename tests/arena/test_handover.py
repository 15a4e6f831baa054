"""A person's move hands the bot's reply to its process's runner in the same write (no claim of its own), and
every guarantee of the claim still holds: one decision per ply, a claim that goes stale, resignations."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from arena.agents.base import DecisionResult
from arena.models import Agent, Attempt, Decision, Match
from arena.pages.rendering import live_seats
from arena.play.consumers import needs_runner
from arena.record.agents import agent_create, bots_ensure
from arena.record.people import (
    guest_agent_create,
    person_agent_for_user,
    person_match_create,
    person_move,
    person_resign,
    person_seats,
)
from arena.record.services import ServiceError, decisions_record
from arena.record.turns import STALE_AFTER_S, Claimed, Refused, match_claim, match_release_stale
from arena.runner import loop
from games import IllegalAction
from tests.arena.llm.scripted_server import MODEL, ScriptedServer, answer, slow
from tests.arena.test_consumers import connect, make_match, next_fragment, person_cookie  # noqa: F401 (a fixture)

HERE = "here:1"  # the runner a move is handed to
GONE = "gone:2"  # a process that died after the move, before its runner recorded anything


def _started(user, seat: int = 0) -> Match:
    """A person's tic-tac-toe game against Lv0, started as a page starts it (the person to move)."""
    match = make_match(user, seat=seat)
    return match_claim(match_id=match.pk, worker="page").match


def _age(match: Match, seconds: float) -> Match:
    """The match as it is `seconds` after its holder's last sign of life (the clock moved on, the holder did not)."""
    Match.objects.filter(pk=match.pk).update(heartbeat_at=timezone.now() - timezone.timedelta(seconds=seconds))
    return Match.objects.get(pk=match.pk)


def _page_would_start_it(match: Match, user) -> bool:
    seats = live_seats(match)
    return needs_runner(match, seats, tuple(person_seats(match, person_agent_for_user(user=user))))


@pytest.mark.django_db
def test_a_match_waiting_on_a_person_is_started_but_held_by_nobody(django_user_model):
    match = _started(django_user_model.objects.create_user("ann"))
    assert (match.status, match.claimed_by, match.ply) == (Match.Status.RUNNING, "", 0)
    assert Match.objects.get(pk=match.pk).claimed_by == ""


@pytest.mark.django_db
def test_a_move_hands_the_bots_reply_to_the_runner_which_plays_it_without_claiming(django_user_model):
    user = django_user_model.objects.create_user("ann")
    match = _started(user)
    moved = person_move(match_id=match.pk, agent=person_agent_for_user(user=user), text="b2", ply=0, runner=HERE).match
    assert (moved.ply, moved.claimed_by) == (1, HERE)
    assert Match.objects.get(pk=match.pk).claimed_by == HERE  # in the same write as the move
    assert match_claim(match_id=match.pk, worker="someone-else") is Refused.HELD  # held: nobody else runs it
    with CaptureQueriesContext(connection) as queries:
        replied = async_to_sync(loop.run_match)(match.pk, worker=HERE, handed=moved)
    assert (replied.ply, replied.claimed_by) == (2, "")  # the person is to move: let go in the same write
    statements = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    # No claim and no read: insert the decision, write the match if it still stands where it was handed over.
    assert len(statements) == 2, "\n".join(sql[:100] for sql in statements)
    assert " AND \"claimed_by\" = 'here:1' AND " in statements[1]  # written only if still handed to this runner


@pytest.mark.django_db
def test_a_move_between_people_hands_nothing(django_user_model):
    ann, bob = (person_agent_for_user(user=django_user_model.objects.create_user(name)) for name in ("ann", "bob"))
    match = person_match_create(person=ann, opponent=bob, game="tic-tac-toe", seat=0)
    match_claim(match_id=match.pk, worker="page")
    moved = person_move(match_id=match.pk, agent=ann, text="b2", ply=0, runner=HERE).match
    assert (moved.ply, moved.claimed_by) == (1, "")


@pytest.mark.django_db
def test_a_move_whose_runner_never_started_is_resumed_once_the_claim_is_stale(django_user_model):
    user = django_user_model.objects.create_user("ann")
    match = _started(user)
    person_move(match_id=match.pk, agent=person_agent_for_user(user=user), text="b2", ply=0, runner=GONE)
    fresh = Match.objects.get(pk=match.pk)
    assert not _page_would_start_it(fresh, user)  # its holder may still be alive
    assert match_release_stale(stale_after_s=STALE_AFTER_S) == []
    assert match_claim(match_id=match.pk, worker=HERE) is Refused.HELD

    stale = _age(match, STALE_AFTER_S + 1)
    assert _page_would_start_it(stale, user)  # the person's next page starts a runner
    assert match_release_stale(stale_after_s=STALE_AFTER_S) == [match.pk]  # or the resume command frees it
    assert _page_would_start_it(Match.objects.get(pk=match.pk), user)
    replied = async_to_sync(loop.run_match)(match.pk, worker=HERE)
    assert (replied.ply, replied.status, replied.claimed_by) == (2, Match.Status.RUNNING, "")
    assert list(replied.decisions.order_by("ply").values_list("ply", "seat")) == [(0, 0), (1, 1)]


@pytest.mark.django_db
def test_a_stale_claim_is_taken_over_by_another_runner_directly(django_user_model):
    user = django_user_model.objects.create_user("ann")
    match = _started(user)
    person_move(match_id=match.pk, agent=person_agent_for_user(user=user), text="b2", ply=0, runner=GONE)
    _age(match, STALE_AFTER_S + 1)
    replied = async_to_sync(loop.run_match)(match.pk, worker=HERE)
    assert (replied.ply, replied.claimed_by) == (2, "")


@pytest.mark.django_db
def test_a_runner_handed_a_match_someone_else_holds_does_not_run_it(django_user_model):
    user = django_user_model.objects.create_user("ann")
    match = _started(user)
    moved = person_move(match_id=match.pk, agent=person_agent_for_user(user=user), text="b2", ply=0, runner=GONE).match
    assert async_to_sync(loop.run_match)(match.pk, worker=HERE, handed=moved) is None  # GONE is alive for all we know
    assert Match.objects.get(pk=match.pk).ply == 1


@pytest.mark.django_db
def test_a_move_does_not_take_the_match_from_a_live_holder(django_user_model):
    user = django_user_model.objects.create_user("ann")
    match = _started(user)
    Match.objects.filter(pk=match.pk).update(claimed_by=GONE, heartbeat_at=timezone.now())
    moved = person_move(match_id=match.pk, agent=person_agent_for_user(user=user), text="b2", ply=0, runner=HERE).match
    assert (moved.ply, moved.claimed_by) == (1, GONE)


@pytest.mark.django_db(transaction=True)
def test_two_runners_handed_the_same_move_record_one_reply(django_user_model):
    user = django_user_model.objects.create_user("ann")
    match = _started(user)
    moved = person_move(match_id=match.pk, agent=person_agent_for_user(user=user), text="b2", ply=0, runner=HERE).match

    async def both():
        return await asyncio.gather(*(loop.run_match(match.pk, worker=HERE, handed=moved) for _ in range(2)))

    async_to_sync(both)()
    match.refresh_from_db()
    assert (match.ply, match.claimed_by) == (2, "")
    assert list(match.decisions.order_by("ply").values_list("ply", flat=True)) == [0, 1]


@pytest.mark.django_db
def test_a_resignation_while_the_bot_thinks_ends_the_match_and_the_reply_is_dropped(django_user_model):
    user = django_user_model.objects.create_user("ann")
    match = _started(user)
    person = person_agent_for_user(user=user)
    moved = person_move(match_id=match.pk, agent=person, text="b2", ply=0, runner=HERE).match
    person_resign(match_id=match.pk, agent=person)  # lands before the runner records the bot's reply
    after = async_to_sync(loop.run_match)(match.pk, worker=HERE, handed=moved)
    assert (after.status, after.scores, after.ply, after.claimed_by) == (Match.Status.FINISHED, [0.0, 1.0], 1, "")
    assert after.decisions.count() == 1


@pytest.mark.django_db
def test_an_illegal_move_is_kept_and_the_next_move_takes_it(django_user_model):
    user = django_user_model.objects.create_user("ann")
    match = _started(user)
    person = person_agent_for_user(user=user)
    with pytest.raises(IllegalAction):
        person_move(match_id=match.pk, agent=person, text="z9", ply=0, runner=HERE)
    assert Match.objects.get(pk=match.pk).claimed_by == ""  # a refused move hands nothing over
    person_move(match_id=match.pk, agent=person, text="b2", ply=0, runner=HERE)
    tries = Attempt.objects.filter(match=match).order_by("number")
    assert list(tries.values_list("number", "verdict", "raw_text", "decision__ply")) == [
        (1, "illegal", "z9", 0), (2, "ok", "b2", 0),
    ]  # fmt: skip


def _guest_cookie(opponent: Agent) -> tuple[Match, bytes]:
    """A guest's connect-four game against `opponent`, and the cookie of the guest's session."""
    guest = guest_agent_create(nickname="Robin")
    session = SessionStore()
    session["guest_agent"] = guest.slug
    session.save()
    match = person_match_create(person=guest, opponent=opponent, game="connect-four", seat=0)
    return match, f"sessionid={session.session_key}".encode()


async def _statements_per_move_and_reply(match: Match, cookie: bytes) -> list[str]:
    """The SQL of two moves and their replies through the real consumer and runner, once the game is under way,
    listed move by move (Django's logged commits left out: they are no statement)."""
    ws = await connect(match.pk, cookie)
    fragment = await next_fragment(ws)
    capture = CaptureQueriesContext(connection)  # the consumer's and the runner's database work share one thread
    moves = 2  # and one before: the bot's three stones cannot win yet
    for made in range(moves + 1):
        if made == 1:  # the first move reads the person's seats once for the process; count from the second
            await sync_to_async(capture.__enter__)()
        ply = fragment["ply"]
        await ws.send_to(text_data=json.dumps({"type": "move", "move": "abc"[made], "ply": ply}))
        fragment = await next_fragment(ws, min_ply=ply + 2)
        assert "Your move." in fragment["html"]
    await sync_to_async(capture.__exit__)(None, None, None)
    logged = await sync_to_async(lambda: [q["sql"] for q in capture.captured_queries])()
    await ws.disconnect()
    assert logged.count("COMMIT") == 2 * moves
    statements = [sql for sql in logged if sql != "COMMIT"]
    assert not [sql for sql in statements if "SAVEPOINT" in sql]
    assert sum(sql.startswith("BEGIN") for sql in statements) == 2 * moves  # no claim transaction
    return statements


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_persons_move_and_the_bots_reply_cost_eight_statements(person_cookie):  # noqa: F811
    """The move (lock and read, insert the decision and the person's try, write the match and hand it over) and
    the reply (insert, write the match if it still stands where it was handed over, and let go); the pages draw
    both from what was recorded."""
    user, cookie = person_cookie
    match = await sync_to_async(make_match)(user, game="connect-four")
    statements = await _statements_per_move_and_reply(match, cookie)
    assert len(statements) == 8 * 2, "\n".join(sql[:100] for sql in statements)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_guests_move_and_the_bots_reply_add_one_name_read_per_frame():
    """A guest may sign up mid-game and take the account's name: each of the two frames reads the guest's name
    (one small statement each, the agent read whole only once it changed), on top of the eight."""
    await sync_to_async(bots_ensure)(game="connect-four")
    opponent = await Agent.objects.aget(slug="connect-four-lv0")
    match, cookie = await sync_to_async(_guest_cookie)(opponent)
    statements = await _statements_per_move_and_reply(match, cookie)
    listing = "\n".join(sql[:100] for sql in statements)
    assert len(statements) == 10 * 2, listing
    assert sum(sql.startswith('SELECT "id", "name" FROM "arena_agent"') for sql in statements) == 2 * 2, listing


@pytest.mark.django_db
def test_a_runner_whose_match_was_taken_over_records_nothing_and_keeps_its_copy(django_user_model):
    """The reply is written without reading the match again: the write itself checks where the match stands."""
    user = django_user_model.objects.create_user("ann")
    match = _started(user)
    moved = person_move(match_id=match.pk, agent=person_agent_for_user(user=user), text="b2", ply=0, runner=GONE).match
    _age(match, STALE_AFTER_S + 1)
    assert isinstance(match_claim(match_id=match.pk, worker=HERE), Claimed)  # GONE went quiet: HERE takes over
    reply = [DecisionResult(action=0)]
    with pytest.raises(ServiceError, match="ended or changed hands"):
        decisions_record(match=moved, ply=1, decisions=reply, worker=GONE, release_to={0}, as_left=True)
    assert (moved.ply, moved.claimed_by, Match.objects.get(pk=match.pk).ply) == (1, GONE, 1)
    assert list(Decision.objects.filter(match=match).values_list("ply", flat=True)) == [0]
    mine = Match.objects.get(pk=match.pk)
    replied = decisions_record(
        match=mine, ply=1, decisions=[DecisionResult(action=0)], worker=HERE, release_to={0}
    ).match
    assert (replied.ply, replied.claimed_by) == (2, "")  # HERE's claim read the match: the locked write


@pytest.mark.django_db
def test_a_resignation_while_the_model_thinks_keeps_its_timed_out_and_answered_tries_in_the_trace(django_user_model):
    user = django_user_model.objects.create_user("ann")
    person = person_agent_for_user(user=user)
    with ScriptedServer() as server:
        # The first call times out; the retry answers, after the person has resigned.
        server.push(slow(3.0), answer("a1"))
        model = agent_create(
            slug="pondering", name="pondering", kind="llm",
            config={"base_url": server.base_url, "model": MODEL, "timeout_s": 0.5, "backoff_base_s": 0.001},
        )  # fmt: skip
        match = person_match_create(person=person, opponent=model, game="tic-tac-toe", seat=0)
        match = match_claim(match_id=match.pk, worker="page").match
        moved = person_move(match_id=match.pk, agent=person, text="b2", ply=0, runner=HERE).match
        person_resign(match_id=match.pk, agent=person)
        after = async_to_sync(loop.run_match)(match.pk, worker=HERE, handed=moved)
    assert (after.status, after.ply) == (Match.Status.FINISHED, 1)
    tries = Attempt.objects.filter(match=match, ply=1).order_by("number")
    assert list(tries.values_list("seat", "verdict", "decision")) == [(1, "timeout", None), (1, "ok", None)]
