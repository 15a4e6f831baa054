"""Fixtures shared by the ratings tests."""

from __future__ import annotations

import pytest
from django.test import override_settings


@pytest.fixture
def small_bootstrap():
    """Bootstrap intervals from 50 rounds: enough to have intervals, quick enough for many fits."""
    with override_settings(ARENA_BOOTSTRAP_ROUNDS=50):
        yield
