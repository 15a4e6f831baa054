"""Bounds on what one visitor's live play costs: open sockets per person, per address and per match,
and rejected tries kept per decision.

Sockets are counted in the cache (shared by every daphne process when REDIS_URL is set) only when one
opens, closes, or renews its lease once a minute, never per frame. Each open socket holds a lease in
the current and the next time window, so a window's count is every socket open during it, and the
sockets of a process that died without closing them stop counting within two windows.

With Redis, each of those is one round trip (a pipeline over every counter and window) on one connection
pool per process: Django's cache, reached from a socket's own context, would open a connection per socket
and take three round trips per counter.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field

import redis
from django.conf import settings
from django.core.cache import cache

from arena.limits import play_limit

#: Why a socket is refused, by counter (a close reason: at most 123 bytes).
REFUSALS = {
    "match": "to this match (at most {}): try again later",
    "address": "from your address (at most {}): close some",
    "person": "for you (at most {}): close another tab",
    "bot-token": "with this token (at most {}): close another bot socket",
}

#: Seconds a socket lease window lasts: how long a dead process's sockets may still count.
LEASE_WINDOW_S = 60

#: Close code of a refused socket (4000–4999 are the application's; 429 as in HTTP).
TOO_MANY_SOCKETS = 4429


def _window(now: float | None = None) -> int:
    return int((time.time() if now is None else now) // LEASE_WINDOW_S)


def _key(counter: str, window: int) -> str:
    return f"sockets:{counter}:{window}"


#: Seconds a counter lives after it is made: past the window it counts, and the one before it.
COUNTER_LIFE_S = 3 * LEASE_WINDOW_S


_clients: dict[str, redis.Redis] = {}
_clients_made = threading.Lock()


def _redis(location: str) -> redis.Redis:
    """This process's one client of the Redis at `location` (thread-safe). Made under a lock: a second client
    made by a racing thread and then dropped would close its connections while that thread still used them."""
    with _clients_made:
        if location not in _clients:
            _clients[location] = redis.Redis.from_url(location)
        return _clients[location]


def _add(keys: list[str], delta: int) -> list[int]:
    """Add `delta` to each counter (a missing one starts at 0); the counts afterwards.

    A counter is missing only when it was never made or has expired, which the windows' lifetimes rule out
    for a lease still held (a window's counter is made at most two windows before it ends).
    """
    backend = settings.CACHES["default"]
    if backend["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
        pipeline = _redis(backend["LOCATION"]).pipeline(transaction=False)
        for key in keys:
            pipeline.set(f"arena:{key}", 0, ex=COUNTER_LIFE_S, nx=True)
            pipeline.incrby(f"arena:{key}", delta)
        return pipeline.execute()[1::2]
    return [_add_cached(key, delta) for key in keys]


def _add_cached(key: str, delta: int) -> int:
    cache.add(key, 0, timeout=COUNTER_LIFE_S)
    try:
        return cache.incr(key, delta)
    except ValueError:  # expired between add and incr
        cache.add(key, delta, timeout=COUNTER_LIFE_S)
        return delta


@dataclass
class SocketLease:
    """One open socket's place in its counters (`counter name -> limit`), held until `release`."""

    counters: dict[str, int]
    windows: set[int] = field(default_factory=set)

    def acquire(self) -> str:
        """Count this socket in the current and next window; "" if allowed, else why it is refused."""
        now = _window()
        keys = self._keys([now, now + 1])
        counts = _add(keys, 1)
        for (counter, allowed), count in zip(self.counters.items(), counts[: len(self.counters)], strict=True):
            if count > allowed:
                _add(keys, -1)
                return "Too many open connections " + REFUSALS[counter.split(":", 1)[0]].format(allowed)
        self.windows = {now, now + 1}
        return ""

    def renew(self) -> None:
        """Count this socket in the next window too (call once during every window it stays open)."""
        now = _window()
        self.windows = {window for window in self.windows if window >= now}
        if now + 1 not in self.windows:
            _add(self._keys([now + 1]), 1)
            self.windows.add(now + 1)

    def release(self) -> None:
        """Stop counting this socket in every window it still holds."""
        now = _window()
        held = [window for window in sorted(self.windows) if window >= now]
        if held:
            _add(self._keys(held), -1)
        self.windows = set()

    def _keys(self, windows: list[int]) -> list[str]:
        """Every counter's key in each of `windows`, window by window."""
        return [_key(counter, window) for window in windows for counter in self.counters]

    @staticmethod
    def renew_delay_s() -> float:
        """Seconds until a point in the next window's first half, spread out so renewals do not bunch."""
        now = time.time()
        return (_window(now) + 1) * LEASE_WINDOW_S - now + random.uniform(0, LEASE_WINDOW_S / 2)


def socket_lease(*, match_id: int, address: str, person: str | None, seated: bool) -> SocketLease:
    """The counters one socket belongs to: its client address, its person if known, and its match
    unless a player opens it (a crowd of watchers must never lock the players out of their game)."""
    counters = {f"address:{address}": play_limit("sockets_per_address")}
    if not seated:
        counters[f"match:{match_id}"] = play_limit("sockets_per_match")
    if person:
        counters[f"person:{person}"] = play_limit("sockets_per_person")
    return SocketLease(counters)
