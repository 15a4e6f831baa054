"""One check of outside agents' configs for the CLI, the API and the pages: limits, kinds, signing."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from arena.agents.outside import outside_config
from arena.agents.remote import derived_secret
from arena.agents.sandbox import limits_with_defaults
from arena.config import ConfigError, from_env
from arena.models import Agent
from arena.record.services import ServiceError

pytestmark = pytest.mark.django_db


def add(*args: str) -> None:
    call_command("agents", "add", *args)


def test_program_limits_are_set_from_the_cli_within_the_maxima(settings):
    add("--slug", "limited", "--kind", "program", "--command", "/bin/true",
        "--wall-time-s", "2.5", "--cpu-s", "4", "--memory-mb", "256", "--output-bytes", "5000")  # fmt: skip
    limits = Agent.objects.get(slug="limited").current_version().config["limits"]
    assert limits == {"time_s": 2.5, "cpu_s": 4, "memory_mb": 256, "output_bytes": 5000}
    with pytest.raises(CommandError, match="at most 60"):
        add("--slug", "too-slow", "--kind", "program", "--command", "/bin/true", "--wall-time-s", "61")
    settings.ARENA_PROGRAM_LIMITS_MAX = {"memory_mb": 128}
    with pytest.raises(CommandError, match=r"limits.memory_mb .* at most 128"):
        add("--slug", "too-big", "--kind", "program", "--command", "/bin/true", "--memory-mb", "256")
    with pytest.raises(CommandError, match="for --kind program"):
        add("--slug", "engine", "--kind", "uci", "--command", "/usr/games/stockfish", "--cpu-s", "5")
    assert not Agent.objects.filter(slug__in=["too-slow", "too-big", "engine"]).exists()
    # A maximum lowered after an agent was saved binds it too: the sandbox never runs above a maximum.
    assert limits_with_defaults({"limits": limits})["memory_mb"] == 128


def test_only_an_operator_registers_programs_engines_or_signs_with_arenas_environment():
    for kind, fields in (("program", {"command": "/bin/true"}), ("uci", {"command": "stockfish"})):
        with pytest.raises(ServiceError, match="only an operator"):
            outside_config(kind, fields, operator=False)
        assert outside_config(kind, fields, operator=True)[0]["command"]
    with pytest.raises(ServiceError, match="only an operator"):
        outside_config("remote", {"url": "https://a.test/", "secret_env": "OPENAI_API_KEY"}, operator=False)
    config, secret = outside_config("remote", {"url": "https://a.test/"}, operator=False)
    assert config["public_only"] is True
    assert derived_secret(config["secret_id"]) == secret
    again, no_secret = outside_config("remote", {"url": "https://b.test/"}, operator=False, previous=config)
    assert again["secret_id"] == config["secret_id"]
    edited_by_staff, _ = outside_config("remote", {"url": "https://c.test/"}, operator=True, previous=config)
    assert edited_by_staff["public_only"] is True
    assert no_secret == ""


@pytest.mark.parametrize(
    ("kind", "fields", "message"),
    [
        ("remote", {"url": "ftp://a.test/"}, "url"),
        ("remote", {"url": "https://a.test/", "retries": 50}, "at most 5"),
        ("remote", {"url": "https://a.test/" + "x" * 500}, "url is at most 500 characters"),
        ("remote", {"url": "https://a.test/", "timeout_s": 1e12}, "timeout_s is at most 60"),
        ("remote", {"url": "https://a.test/", "secret_id": "chosen"}, "Unknown field"),
        ("remote", {"transport": "websocket", "url": "https://a.test/"}, "alone"),
        ("remote", {"transport": "carrier-pigeon"}, "transport"),
        ("program", {"command": "/bin/true", "protocol": "morse"}, "protocol"),
        ("program", {"command": "/bin/true", "limits": {"time_s": "fast"}}, "limits.time_s"),
        ("program", {"command": "/bin/true", "limits": {"network": 1}}, "Unknown limit"),
        ("uci", {"command": "stockfish", "nodes": 10, "movetime_ms": 5}, "at most one"),
        ("uci", {"command": "stockfish", "nodes": "many"}, "nodes should be a whole number"),
        ("llm", {"model": "x"}, "not an outside agent kind"),
    ],
)
def test_bad_configs_are_refused_with_the_field_to_fix(kind, fields, message):
    with pytest.raises(ServiceError, match=message):
        outside_config(kind, fields, operator=True)


def test_the_cli_registers_a_websocket_bot_for_an_owner(django_user_model):
    owner = django_user_model.objects.create_user("botmaker", password="pw-123456")
    with pytest.raises(CommandError, match="with --owner"):
        add("--slug", "orphan", "--kind", "remote", "--websocket")
    add("--slug", "ws", "--kind", "remote", "--websocket", "--owner", "botmaker")
    agent = Agent.objects.get(slug="ws")
    assert agent.owner == owner
    assert agent.current_version().config == {"transport": "websocket"}


def test_the_maxima_come_from_the_environment_and_bad_ones_stop_start_up():
    env = {"DJANGO_SECRET_KEY": "x", "ARENA_PROGRAM_LIMITS_MAX": "time_s=30, memory_mb=1024,"}
    assert from_env(env).program_limits_max == {"time_s": 30, "memory_mb": 1024}
    for bad in ("network=1", "time_s=0", "time_s=fast"):
        with pytest.raises(ConfigError, match="ARENA_PROGRAM_LIMITS_MAX"):
            from_env({**env, "ARENA_PROGRAM_LIMITS_MAX": bad})


def test_the_id_a_signing_secret_is_derived_from_stays_out_of_the_dataset(django_user_model):
    from arena.models import Match
    from arena.record.agents import agent_create, bots_ensure
    from arena.record.dataset import _records
    from arena.record.services import match_create

    config, _ = outside_config("remote", {"url": "https://a.test/"}, operator=False)
    remote = agent_create(slug="signed", name="signed", kind="remote", config=config)
    bot = bots_ensure(game="tic-tac-toe")[0]
    match = match_create(game="tic-tac-toe", agents=[remote, bot], seed=1)
    exported = next(r for r in _records(Match.objects.filter(pk=match.pk)) if r.get("slug") == "signed")
    assert exported["versions"][0]["config"] == {"url": "https://a.test/", "public_only": True}


def test_a_programs_language_is_set_from_the_cli_and_checked():
    add("--slug", "py-bot", "--kind", "program", "--command", "/bin/true", "--language", "python")
    assert Agent.objects.get(slug="py-bot").current_version().config["language"] == "python"
    with pytest.raises(CommandError, match="invalid choice: 'rust'"):
        add("--slug", "rust-bot", "--kind", "program", "--command", "/bin/true", "--language", "rust")
