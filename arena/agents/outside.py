"""Agents that live outside Arena's process: programs (Botzone protocol), UCI engines and remote agents."""

from __future__ import annotations

from collections.abc import Iterable

from arena.agents.program import ProgramAgent
from arena.agents.remote import RemoteAgent
from arena.agents.uci import UCIAgent

#: Agent kind → the seat agent class; each takes (config, *, match_id).
OUTSIDE_AGENTS = {"program": ProgramAgent, "uci": UCIAgent, "remote": RemoteAgent}


async def close_agents(agents: Iterable[object]) -> None:
    """Stop what the agents keep running between turns (programs, engines)."""
    for agent in agents:
        if isinstance(agent, (ProgramAgent, UCIAgent)):
            await agent.close()
