"""Evaluation companion agents (`<agent>--<protocol>-<scaffold>`) and bot-ladder slugs are the site's: nobody
registers one (page, API, command), an evaluation owns the companions it seats, and an agent of another owner
is never taken over."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from arena.evaluate.services import evaluation_create
from arena.models import Agent, AgentVersion
from arena.record.agents import agent_create, bots_ensure, companion_slug
from arena.record.services import ServiceError
from tests.arena.api.test_api import make_token

pytestmark = pytest.mark.django_db

COMPANION = "m--botzonebench-botzone"
SQUATTER_CONFIG = {"transport": "websocket"}


@pytest.fixture
def model() -> Agent:
    return agent_create(slug="m", name="M", kind="llm", config={"base_url": "http://127.0.0.1:9/v1", "model": "x"})


@pytest.fixture
def stranger(django_user_model):
    return django_user_model.objects.create_user("stranger", password="pw-123456")


@pytest.mark.parametrize("slug", [COMPANION, "x--y", "tic-tac-toe-lv9"])
def test_nobody_registers_a_reserved_slug_on_any_path(stranger, slug):
    client = Client()
    client.force_login(stranger)
    page = client.post("/agents/new/?kind=websocket", {"slug": slug, "name": "mine", "game": ""})
    assert page.status_code == 200
    assert "reserved" in page.content.decode()

    token = make_token(stranger, "agents")
    api = Client().post(
        "/api/v1/agents",
        json.dumps({"slug": slug, "kind": "remote", "config": {"url": "https://bot.example/move"}}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert api.status_code == 400
    assert "reserved" in api.json()["detail"]

    with pytest.raises(CommandError, match="reserved"):
        call_command("agents", "add", "--slug", slug, "--kind", "remote", "--url", "https://bot.example/move")
    assert not Agent.objects.filter(slug=slug).exists()


def test_a_staff_evaluation_owns_its_companion(model, django_user_model):
    staff = django_user_model.objects.create_user("researcher", password="pw-123456", is_staff=True)
    evaluation_create(agent=model, protocol="botzonebench", games=["tic-tac-toe"], games_per_seat=1, owner=staff)
    companion = Agent.objects.get(slug=COMPANION)
    assert companion.owner == staff
    assert companion.current_version().config["scaffold"] == "botzone"
    # The same evaluation asked again finds its own companion.
    evaluation_create(agent=model, protocol="botzonebench", games=["tic-tac-toe"], games_per_seat=1, owner=staff)
    assert Agent.objects.filter(slug=COMPANION).count() == 1


def test_staff_resume_a_companion_the_command_line_made(model, django_user_model):
    evaluation_create(agent=model, protocol="botzonebench", games=["tic-tac-toe"], games_per_seat=1)
    assert Agent.objects.get(slug=COMPANION).owner is None  # the site's
    staff = django_user_model.objects.create_user("researcher", password="pw-123456", is_staff=True)
    evaluation_create(agent=model, protocol="botzonebench", games=["tic-tac-toe"], games_per_seat=1, owner=staff)
    assert Agent.objects.filter(slug=COMPANION).count() == 1


def test_an_agent_of_another_owner_at_the_companions_slug_is_refused_not_taken_over(model, stranger):
    # Left from before slugs were reserved: a stranger's websocket bot where the companion would go.
    squatter = Agent.objects.create(slug=COMPANION, name="mine", kind=Agent.Kind.REMOTE, owner=stranger)
    AgentVersion.objects.create(agent=squatter, number=1, config=SQUATTER_CONFIG)
    with pytest.raises(ServiceError, match="not this one"):
        evaluation_create(agent=model, protocol="botzonebench", games=["tic-tac-toe"], games_per_seat=1)
    squatter.refresh_from_db()
    assert squatter.versions.count() == 1
    assert squatter.current_version().config == SQUATTER_CONFIG


def test_a_bot_ladder_does_not_take_over_a_strangers_agent(stranger):
    squatter = Agent.objects.create(slug="tic-tac-toe-lv0", name="mine", kind=Agent.Kind.REMOTE, owner=stranger)
    AgentVersion.objects.create(agent=squatter, number=1, config=SQUATTER_CONFIG)
    with pytest.raises(ServiceError, match="not this one"):
        bots_ensure(game="tic-tac-toe")
    assert squatter.current_version().config == SQUATTER_CONFIG


def test_a_long_companion_slug_keeps_the_mark_and_differs_from_its_agent():
    agent = Agent(slug="a" * 80)
    slug = companion_slug(agent, "botzonebench-botzone")
    assert len(slug) == 80
    assert "--" in slug
    assert slug != agent.slug
