"""Seat agents: one protocol for bots, LLMs and people (DESIGN §4)."""
