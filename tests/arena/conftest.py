"""Fixtures for the match record: real services, real runner, SQLite."""

from __future__ import annotations

import asyncio

import pytest

from arena.models import Agent
from arena.play import consumers
from arena.record.agents import bots_ensure


@pytest.fixture
def ttt_bots(db) -> dict[str, Agent]:
    """The tic-tac-toe ladder as agents, by slug."""
    return {agent.slug: agent for agent in bots_ensure(game="tic-tac-toe")}


@pytest.fixture
async def bot_turns_finish():
    """A page's move sets the bot's turn going in the background: let it finish writing before the test's
    record is checked (the replay check after every test), rather than racing it."""
    yield
    await asyncio.gather(*consumers._running, return_exceptions=True)
