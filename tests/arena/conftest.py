"""Fixtures for the match record: real services, real runner, SQLite."""

from __future__ import annotations

import pytest

from arena.models import Agent
from arena.record.agents import bots_ensure


@pytest.fixture
def ttt_bots(db) -> dict[str, Agent]:
    """The tic-tac-toe ladder as agents, by slug."""
    return {agent.slug: agent for agent in bots_ensure(game="tic-tac-toe")}
