"""One async runner plays any match, whoever sits in it, and can resume it from its record."""

from __future__ import annotations

import os
import socket

from asgiref.sync import sync_to_async

from arena.agents.base import SeatAgent
from arena.agents.bots import BotAgent
from arena.models import Agent, AgentVersion, Match
from arena.selectors import match_replayed_state
from arena.services import ServiceError, decision_record, match_claim
from games import get_game


def default_worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def seat_agent(version: AgentVersion) -> SeatAgent:
    """The seat agent that plays for `version`."""
    agent = version.agent
    if agent.kind == Agent.Kind.BOT:
        return BotAgent(version.config["bot"])
    raise ServiceError(f"{agent.slug} is a {agent.get_kind_display()}; the runner cannot seat it yet.")


def _load(match_id: int, worker: str):
    match = match_claim(match_id=match_id, worker=worker)
    if match is None:
        return None, None, None
    versions = [seat.agent_version for seat in match.seats.select_related("agent_version__agent")]
    return match, [seat_agent(v) for v in versions], match_replayed_state(match)


async def run_match(match_id: int, *, worker: str | None = None) -> Match | None:
    """Play `match_id` to the end from wherever its record stands.

    Returns None when another worker holds the match or it is already over.
    """
    worker = worker or default_worker_id()
    match, agents, state = await sync_to_async(_load)(match_id, worker)
    if match is None:
        return None
    game = get_game(match.game)
    while (seat := game.current_player(state)) is not None:
        result = await agents[seat].decide(game, state, seat, match.seed)
        match = await sync_to_async(decision_record)(
            match=match,
            ply=match.ply,
            action=result.action,
            attempts=result.attempts,
            elapsed_ms=result.elapsed_ms,
            fallback=result.fallback,
            worker=worker,
        )
        state = game.from_json(match.state)
    return match
