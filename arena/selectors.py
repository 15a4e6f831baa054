"""Reads of the match record that pages, commands and the runner need."""

from __future__ import annotations

from typing import Any

from arena.models import Match
from games import get_game


class ReplayMismatch(Exception):
    """The stored moves do not reproduce the stored state or result."""


def match_replayed_state(match: Match) -> Any:
    """Replay the stored decisions from the seed; ReplayMismatch if they disagree with the record."""
    game = get_game(match.game)
    state = game.initial_state(seed=match.seed, **match.options)
    for decision in match.decisions.order_by("ply"):
        if game.to_json(state) != decision.state_before:
            raise ReplayMismatch(f"match {match.pk}: state before ply {decision.ply} differs from the record")
        state = game.apply(state, game.action_from_json(decision.action))
    if match.state is not None and game.to_json(state) != match.state:
        raise ReplayMismatch(f"match {match.pk}: replayed state differs from the stored state")
    outcome = game.outcome(state)
    if match.status == Match.Status.FINISHED and outcome is not None and list(outcome.scores) != match.scores:
        raise ReplayMismatch(f"match {match.pk}: replayed result {outcome.scores} differs from {match.scores}")
    return state


def match_summary(match: Match) -> dict[str, Any]:
    """The CLI's one-object description of a match."""
    seats = list(match.seats.select_related("agent_version__agent").order_by("index"))
    return {
        "match_id": match.pk,
        "game": match.game,
        "seed": match.seed,
        "status": match.status,
        "agents": [seat.agent_version.agent.slug for seat in seats],
        "scores": match.scores,
        "termination": match.termination,
        "decisions": match.decisions.count(),
    }
