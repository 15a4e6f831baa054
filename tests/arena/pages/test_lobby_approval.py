"""The lobby offers the agents staff approved and the visitor's own, nothing else: a stranger's remote agent is
nobody else's opponent until staff approve it in the admin."""

from __future__ import annotations

import pytest
from django.test import Client

from arena.models import Agent, Match
from arena.record.agents import agent_create, bots_ensure

pytestmark = pytest.mark.django_db

GUEST = {"nickname": "Robin", "consent": "yes", "seat": "0", "time_limit": "", "variant": ""}
REMOTE = {"url": "https://bot.example/move"}


@pytest.fixture
def strangers_agent(django_user_model) -> Agent:
    bots_ensure(game="connect-four")
    owner = django_user_model.objects.create_user("stranger", password="pw-123456")
    return agent_create(slug="strangers-bot", name="Stranger's bot", kind="remote", config=REMOTE, owner=owner)


def test_a_strangers_agent_is_offered_to_its_owner_only_until_staff_approve_it(strangers_agent, django_user_model):
    assert not strangers_agent.approved
    visitor = Client()
    assert "strangers-bot" not in visitor.get("/play/?game=connect-four").content.decode()
    assert "strangers-bot" not in visitor.get("/play/opponents/?game=connect-four").content.decode()
    refused = visitor.post("/play/", {**GUEST, "game": "connect-four", "opponent": "strangers-bot"})
    assert refused.status_code == 200
    assert "Select a valid choice" in refused.content.decode()
    assert not Match.objects.exists()

    owner = Client()
    owner.force_login(strangers_agent.owner)
    assert "strangers-bot" in owner.get("/play/?game=connect-four").content.decode()

    staff = Client()
    staff.force_login(django_user_model.objects.create_user("admin", password="pw-123456", is_staff=True,
                                                            is_superuser=True))  # fmt: skip
    changelist = staff.get("/admin/arena/agent/?approved__exact=0").content.decode()
    assert "strangers-bot" in changelist  # staff find the agents waiting for approval
    Agent.objects.filter(pk=strangers_agent.pk).update(approved=True)
    assert "strangers-bot" in visitor.get("/play/?game=connect-four").content.decode()
    started = visitor.post("/play/", {**GUEST, "game": "connect-four", "opponent": "strangers-bot"})
    assert started.status_code == 302


def test_the_sites_and_staffs_agents_are_approved_when_registered(django_user_model):
    staff = django_user_model.objects.create_user("admin", password="pw-123456", is_staff=True)
    assert agent_create(slug="sites", name="Site's", kind="remote", config=REMOTE).approved
    assert agent_create(slug="staffs", name="Staff's", kind="remote", config=REMOTE, owner=staff).approved
    assert all(bot.approved for bot in bots_ensure(game="connect-four"))
