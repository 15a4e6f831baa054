"""Socket leases (counted in the shared cache) and the ARENA_PLAY_LIMITS setting."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import override_settings

from arena import play_limits


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()


@override_settings(ARENA_PLAY_LIMITS={"sockets_per_match": 1})
def test_a_dead_processs_sockets_stop_counting_within_two_windows_and_live_ones_keep_counting(monkeypatch):
    clock = [1_000_000.0]
    monkeypatch.setattr(play_limits.time, "time", lambda: clock[0])
    live = play_limits.socket_lease(match_id=1, address="a", person=None)
    assert live.acquire() == ""
    assert "to this match" in play_limits.socket_lease(match_id=1, address="b", person=None).acquire()
    orphan = play_limits.socket_lease(match_id=2, address="c", person=None)
    assert orphan.acquire() == ""  # its process dies: never renewed, never released
    for _ in range(3):  # three windows later the live socket, renewed in each, still counts…
        clock[0] += play_limits.LEASE_WINDOW_S
        live.renew()
    assert "to this match" in play_limits.socket_lease(match_id=1, address="b", person=None).acquire()
    assert play_limits.socket_lease(match_id=2, address="d", person=None).acquire() == ""  # …the orphan does not
    live.release()
    assert play_limits.socket_lease(match_id=1, address="b", person=None).acquire() == ""


def test_limits_from_the_environment_are_checked():
    assert play_limits.parse_limits(" sockets_per_address=500, rejected_tries_kept=3,") == {
        "sockets_per_address": 500,
        "rejected_tries_kept": 3,
    }
    for bad in ("sockets=5", "sockets_per_match=-1", "sockets_per_match"):
        with pytest.raises(ValueError, match="ARENA_PLAY_LIMITS"):
            play_limits.parse_limits(bad)
