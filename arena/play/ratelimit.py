"""Rate limits. Fixed windows kept in the cache (shared by all processes when REDIS_URL is set), counted
against the client's address AND its person (account or session), so neither a fresh cookie nor a fresh
account buys a fresh allowance; a slowdown for failed logins; and per-connection websocket frame budgets."""

from __future__ import annotations

import hashlib
import ipaddress
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

#: name -> (hits allowed, window in seconds), for each address and each person; override with ARENA_RATE_LIMITS.
DEFAULT_LIMITS = {
    "match_create": (30, 60),  # lobby games, open challenges and accepted challenges
    "ladder_climb": (5, 600),  # person ladder climbs started (each queues a match per level)
    "signup": (5, 3600),  # sign-up form submissions (each hashes a password; success creates an account)
    "annotate": (60, 60),  # annotation writes
    "dataset": (10, 600),  # /dataset.jsonl downloads
    "refit": (5, 600),  # leaderboards asked for with filters nobody asked for yet (each queues a fit)
    "report": (10, 600),  # report pages computed for filters not cached yet (each reads the record)
    "agent_edit": (30, 600),  # staff or people creating or editing agents
    "api_token": (20, 600),  # creating or revoking one's API tokens
    "frames": (100, 10),  # websocket frames per connection: a person clicking fast (Pit offers) sends ~5 a second
}
#: Failed logins allowed per account name and per address before each further try must wait; the wait
#: doubles with each further failure up to the maximum. Override with ARENA_LOGIN_LOCKOUT.
DEFAULT_LOGIN_LOCKOUT = {"failures": 5, "first_wait_s": 30, "max_wait_s": 3600}


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


def limited(request: HttpRequest, name: str) -> int:
    """Count one hit of `name` against the request's address and person: 0 when allowed, else seconds to wait."""
    refused = [key for key in request_keys(request) if not allow(name, key)]
    if not refused:
        return 0
    window = limit_for(name)[1]
    return max(1, window - int(time.time()) % window)


def _lockout() -> dict[str, int]:
    return {**DEFAULT_LOGIN_LOCKOUT, **getattr(settings, "ARENA_LOGIN_LOCKOUT", {})}


def _login_keys(username: str, address: str) -> tuple[str, str, str]:
    name = hashlib.sha256(username.strip().casefold().encode()).hexdigest()[:32]
    return f"login:addr:{address}", f"login:name:{name}", f"login:tried:{name}:{address}"


def login_wait(*, username: str, address: str) -> int:
    """Seconds before a login for `username` from `address` may be tried again (0: try now).

    The address's own failures always count. The account name's failures count only for addresses that
    have failed on it themselves, so guessing someone's password elsewhere never locks the owner out."""
    by_address, by_name, tried = _login_keys(username, address)
    untils = [cache.get(by_address, {}).get("until", 0)]
    if cache.get(tried):
        untils.append(cache.get(by_name, {}).get("until", 0))
    return max(0, int(max(untils) - time.time() + 0.999))


def login_failed(*, username: str, address: str) -> None:
    """Count a failed login against the address and the account name; past the allowance, each waits longer."""
    rules = _lockout()
    by_address, by_name, tried = _login_keys(username, address)
    forget_after = 2 * rules["max_wait_s"]  # a quiet spell this long and the counts start again
    for key in (by_address, by_name):
        failures = cache.get(key, {}).get("failures", 0) + 1
        over = failures - rules["failures"]  # 0 at the failure that uses up the allowance
        wait = min(rules["max_wait_s"], rules["first_wait_s"] * 2 ** min(over, 30)) if over >= 0 else 0
        cache.set(key, {"failures": failures, "until": time.time() + wait}, timeout=forget_after)
    cache.set(tried, True, timeout=forget_after)


def login_succeeded(*, username: str, address: str) -> None:
    """A correct password from `address`: its own failures and its mark on the account name are forgotten."""
    by_address, _, tried = _login_keys(username, address)
    cache.delete_many([by_address, tried])


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
