"""What an outside agent may know of its match so far: the moves, as its seat may see them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async

from arena.models import Decision
from arena.record.visibility import visible_action, visible_seat
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
    rows = (
        Decision.objects.filter(match_id=match_id)
        .order_by("ply")
        .values_list("seat", "ply", "state_before", "action", "action_text")
    )
    return [
        Move(
            seat=seat,
            ply=ply,
            state_before=game.from_json(state_before),
            action=game.action_from_json(action),
            text=visible_action(game, True, seat, text, [viewer]),
            who=visible_seat(game, True, seat, text, [viewer]),
        )
        for seat, ply, state_before, action, text in rows
    ]


async def match_moves(match_id: int | None, game: Game, viewer: int) -> list[Move]:
    """The match's moves in order, each as `viewer`'s seat may see it (none when there is no match)."""
    if match_id is None:
        return []
    return await sync_to_async(_moves)(match_id, game, viewer)
