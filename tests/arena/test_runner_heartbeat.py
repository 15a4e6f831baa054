"""A run keeps its claim fresh however long an agent thinks, and stops beating when it ends."""

from __future__ import annotations

import asyncio
import time

import pytest
from asgiref.sync import async_to_sync

from arena.agents.base import DecisionResult
from arena.models import Match
from arena.record.services import match_create
from arena.runner import loop

THINKING_S = 0.3


class SlowThinker:
    """A seat that is not a bot's and takes THINKING_S over each move (the first legal one)."""

    async def decide(self, game, state, seat, match_seed) -> DecisionResult:
        await asyncio.sleep(THINKING_S)
        return DecisionResult(action=game.legal_actions(state)[0], elapsed_ms=round(THINKING_S * 1000))


@pytest.mark.django_db
def test_a_run_beats_while_an_agent_thinks_and_stops_when_it_ends(ttt_bots, monkeypatch):
    beats = []
    monkeypatch.setattr(loop, "HEARTBEAT_INTERVAL_S", 0.05)
    monkeypatch.setattr(loop, "match_heartbeat", lambda **claim: beats.append((time.perf_counter(), claim)) or True)
    monkeypatch.setattr(loop, "player_for", lambda version, match_id=None: SlowThinker())
    match = match_create(game="tic-tac-toe", agents=[ttt_bots["tic-tac-toe-lv0"]] * 2, seed=1)

    async def run_then_wait() -> tuple[Match, float]:
        played = await loop.run_match(match.pk, worker="thinker")
        ended = time.perf_counter()
        await asyncio.sleep(0.2)  # a beat still running would land here
        return played, ended

    played, ended = async_to_sync(run_then_wait)()
    assert played.status == Match.Status.FINISHED
    moves = played.ply  # every one a slow thinker's: THINKING_S each
    assert len(beats) >= moves * THINKING_S / 0.05 / 2
    assert {tuple(sorted(claim.items())) for _at, claim in beats} == {(("match_id", match.pk), ("worker", "thinker"))}
    assert all(at < ended for at, _claim in beats)
