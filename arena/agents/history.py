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


def _moves(match_id: int, game: Game, viewer: int, after_ply: int) -> list[Move]:
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
        for decision in shown.match.decisions.filter(ply__gt=after_ply).order_by("ply")
        for seen in [shown.shown(decision)]
    ]


class MatchMoves:
    """The moves of an outside agent's match, as its seat may see them, each read from the record once.

    While a match is played its moves only grow, and how a seat sees one does not change (a live match keeps its
    secrets: arena.record.visibility), so an agent keeps one of these for its run: reading and decoding every state
    at every turn made a long match's turns cost the square of its length.
    """

    def __init__(self, match_id: int | None) -> None:
        self.match_id = match_id
        self.seat: int | None = None
        self.moves: list[Move] = []

    async def read(self, game: Game, seat: int) -> list[Move]:
        """The match's moves in order, each as `seat` may see it (none when there is no match)."""
        if self.match_id is None:
            return []
        if seat != self.seat:
            self.seat, self.moves = seat, []
        after_ply = self.moves[-1].ply if self.moves else -1
        self.moves += await sync_to_async(_moves)(self.match_id, game, seat, after_ply)
        return list(self.moves)


async def match_moves(match_id: int | None, game: Game, viewer: int) -> list[Move]:
    """The match's moves in order, each as `viewer`'s seat may see it, read once (an agent keeps a `MatchMoves`)."""
    return await MatchMoves(match_id).read(game, viewer)
