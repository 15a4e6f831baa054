"""Shared test machinery: every test that touches the database ends by replaying every match it made, and the
suites that share one costly server per process run together on one pytest-xdist worker."""

from __future__ import annotations

import io
import zlib

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import override_settings

from arena.play import broadcast, consumers

#: Tests that share a session's costly servers run on one pytest-xdist worker, so each server starts once
#: (PostgreSQL and Redis; llama.cpp), while all other tests spread per test. The browser suite (a daphne site
#: and Chromium) is cut in two groups by module, so two workers share it.
SHARED_SERVERS = {
    "scaleout": "scaleout",
    "test_local_model.py": "local-model",
    "test_local_server.py": "local-model",  # its own llama.cpp servers: one at a time beside the session's
}
BROWSER_GROUPS = 2


def shared_servers_group(path) -> str | None:
    """The pytest-xdist group of the test module at `path`, or None for a test that may run anywhere."""
    if path.parent.name == "browser":
        return f"browser-{zlib.crc32(path.name.encode()) % BROWSER_GROUPS}"
    return SHARED_SERVERS.get(path.parent.name) or SHARED_SERVERS.get(path.name)


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own hook, which reads the mark into the test's id
def pytest_collection_modifyitems(items):
    for item in items:
        group = shared_servers_group(item.path)
        if group:
            item.add_marker(pytest.mark.xdist_group(group))


def pytest_runtest_setup(item):
    """In a pytest-xdist worker, a grouped test's group must be in its id, which the scheduler reads: a pytest and
    pytest-xdist pair that loses it would silently start the costly servers once per worker."""
    grouped = item.get_closest_marker("xdist_group")
    if getattr(item.config.option, "loadgroup", False) and grouped and "@" not in item.nodeid:
        pytest.fail("pytest-xdist did not group this test (see the pytest pin in requirements-dev.txt)")


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each test starts with empty rate-limit counters (every test client shares the address 127.0.0.1) and no
    live frames kept by match id: a rolled-back test hands its ids to the next test in the same process."""
    cache.clear()
    broadcast._broadcast.clear()
    consumers.fragments.frames.clear()


@pytest.fixture(autouse=True)
def _every_match_replays(request):
    """After each database test, `verify_replays`: stored moves must reproduce stored states and results."""
    marker = request.node.get_closest_marker("django_db")
    uses_db = marker is not None or {"db", "transactional_db"} & set(request.fixturenames)
    if not uses_db:
        yield
        return
    transactional = bool(marker and (marker.kwargs.get("transaction") or (marker.args and marker.args[0])))
    request.getfixturevalue("transactional_db" if transactional else "db")
    yield
    call_command("verify_replays", stdout=io.StringIO())


@pytest.fixture
def small_bootstrap():
    """Bootstrap intervals from 50 rounds: enough to have intervals, quick enough for many fits."""
    with override_settings(ARENA_BOOTSTRAP_ROUNDS=50):
        yield
