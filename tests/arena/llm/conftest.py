"""Fixtures for LLM seats: a scripted OpenAI-compatible server on loopback, and configs pointing at it."""

from __future__ import annotations

from typing import Any

import pytest

from games import get_game
from tests.arena.llm.scripted_server import MODEL, ScriptedServer


@pytest.fixture
def scripted():
    """A started scripted server; push replies onto it."""
    with ScriptedServer() as server:
        yield server


@pytest.fixture
def llm_config(scripted) -> dict[str, Any]:
    """An LLM config aimed at the scripted server, with backoff short enough for tests."""
    return {
        "base_url": scripted.base_url,
        "model": MODEL,
        "timeout_s": 5.0,
        "backoff_base_s": 0.001,
        "backoff_max_s": 0.01,
    }


@pytest.fixture
def ttt():
    """Tic-tac-toe and its opening position."""
    game = get_game("tic-tac-toe")
    return game, game.initial_state(seed=1)
