"""The API's throttles count the client address the rest of the site counts (ARENA_CLIENT_IP_HEADER), not
whatever X-Forwarded-For a client writes, and writes per token."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.arena.api.test_api import bearer, make_token

pytestmark = pytest.mark.django_db(transaction=True)


def test_varied_forwarded_headers_buy_no_fresh_allowance_without_a_trusted_header(settings):
    settings.ARENA_CLIENT_IP_HEADER = ""
    settings.ARENA_RATE_LIMITS = {"api_anonymous": (5, 3600)}
    client = Client()
    codes = [client.get("/api/v1/matches", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}").status_code for n in range(8)]
    assert codes == [200] * 5 + [429] * 3
    refused = client.get("/api/v1/matches")
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 3600


def test_behind_a_proxy_the_configured_header_names_the_client(settings):
    settings.ARENA_CLIENT_IP_HEADER = "X-Real-IP"
    settings.ARENA_RATE_LIMITS = {"api_anonymous": (2, 3600)}
    client = Client()
    first = [client.get("/api/v1/matches", HTTP_X_REAL_IP="203.0.113.7").status_code for _ in range(3)]
    assert first == [200, 200, 429]
    # Another client behind the same proxy has its own allowance; X-Forwarded-For is not the configured header.
    assert client.get("/api/v1/matches", HTTP_X_REAL_IP="203.0.113.8").status_code == 200
    spoofed = client.get("/api/v1/matches", HTTP_X_REAL_IP="203.0.113.7", HTTP_X_FORWARDED_FOR="192.0.2.1")
    assert spoofed.status_code == 429
    # IPv6 counts per /64, as for the pages.
    six = [client.get("/api/v1/matches", HTTP_X_REAL_IP=f"2001:db8::{n}").status_code for n in range(1, 4)]
    assert six == [200, 200, 429]


def test_writes_count_per_token(settings, django_user_model):
    settings.ARENA_RATE_LIMITS = {"api_token_calls": (2, 3600)}
    client = Client()
    tokens = [make_token(django_user_model.objects.create_user(n, password="pw-123456"), "agents") for n in "ab"]
    body = {"config": {"url": "http://127.0.0.1:9/"}}

    def write(token: str) -> int:
        return client.post(
            "/api/v1/agents/none/versions", body, content_type="application/json", **bearer(token)
        ).status_code

    assert [write(tokens[0]) for _ in range(3)] == [404, 404, 429]
    assert write(tokens[1]) == 404  # the other token's own allowance
