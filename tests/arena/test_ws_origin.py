"""The websocket origin check: the site's own origin (scheme, host and port) or a trusted one."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import override_settings

from arena.asgi import application
from arena.play.ws_origin import origin_allowed
from tests.arena.sockets import Socket
from tests.arena.test_consumers import make_match


def scope(origin: str | None, host: str = "localhost", **extra_headers: str) -> dict:
    headers = [(b"host", host.encode())] + ([(b"origin", origin.encode())] if origin is not None else [])
    headers += [(name.replace("_", "-").encode(), value.encode()) for name, value in extra_headers.items()]
    return {"type": "websocket", "headers": headers}


@pytest.mark.parametrize(
    ("origin", "host"),
    [
        ("http://localhost", "localhost"),
        ("http://localhost:8000", "localhost:8000"),
        ("http://127.0.0.1:80", "127.0.0.1"),
    ],
)
def test_the_sites_own_origin_is_accepted(origin, host):
    assert origin_allowed(scope(origin, host))


@pytest.mark.parametrize(
    ("origin", "host"),
    [
        ("http://127.0.0.1:1", "127.0.0.1:8000"),  # another port of the same host
        ("http://127.0.0.1:1", "localhost"),
        ("https://localhost", "localhost"),  # another scheme
        ("http://localhost:8000", "localhost"),
        ("http://evil.example", "localhost"),
        ("http://evil.example", "evil.example"),  # a host we do not serve (DNS rebinding)
        ("null", "localhost"),
        ("ws://localhost", "localhost"),
        ("http://localhost:99999", "localhost"),
        (None, "localhost"),  # browsers always send one
    ],
)
def test_any_other_origin_is_refused(origin, host):
    assert not origin_allowed(scope(origin, host))


@override_settings(CSRF_TRUSTED_ORIGINS=["https://arena.example.org", "https://*.example.net"])
def test_trusted_origins_are_accepted_with_their_scheme_and_port():
    assert origin_allowed(scope("https://arena.example.org"))
    assert origin_allowed(scope("https://play.example.net"))
    assert not origin_allowed(scope("http://arena.example.org"))
    assert not origin_allowed(scope("https://arena.example.org:8443"))
    assert not origin_allowed(scope("https://example.org"))


@override_settings(SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))
def test_behind_a_tls_proxy_the_origin_is_https():
    assert origin_allowed(scope("https://localhost", x_forwarded_proto="https"))
    assert not origin_allowed(scope("http://localhost", x_forwarded_proto="https"))
    assert origin_allowed(scope("http://localhost"))  # the proxy did not say TLS


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize(("origin", "accepted"), [(b"http://localhost", True), (b"http://127.0.0.1:1", False)])
async def test_through_the_asgi_application(django_user_model, client, origin, accepted):
    user = await sync_to_async(django_user_model.objects.create_user)("alice", password="pw-123456")
    await sync_to_async(client.force_login)(user)
    match = await sync_to_async(make_match)(user)
    headers = [
        (b"origin", origin),
        (b"host", b"localhost"),
        (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()),
    ]
    communicator = Socket(application, f"/ws/matches/{match.pk}/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected is accepted
    await communicator.disconnect()
