"""Rate limits. Fixed windows kept in the cache (shared by all processes when REDIS_URL is set), counted
against the client's address AND its person (account or session), so neither a fresh cookie nor a fresh
account buys a fresh allowance; how django-axes names a login's account and address (its failed-login lock);
and per-connection websocket frame budgets."""

from __future__ import annotations

import ipaddress
import time
import unicodedata
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.http import HttpRequest

from arena.limits import RATE_LIMITS


def limit_for(name: str) -> tuple[int, int]:
    return getattr(settings, "ARENA_RATE_LIMITS", {}).get(name, RATE_LIMITS[name])


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


def client_address(request: HttpRequest) -> str:
    """The client's address of an HTTP request (see `address_of`)."""
    header = getattr(settings, "ARENA_CLIENT_IP_HEADER", "")
    return address_of(request.META.get("REMOTE_ADDR", ""), request.headers.get(header, "") if header else "")


def socket_address(scope: dict) -> str:
    """The client's address of a websocket connection, counted exactly like an HTTP request's (see `address_of`)."""
    header = getattr(settings, "ARENA_CLIENT_IP_HEADER", "").lower().encode()
    forwarded = dict(scope.get("headers", [])).get(header, b"").decode("latin-1") if header else ""
    client = scope.get("client")
    return address_of(str(client[0]) if client else "", forwarded)


def address_of(connected: str, forwarded: str = "") -> str:
    """The address a client counts as: the connecting one, or the last entry of ARENA_CLIENT_IP_HEADER (`forwarded`)
    when a trusted proxy sets it. IPv6 addresses count per /64, the block one subscriber usually holds (they could
    otherwise rotate freely)."""
    # The proxy appends the address it saw; anything before it came from the client and proves nothing.
    raw = forwarded.split(",")[-1].strip() or connected
    try:
        address = ipaddress.ip_address(raw)
    except ValueError:
        return raw[:64] or "unknown"
    if address.version == 6:
        return str(address.ipv4_mapped or ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def person_key(user: Any, session: Any) -> str | None:
    """The person behind a request or a websocket's scope: its account, else its session (if it has a key)."""
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return f"session:{session.session_key}" if session is not None and session.session_key else None


def request_keys(request: HttpRequest) -> list[str]:
    """Every party a request counts against: its address, and its person (`person_key`), if any."""
    person = person_key(request.user, request.session)
    return [f"addr:{client_address(request)}", *([person] if person else [])]


def limited(request: HttpRequest, name: str, *, scope: str = "") -> int:
    """Count one hit of `name` against the request's address and person (within `scope`, e.g. one study, when given):
    0 when allowed, else seconds to wait."""
    refused = [key for key in request_keys(request) if not allow(name, f"{key}:{scope}" if scope else key)]
    if not refused:
        return 0
    window = limit_for(name)[1]
    return max(1, window - int(time.time()) % window)


def lockout_username(request: HttpRequest | None, credentials: dict | None) -> str | None:
    """AXES_USERNAME_CALLABLE: the account name a login counts against, as Django matches it (the user model's
    `normalize_username`, NFKC) and casefolded, so `ｂob`, `𝒃ob` and `Bob` all count against `bob`."""
    user_model = get_user_model()
    raw = (credentials or {}).get(user_model.USERNAME_FIELD)
    if raw is None and request is not None:
        raw = request.POST.get(user_model.USERNAME_FIELD)
    if raw is None:
        return None
    name = user_model.normalize_username(str(raw)).strip().casefold()
    return unicodedata.normalize("NFKC", name)[:255]


def lockout_address(request: HttpRequest) -> str:
    """AXES_CLIENT_IP_CALLABLE: `client_address` as an IP address (an IPv6 /64 by its first address)."""
    address = client_address(request).partition("/")[0]
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return "0.0.0.0"  # no usable address (a unix socket): such clients share one count


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
