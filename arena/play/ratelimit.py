"""Fixed-window rate limits: in the cache for people and addresses (shared by all processes when
REDIS_URL is set), and inside a websocket connection for its own frames."""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache

#: name -> (hits allowed, window in seconds); override with ARENA_RATE_LIMITS in settings.
DEFAULT_LIMITS = {
    "match_create": (30, 60),  # lobby games and challenges per person or address
    "annotate": (60, 60),  # annotation writes per person
    "frames": (30, 10),  # websocket frames per connection
}


def limit_for(name: str) -> tuple[int, int]:
    return getattr(settings, "ARENA_RATE_LIMITS", {}).get(name, DEFAULT_LIMITS[name])


def allow(name: str, who: str) -> bool:
    """Count one hit for `who` under limit `name`; False once the window's allowance is used up."""
    hits, window = limit_for(name)
    bucket = f"ratelimit:{name}:{who}:{int(time.time() // window)}"
    cache.add(bucket, 0, timeout=window + 1)
    try:
        return cache.incr(bucket) <= hits
    except ValueError:  # the bucket expired between add and incr: this is the window's first hit
        cache.add(bucket, 1, timeout=window + 1)
        return True


class ConnectionBudget:
    """A limit on one connection's own messages, kept in the connection: nothing is shared, so
    counting a websocket frame never waits on the network (with Redis, the cache would, on the
    event loop, for every frame of every game)."""

    def __init__(self, name: str) -> None:
        self.hits, self.window = limit_for(name)
        self.started, self.used = time.monotonic(), 0

    def allow(self) -> bool:
        now = time.monotonic()
        if now - self.started >= self.window:
            self.started, self.used = now, 0
        self.used += 1
        return self.used <= self.hits


def client_key(request) -> str:
    """Who a request counts against: the signed-in user, else the session, else the address."""
    if request.user.is_authenticated:
        return f"user:{request.user.pk}"
    if request.session.session_key:
        return f"session:{request.session.session_key}"
    return f"addr:{request.META.get('REMOTE_ADDR', '?')}"
