"""What an outside agent may know of its match so far: the moves, as its seat may see them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async

from arena.models import Match
from arena.record.visibility import MatchView
from games import Game


@dataclass(frozen=True)
class Move:
    seat: int
    ply: int
    state_before: Any
    action: Any
    #: The action as `seat`'s viewer may see it (another seat's hidden plan stays hidden).
    text: str
    #: The seat that moved as `seat`'s viewer may know it: None for a hidden action (night order gives roles away).
    who: int | None


def _moves(match_id: int, game: Game, viewer: int) -> list[Move]:
    shown = MatchView.for_seats(Match.objects.get(pk=match_id), [viewer])
    return [
        Move(
            seat=decision.seat,
            ply=decision.ply,
            state_before=game.from_json(decision.state_before),
            action=game.action_from_json(decision.action),
            text=seen.action_text,
            who=seen.seat,
        )
        for decision in shown.match.decisions.order_by("ply")
        for seen in [shown.shown(decision)]
    ]


async def match_moves(match_id: int | None, game: Game, viewer: int) -> list[Move]:
    """The match's moves in order, each as `viewer`'s seat may see it (none when there is no match)."""
    if match_id is None:
        return []
    return await sync_to_async(_moves)(match_id, game, viewer)
