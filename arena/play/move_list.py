"""The move list of the live and replay pages: each move in the game's own notation, grouped by hand or round.

A move's label and group come from the game (`Game.action_label`, `Game.round_label`) and the position before
the move; a move the viewer may not see (arena.record.visibility) shows only its public text, never its label.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, NamedTuple
from uuid import UUID

from django.db.models import Case, F, JSONField, Value, When
from django.urls import reverse
from django.utils.html import conditional_escape as escape
from django.utils.safestring import SafeString, mark_safe

from arena.models import Match
from arena.record.visibility import action_hidden, visible_action
from games import Game

#: Labels are computed once per decision and process: a decision never changes, and a live page redraws its
#: whole list after every move (chess's SAN needs the position, which takes the game's moves to rebuild).
#: Keyed by the match's uid and the ply: database ids can be reused after a delete, uids never.
_LABELS_KEPT = 50_000
_labels: OrderedDict[tuple[UUID, int], tuple[str, str]] = OrderedDict()
_labels_lock = threading.Lock()


class MoveRow(NamedTuple):
    """A decision as the move list and the live panel read it; `state_before` and `action` only where this
    process has not labelled the move yet (None elsewhere: the positions of a long game are not re-read)."""

    ply: int
    seat: int
    action_text: str
    fallback: str
    pk: int
    created_at: Any
    state_before: dict | None
    action: Any


def move_rows(match: Match) -> list[MoveRow]:
    """The match's decisions in ply order, in one query with what labelling the new ones needs."""
    with _labels_lock:
        unlabelled = next((ply for ply in range(match.ply) if (match.uid, ply) not in _labels), match.ply)

    def if_unlabelled(field: str) -> Case:
        return Case(When(ply__gte=unlabelled, then=F(field)), default=Value(None), output_field=JSONField())

    rows = match.decisions.order_by("ply").values_list(
        "ply",
        "seat",
        "action_text",
        "fallback",
        "pk",
        "created_at",
        if_unlabelled("state_before"),
        if_unlabelled("action"),
    )
    return [MoveRow(*row) for row in rows]


def _labels_of(match: Match, game: Game, rows: list[MoveRow]) -> dict[int, tuple[str, str]]:
    """(label, round heading) of each row's decision, by ply."""
    plies = [row.ply for row in rows]
    with _labels_lock:
        labels = {ply: _labels[match.uid, ply] for ply in plies if (match.uid, ply) in _labels}
        for ply in labels:
            _labels.move_to_end((match.uid, ply))
    missing = [row for row in rows if row.ply not in labels]
    if any(row.state_before is None for row in missing):  # kept labels dropped since the rows were read
        missing = [row for row in move_rows(match) if row.ply not in labels]
    computed = {}
    for row in missing:
        state = game.from_json(row.state_before)
        computed[row.ply] = (game.action_label(state, game.action_from_json(row.action)), game.round_label(state))
    if computed:
        with _labels_lock:
            _labels.update({(match.uid, ply): label for ply, label in computed.items()})
            while len(_labels) > _LABELS_KEPT:
                _labels.popitem(last=False)
    return labels | computed


def move_groups(
    match: Match, game: Game, secret: bool, viewer_seats: list[int], rows: list[MoveRow] | None = None
) -> list[dict[str, Any]]:
    """The match's moves as a viewer may see them, in groups of one hand/round each (one untitled group in games
    without): {"title", "moves": [{"ply", "who", "label", "detail", "fallback"}]}; `who` names the seat in games
    of more than two, `detail` is a plan's full text. `rows` is `move_rows(match)` when the caller has read it."""
    rows = move_rows(match) if rows is None else rows
    labels = _labels_of(match, game, rows)
    groups: list[dict[str, Any]] = []
    named = len(game.seat_names) > 2  # with two seats the move number says who moved
    for ply, seat, text, fallback, *_ in rows:
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


_FALLBACK_BADGE = (
    ' <span class="badge badge-over_budget" title="The model gave no legal answer; the fallback policy chose this move'
    ' at random.">random fallback</span>'
)


def move_list_html(groups: list[dict[str, Any]], replay: tuple[int, int] | None = None) -> SafeString:
    """The move list of `move_groups`, drawn in Python: a live panel redraws it after every move and a template
    spends a few microseconds per node on each of its moves. `replay` is (match id, ply shown) on the replay page,
    where each move links to the position after it. Every value from the groups is escaped."""
    parts = ['\n\n<div class="move-list" tabindex="0" aria-label="Moves">\n  ']
    for group in groups:
        title = f'<h3 class="move-group">{escape(group["title"])}</h3>' if group["title"] else ""
        parts.append(f'\n    {title}\n    <ol start="{group["moves"][0]["ply"] + 1}">\n      ')
        for move in group["moves"]:
            who = f'<span class="muted">{escape(move["who"])}:</span> ' if move["who"] else ""
            label = _replay_link(*replay, move["ply"] + 1, move["label"]) if replay else escape(move["label"])
            detail = (
                '\n          <details class="move-detail"><summary>plan JSON</summary><pre class="model-text">'
                f"{escape(move['detail'])}</pre></details>"
                if move["detail"]
                else ""
            )
            fallback = move["fallback"]
            parts.append(
                f"\n        <li{' class="fallback"' if fallback else ''}>{who}{label}"
                f"{_FALLBACK_BADGE if fallback else ''}{detail}</li>\n      "
            )
        parts.append("\n    </ol>\n  ")
    parts.append("\n</div>\n")
    if not groups:
        parts.append('<p class="muted">No moves yet.</p>')
    return mark_safe("".join(parts) + "\n")  # every value from the groups is escaped above


def _replay_link(match_id: int, current: int, to: int, label: str) -> str:
    """A move's link on the replay page, as templates/arena/partials/replay-link.html draws it (plain, no step)."""
    url = reverse("match-replay", args=[match_id])
    here = ' aria-current="step"' if current == to else ""
    return (
        f'<a href="?ply={to}" hx-get="{url}?ply={to}" hx-target="#match-{match_id}-replay" hx-swap="outerHTML" '
        f'hx-push-url="?ply={to}"{here}>{escape(label)}</a>\n'  # the template file's last line ends
    )
