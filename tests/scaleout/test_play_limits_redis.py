"""Socket leases counted in Redis, as several daphne processes share them (tests/arena/test_play_limits.py
runs the same check on the in-memory cache)."""

from __future__ import annotations

import pytest
import redis
from django.test import override_settings

from tests.arena import test_play_limits

pytestmark = pytest.mark.scaleout


def test_a_dead_processs_sockets_stop_counting_within_two_windows_and_live_ones_keep_counting(redis_url, monkeypatch):
    client = redis.Redis.from_url(redis_url)
    client.delete(*client.keys("arena:sockets:*"), "arena:none")
    with override_settings(
        CACHES={"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": redis_url}}
    ):
        test_play_limits.test_a_dead_processs_sockets_stop_counting_within_two_windows_and_live_ones_keep_counting(
            monkeypatch
        )
    assert client.keys("arena:sockets:match:1:*")  # counted in Redis, not in this process
    assert all(0 < client.ttl(key) <= 180 for key in client.keys("arena:sockets:*"))  # every counter expires
