"""Fixtures the pages' tests share."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync

from arena.record.services import match_create
from arena.runner.loop import run_match


@pytest.fixture
def finished_match(ttt_bots):
    agents = [ttt_bots["tic-tac-toe-lv4"], ttt_bots["tic-tac-toe-lv1"]]
    return async_to_sync(run_match)(match_create(game="tic-tac-toe", agents=agents, seed=11).pk)
