"""Schemathesis against the API's own OpenAPI schema (/api/v1/openapi.json, read through the WSGI app): every
operation, anonymous and with a staff token, answers no 500 and only what the schema says, for inputs generated
from the schema, valid and not (its coverage phase tries each parameter's bounds, wrong types and methods)."""

from __future__ import annotations

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from arena.record.agents import bots_ensure
from tests.arena.api.test_api import make_token

pytestmark = pytest.mark.django_db

schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application())
CHECKS = [not_a_server_error, response_schema_conformance]
#: Generated examples per operation and caller: a few seconds in all, on top of the coverage phase's cases.
bounded = hypothesis_settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture(autouse=True)
def _record(settings) -> None:
    settings.ARENA_RATE_LIMITS = {"api_anonymous": (100_000, 60), "api_token_calls": (100_000, 60)}
    bots_ensure(game="tic-tac-toe")  # agents a generated tournament may name


@pytest.fixture
def token_headers(django_user_model) -> dict[str, str]:
    staff = django_user_model.objects.create_user("fuzzer", password="pw-123456", is_staff=True)
    return {"Authorization": f"Bearer {make_token(staff, 'agents', 'tournaments')}"}


@schema.parametrize()
@bounded
def test_anonymous_calls_get_no_500_and_what_the_schema_says(case):
    case.call_and_validate(checks=CHECKS)


@schema.parametrize()
@bounded
def test_calls_with_a_token_get_no_500_and_what_the_schema_says(case, token_headers):
    case.call_and_validate(headers=token_headers, checks=CHECKS)
