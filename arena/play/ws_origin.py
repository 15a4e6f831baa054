"""Websocket origin check: a socket is opened only from the site's own pages or a trusted origin.

A browser sends a page's cookies with any websocket it opens, whoever's page it is, so the Origin
is what tells our pages from another site's (the same rule Django's CSRF check applies to forms).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

DEFAULT_PORTS = {"http": 80, "https": 443}

#: (scheme, host, port): an origin compared in full.
Origin = tuple[str, str, int]


def parse_origin(text: str) -> Origin | None:
    """'https://example.org:8443' → ('https', 'example.org', 8443); None when it is not an http(s) origin."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme]


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    values = [value for key, value in scope.get("headers", []) if key == name]
    return values[-1].decode("latin1") if values else None


def _secure(scope: dict[str, Any]) -> bool:
    """Whether the browser reached us over TLS: a wss socket, or a proxy we trust saying so."""
    if scope.get("scheme") in ("wss", "https"):
        return True
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if not proxy:
        return False
    name, expected = proxy
    value = _header(scope, name.removeprefix("HTTP_").lower().replace("_", "-").encode())
    return value is not None and value.split(",")[0].strip() == expected


def own_origin(scope: dict[str, Any]) -> Origin | None:
    """The origin of the page that may open this socket: the request's scheme and its Host (one of ALLOWED_HOSTS)."""
    host = _header(scope, b"host")
    if not host or not validate_host(split_domain_port(host)[0], settings.ALLOWED_HOSTS):
        return None
    return parse_origin(f"{'https' if _secure(scope) else 'http'}://{host}")


def trusted(origin: Origin) -> bool:
    """True when CSRF_TRUSTED_ORIGINS names `origin` (exactly, or as a `scheme://*.domain` pattern)."""
    for pattern in getattr(settings, "CSRF_TRUSTED_ORIGINS", []):
        wildcard = "://*." in pattern
        allowed = parse_origin(pattern.replace("://*.", "://", 1) if wildcard else pattern)
        if allowed is None or allowed[0] != origin[0] or allowed[2] != origin[2]:
            continue
        if origin[1] == allowed[1] or (wildcard and is_same_domain(origin[1], "." + allowed[1])):
            return True
    return False


def origin_allowed(scope: dict[str, Any]) -> bool:
    """True when the socket's Origin header is the site's own (scheme, host and port) or a trusted one."""
    sent = _header(scope, b"origin")
    origin = parse_origin(sent) if sent else None
    if origin is None:
        return False
    return origin == own_origin(scope) or trusted(origin)


class SameOriginValidator:
    """ASGI middleware: websockets from any other origin are refused before they reach the app."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
