"""The API's rate limits: the site's own (arena.pages.ratelimit), so an API call counts against the same client
address as a page (`ARENA_CLIENT_IP_HEADER` behind a proxy, IPv6 per /64) in the same shared counters, and an
operator changes both with ARENA_RATE_LIMITS (`api_anonymous`, `api_token_calls`)."""

from __future__ import annotations

import time

from django.http import HttpRequest
from ninja.throttling import BaseThrottle

from arena.pages.ratelimit import allow, client_address, limit_for


class SiteThrottle(BaseThrottle):
    """One of the site's limits, `name`: counted per token for calls authenticated by one (`by_token`), else per
    client address. Each call is counted by exactly one of the API's two throttles."""

    def __init__(self, name: str, *, by_token: bool) -> None:
        self.name, self.by_token = name, by_token

    def allow_request(self, request: HttpRequest) -> bool:
        token = getattr(request, "auth", None)
        if (token is not None) != self.by_token:
            return True
        return allow(self.name, f"token:{token.pk}" if token is not None else f"addr:{client_address(request)}")

    def wait(self) -> float:
        """Seconds left in the current window (the counters are fixed windows)."""
        window = limit_for(self.name)[1]
        return max(1, window - int(time.time()) % window)


#: Calls without a token (every read counts here, even one with a token), per client address.
anonymous_throttle = SiteThrottle("api_anonymous", by_token=False)
#: Writes, per token.
token_throttle = SiteThrottle("api_token_calls", by_token=True)
