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

BEATS_PER_MOVE = 2


class BeatWaiter:
    """A seat that is not a bot's and thinks until the run's heartbeat has beaten BEATS_PER_MOVE times during its
    move, then plays the first legal move: however slow the machine, a move is made only if the run beats."""

    def __init__(self, beats: list) -> None:
        self.beats = beats

    async def decide(self, game, state, seat, match_seed) -> DecisionResult:
        heard = len(self.beats)
        while len(self.beats) < heard + BEATS_PER_MOVE:  # noqa: ASYNC110 - beats are recorded in another thread
            await asyncio.sleep(0.01)
        return DecisionResult(action=game.legal_actions(state)[0])


@pytest.mark.django_db
def test_a_run_beats_while_an_agent_thinks_and_stops_when_it_ends(ttt_bots, monkeypatch):
    beats = []
    monkeypatch.setattr(loop, "HEARTBEAT_INTERVAL_S", 0.05)
    monkeypatch.setattr(loop, "match_heartbeat", lambda **claim: beats.append((time.perf_counter(), claim)) or True)
    monkeypatch.setattr(loop, "player_for", lambda version, match_id=None: BeatWaiter(beats))
    match = match_create(game="tic-tac-toe", agents=[ttt_bots["tic-tac-toe-lv0"]] * 2, seed=1)

    async def run_then_wait() -> tuple[Match, float]:
        # A run that stopped beating would never finish: it fails here instead of hanging.
        played = await asyncio.wait_for(loop.run_match(match.pk, worker="thinker"), timeout=120)
        ended = time.perf_counter()
        await asyncio.sleep(0.2)  # a beat still running would land here
        return played, ended

    played, ended = async_to_sync(run_then_wait)()
    assert played.status == Match.Status.FINISHED
    assert len(beats) >= played.ply * BEATS_PER_MOVE  # every move waited for its own beats
    assert {tuple(sorted(claim.items())) for _at, claim in beats} == {(("match_id", match.pk), ("worker", "thinker"))}
    assert all(at < ended for at, _claim in beats)
