"""Seat agents: one protocol for bots, LLMs and people (docs/architecture.md, arena/agents)."""
