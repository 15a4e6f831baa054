"""The move list of the live and replay pages: each move in the game's own notation, grouped by hand or round.

A move's label and group come from the game (`Game.action_label`, `Game.round_label`) and the position before
the move; a move the viewer may not see (arena.record.visibility) shows only its public text, never its label.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any
from uuid import UUID

from arena.models import Match
from arena.record.visibility import action_hidden, visible_action
from games import Game

#: Labels are computed once per decision and process: a decision never changes, and a live page redraws its
#: whole list after every move (chess's SAN needs the position, which takes the game's moves to rebuild).
#: Keyed by the match's uid and the ply: database ids can be reused after a delete, uids never.
_LABELS_KEPT = 50_000
_labels: OrderedDict[tuple[UUID, int], tuple[str, str]] = OrderedDict()
_labels_lock = threading.Lock()


def _labels_of(match: Match, game: Game, plies: list[int]) -> dict[int, tuple[str, str]]:
    """(label, round heading) of the match's decision at each of `plies`, by ply."""
    with _labels_lock:
        labels = {ply: _labels[match.uid, ply] for ply in plies if (match.uid, ply) in _labels}
        for ply in labels:
            _labels.move_to_end((match.uid, ply))
    missing = [ply for ply in plies if ply not in labels]
    if missing:
        computed = {}
        for ply, state_json, action_json in match.decisions.filter(ply__in=missing).values_list(
            "ply", "state_before", "action"
        ):
            state = game.from_json(state_json)
            computed[ply] = (game.action_label(state, game.action_from_json(action_json)), game.round_label(state))
        with _labels_lock:
            _labels.update({(match.uid, ply): label for ply, label in computed.items()})
            while len(_labels) > _LABELS_KEPT:
                _labels.popitem(last=False)
        labels |= computed
    return labels


def move_groups(match: Match, game: Game, secret: bool, viewer_seats: list[int]) -> list[dict[str, Any]]:
    """The match's moves as a viewer may see them, in groups of one hand/round each (one untitled group in games
    without): {"title", "moves": [{"ply", "who", "label", "detail", "fallback"}]}; `who` names the seat in games
    of more than two, `detail` is a plan's full text."""
    rows = list(match.decisions.order_by("ply").values_list("ply", "seat", "action_text", "fallback"))
    labels = _labels_of(match, game, [row[0] for row in rows])
    groups: list[dict[str, Any]] = []
    named = len(game.seat_names) > 2  # with two seats the move number says who moved
    for ply, seat, text, fallback in rows:
        label, title = labels[ply]
        if action_hidden(game, secret, seat, text, viewer_seats):  # nor who acted: night order can give roles away
            label, detail, who = visible_action(game, secret, seat, text, viewer_seats), "", ""
        else:
            detail = text if game.document_actions and label != text else ""
            who = game.seat_names[seat] if named else ""
        if not groups or groups[-1]["title"] != title:
            groups.append({"title": title, "moves": []})
        groups[-1]["moves"].append({"ply": ply, "who": who, "label": label, "detail": detail, "fallback": fallback})
    return groups
