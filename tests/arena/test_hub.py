"""The process hub on the in-memory channel layer (one-process `make run` and the tests), and match pages using it.

tests/arena/hub_checks.py says what the hub must do; tests/scaleout/test_hub_redis.py runs the same checks on Redis.
"""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.layers import InMemoryChannelLayer
from django.test import override_settings

from arena.models import Match
from arena.play.broadcast import broadcast_match_updated
from arena.play.hub import local_hub, match_group
from arena.record.services import match_abort
from tests.arena import hub_checks
from tests.arena.test_consumers import make_match, next_fragment
from tests.arena.test_live_bounds import assert_refused, open_socket

pytestmark = pytest.mark.asyncio


@pytest.fixture
def layer():
    return InMemoryChannelLayer()


@pytest.fixture
def checks(layer):
    """The layer every hub of a check shares (one process), and its groups' subscriptions as it has them."""

    async def subscribers(group: str, expected: int) -> int:
        return len(layer.groups.get(group, {}))

    return (lambda: layer), subscribers


async def test_pages_of_two_processes_hear_each_update_once(checks):
    await hub_checks.pages_of_two_processes_hear_each_update_once(*checks)


async def test_a_local_update_reaches_local_pages_in_the_process(checks):
    await hub_checks.a_local_update_reaches_local_pages_in_the_process(*checks)


async def test_the_group_is_left_when_the_last_page_goes(checks):
    await hub_checks.the_group_is_left_when_the_last_page_goes(*checks)


@pytest.mark.django_db(transaction=True)
@override_settings(ARENA_PLAY_LIMITS={"sockets_per_match": 2})
async def test_match_pages_register_with_the_hub_and_leave_it_however_they_end(django_user_model):
    user = await django_user_model.objects.acreate(username="cy")
    match = await sync_to_async(make_match)(user)
    hub = local_hub()
    watchers = [(await open_socket(match.pk))[0] for _ in range(2)]
    assert hub.registrations() == 2
    assert len(hub.layer.groups[match_group(match.pk)]) == 1  # two pages, one channel in the group
    refused, first = await open_socket(match.pk)
    await assert_refused(refused, first, "to this match")
    assert hub.registrations() == 2  # the refused page left at once
    await sync_to_async(match_abort)(match=match, reason="test")
    await broadcast_match_updated(await Match.objects.aget(pk=match.pk))
    for watcher in watchers:  # both hear it through the hub
        assert 'data-status="aborted"' in (await next_fragment(watcher))["html"]
    await watchers[0].disconnect()
    assert hub.registrations() == 1
    await watchers[1].disconnect()
    await refused.wait()
    assert hub.registrations() == 0
    assert match_group(match.pk) not in hub.layer.groups
    assert hub.joins == {}
