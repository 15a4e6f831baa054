"""The process hub on Redis pub/sub, each hub with a connection of its own as a daphne process has (see
tests/arena/hub_checks.py; tests/arena/test_hub.py runs the same checks in memory)."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio
from channels_redis.pubsub import RedisPubSubChannelLayer

from tests.arena import hub_checks

pytestmark = [pytest.mark.scaleout, pytest.mark.asyncio]


@pytest.fixture
async def checks(redis_url):
    made = []

    def layers() -> RedisPubSubChannelLayer:
        made.append(RedisPubSubChannelLayer(hosts=[redis_url]))
        return made[-1]

    client = redis.asyncio.Redis.from_url(redis_url)

    async def subscribers(group: str, expected: int) -> int:
        """Redis's count of the group's subscribed connections, asked until it is `expected` (50 tries at most)."""
        for _ in range(50):
            ((_, count),) = await client.pubsub_numsub(f"asgi__group__{group}")
            if count == expected:
                break
            await asyncio.sleep(0.05)
        return count

    yield layers, subscribers
    for layer in made:
        await layer.flush()
    await client.aclose()


async def test_pages_of_two_processes_hear_each_update_once(checks):
    await hub_checks.pages_of_two_processes_hear_each_update_once(*checks)


async def test_a_local_update_reaches_local_pages_in_the_process(checks):
    await hub_checks.a_local_update_reaches_local_pages_in_the_process(*checks)


async def test_the_group_is_left_when_the_last_page_goes(checks):
    await hub_checks.the_group_is_left_when_the_last_page_goes(*checks)
