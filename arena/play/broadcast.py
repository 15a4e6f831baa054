"""Telling a match's pages that it changed: this process's pages at once, the others through the hub.

`arena.record.signals.match_updated` reaches `announce_on_match_updated` (connected in `arena.apps`), so the
runner announces its moves without importing live play; live play's own writers call
`broadcast_match_updated` directly.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from arena.models import Decision, Match
from arena.play.hub import local_hub
from arena.record.services import Recorded
from arena.record.turns import shown_status

#: The matches this process broadcast lately, by (id, ply, status), with the decisions the change recorded: a page
#: of this process that hears the update renders it from these instead of reading them again. Touched on the event
#: loop only.
_BROADCAST_KEPT = 256
_broadcast: OrderedDict[tuple[int, int, str], Recorded] = OrderedDict()


def broadcast_match(match_id: int, ply: int, status: str) -> Recorded | None:
    """The match as this process broadcast it at `ply` and `status`, and the decisions that change recorded, if
    it did lately (None: read it)."""
    return _broadcast.get((match_id, ply, str(status)))


async def broadcast_match_updated(match: Match, decisions: Sequence[Decision] = ()) -> None:
    """Tell every page watching the match that its record changed (how far it got, never state); `decisions`:
    the rows the change recorded, if it recorded moves."""
    status = shown_status(match)  # a pause changes what the page shows at the same ply
    _broadcast[match.pk, match.ply, str(status)] = Recorded(match, tuple(decisions))
    while len(_broadcast) > _BROADCAST_KEPT:
        _broadcast.popitem(last=False)
    # This process's pages hear it at once; the others through the channel layer.
    await local_hub().publish({"type": "match.updated", "match_id": match.pk, "ply": match.ply, "status": status})


async def announce_on_match_updated(
    sender: type, *, match: Match, decisions: Sequence[Decision] = (), **kwargs: Any
) -> None:
    """`match_updated` receiver: the runner recorded a change to `match` (and `decisions`); its pages hear it."""
    await broadcast_match_updated(match, decisions)
