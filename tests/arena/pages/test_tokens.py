"""People make and revoke their own API tokens on /accounts/tokens/: shown once, kept as a digest, scoped."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from arena.models import ApiToken

pytestmark = pytest.mark.django_db

AGENT = {"slug": "my-remote", "kind": "remote", "config": {"url": "http://127.0.0.1:9/move"}}


def signed_in(django_user_model, name: str) -> Client:
    client = Client()
    client.force_login(django_user_model.objects.create_user(name, password="pw-123456"))
    return client


def created_token(page) -> str:
    return re.search(r'<code id="new-token">([^<]+)</code>', page.content.decode()).group(1)


def test_a_person_creates_a_scoped_token_that_works_once_shown_and_revokes_it(django_user_model):
    ann = signed_in(django_user_model, "ann")
    page = ann.post("/accounts/tokens/", {"name": "lab <b>bot</b>", "scopes": ["agents"], "create": ""})
    assert page.status_code == 200
    assert "no-store" in page["Cache-Control"]  # the one page showing the token is not kept by caches
    token = created_token(page)
    assert "lab &lt;b&gt;bot&lt;/b&gt;" in page.content.decode()
    assert token not in json.dumps(list(ApiToken.objects.values()), default=str)  # only its digest is stored
    assert token not in ann.get("/accounts/tokens/").content.decode()  # never shown again

    api = Client()
    made = api.post("/api/v1/agents", AGENT, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert made.status_code == 200, made.content

    record = ApiToken.objects.get(user__username="ann")
    assert record.scopes == ["agents"]
    ann.post("/accounts/tokens/", {"revoke": str(record.pk)})
    refused = api.get("/api/v1/matches", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert refused.status_code == 401
    assert "revoked" in ann.get("/accounts/tokens/").content.decode()


def test_nobody_revokes_another_persons_token_and_a_bad_request_says_so(django_user_model):
    ann = signed_in(django_user_model, "ann")
    token = created_token(ann.post("/accounts/tokens/", {"name": "mine", "create": ""}))
    record = ApiToken.objects.get(user__username="ann")
    assert record.scopes == []  # read only unless a scope is ticked
    bob = signed_in(django_user_model, "bob")
    assert bob.post("/accounts/tokens/", {"revoke": str(record.pk)}).status_code == 404
    assert bob.post("/accounts/tokens/", {"revoke": "first"}).status_code == 400
    assert Client().get("/api/v1/matches", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 200


def test_the_page_needs_an_account_and_caps_live_tokens(django_user_model):
    assert Client().get("/accounts/tokens/").status_code == 302  # to the login page
    ann = signed_in(django_user_model, "ann")
    for number in range(10):
        ann.post("/accounts/tokens/", {"name": f"t{number}", "create": ""})
    refused = ann.post("/accounts/tokens/", {"name": "one too many", "create": ""})
    assert "revoke one first" in refused.content.decode()
    assert ApiToken.objects.filter(user__username="ann").count() == 10
