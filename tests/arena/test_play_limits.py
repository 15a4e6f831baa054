"""Socket leases (counted in the shared cache) and the ARENA_PLAY_LIMITS setting."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.cache import cache
from django.test import override_settings

from arena.config import ConfigError, from_env
from arena.play import live_limits as play_limits


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()


def watcher(match_id: int, address: str) -> play_limits.SocketLease:
    return play_limits.socket_lease(match_id=match_id, address=address, person=None, seated=False)


@override_settings(ARENA_PLAY_LIMITS={"sockets_per_match": 1})
def test_a_dead_processs_sockets_stop_counting_within_two_windows_and_live_ones_keep_counting(monkeypatch):
    clock = [1_000_000.0]
    monkeypatch.setattr(play_limits.time, "time", lambda: clock[0])
    live = watcher(1, address="a")
    assert live.acquire() == ""
    assert "to this match" in watcher(1, address="b").acquire()
    orphan = watcher(2, address="c")
    assert orphan.acquire() == ""  # its process dies: never renewed, never released
    for _ in range(3):  # three windows later the live socket, renewed in each, still counts…
        clock[0] += play_limits.LEASE_WINDOW_S
        live.renew()
    assert "to this match" in watcher(1, address="b").acquire()
    assert watcher(2, address="d").acquire() == ""  # …the orphan does not
    live.release()
    assert watcher(1, address="b").acquire() == ""


def test_limits_from_the_environment_are_checked():
    env = {"DJANGO_SECRET_KEY": "x", "ARENA_PLAY_LIMITS": " sockets_per_address=500, rejected_tries_kept=3,"}
    assert from_env(env).play_limits == {"sockets_per_address": 500, "rejected_tries_kept": 3}
    for bad in ("sockets=5", "sockets_per_match=-1", "sockets_per_match"):
        with pytest.raises(ConfigError, match="ARENA_PLAY_LIMITS"):
            from_env({**env, "ARENA_PLAY_LIMITS": bad})


def test_threads_counting_sockets_share_one_redis_client():
    """A client made twice by racing threads, the spare then dropped, closed the connections its thread still used."""
    location = "redis://127.0.0.1:9/15"  # never connected to here
    barrier = threading.Barrier(16)

    def client(_):
        barrier.wait()
        return play_limits._redis(location)

    try:
        with ThreadPoolExecutor(16) as pool:
            clients = list(pool.map(client, range(16)))
        assert all(made is clients[0] for made in clients)
    finally:
        play_limits._clients.pop(location, None)
