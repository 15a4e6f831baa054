"""The move list of the live and replay pages: each move in the game's own notation, grouped by hand or round.

A move's label and group come from the game (`Game.action_label`, `Game.round_label`) and the position before
the move; a move the viewer may not see (arena.record.visibility) shows only its public text, never its label.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, NamedTuple
from uuid import UUID

from django.urls import reverse
from django.utils.html import conditional_escape as escape
from django.utils.safestring import SafeString, mark_safe

from arena.models import Decision, Match
from arena.record.visibility import MatchView
from games import Game

#: Labels are computed once per decision and process: a decision never changes, and a live page redraws its
#: whole list after every move (chess's SAN needs the position, which takes the game's moves to rebuild).
#: Keyed by the match's uid and the ply: database ids can be reused after a delete, uids never.
_LABELS_KEPT = 50_000
_labels: OrderedDict[tuple[UUID, int], tuple[str, str]] = OrderedDict()
_labels_lock = threading.Lock()


class MoveRow(NamedTuple):
    """A decision as the move list and the live panel read it; `state_before` and `action` only on the rows a
    render read from the database (None on the rows kept from earlier reads: those moves are labelled already)."""

    ply: int
    seat: int
    action_text: str
    fallback: str
    pk: int
    created_at: Any
    state_before: dict | None
    action: Any


_COLUMNS = ("ply", "seat", "action_text", "fallback", "pk", "created_at", "state_before", "action")

#: Each match's decisions as `move_rows` read them (without positions), for the last matches rendered; under
#: `_labels_lock`. Keyed by uid like the labels.
_ROWS_KEPT_MATCHES = 4096
_rows: OrderedDict[UUID, tuple[MoveRow, ...]] = OrderedDict()


def move_rows(match: Match, recorded: Sequence[Decision] = ()) -> list[MoveRow]:
    """The match's decisions in ply order. Decisions are append-only (one per ply, recorded with the match's ply
    in one transaction), so the rows this process has read are kept per match and a render reads only the plies
    after them, with what labelling those needs; none at all when the kept rows reach `match.ply`, or when
    `recorded` (the decisions the write that left `match` so stored) are the plies after them."""
    with _labels_lock:
        kept = _rows.get(match.uid, ())
        if kept:
            _rows.move_to_end(match.uid)
    if match.ply and len(kept) >= match.ply:
        return list(kept)
    if fresh := _recorded_after(match, len(kept), recorded):
        new = fresh
    else:
        new = match.decisions.filter(ply__gte=len(kept)).order_by("ply").values_list(*_COLUMNS)
        new = [MoveRow(*row) for row in new]
    if [row.ply for row in new] == list(range(len(kept), len(kept) + len(new))):  # contiguous from ply 0
        with _labels_lock:
            _rows[match.uid] = kept + tuple(row._replace(state_before=None, action=None) for row in new)
            while len(_rows) > _ROWS_KEPT_MATCHES:
                _rows.popitem(last=False)
    return [*kept, *new]


def _recorded_after(match: Match, kept: int, recorded: Sequence[Decision]) -> list[MoveRow]:
    """The `recorded` decisions as rows, when they are the plies from `kept` to the match's ply; else none."""
    plies = [decision.ply for decision in recorded]
    if plies != list(range(kept, match.ply)) or any(decision.pk is None for decision in recorded):
        return []
    return [MoveRow(*(getattr(decision, column) for column in _COLUMNS)) for decision in recorded]


def _positions_of(match: Match, plies: list[int]) -> list[MoveRow]:
    """The rows of `plies` with their positions, read again when their kept labels were dropped."""
    return [MoveRow(*row) for row in match.decisions.filter(ply__in=plies).order_by("ply").values_list(*_COLUMNS)]


def _labels_of(match: Match, game: Game, rows: list[MoveRow]) -> dict[int, tuple[str, str]]:
    """(label, round heading) of each row's decision, by ply."""
    plies = [row.ply for row in rows]
    with _labels_lock:
        labels = {ply: _labels[match.uid, ply] for ply in plies if (match.uid, ply) in _labels}
        for ply in labels:
            _labels.move_to_end((match.uid, ply))
    missing = [row for row in rows if row.ply not in labels]
    if any(row.state_before is None for row in missing):  # kept labels dropped since the rows were read
        missing = _positions_of(match, [row.ply for row in missing])
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


def move_groups(shown: MatchView, rows: list[MoveRow] | None = None) -> list[dict[str, Any]]:
    """The match's moves as a viewer may see them (`shown`: their view of it), in groups of one hand/round each (one
    untitled group in games without): {"title", "moves": [{"ply", "who", "label", "detail", "fallback"}]}; `who`
    names the seat in games of more than two, `detail` is a plan's full text. `rows` is `move_rows(match)` when the
    caller has read it."""
    match, game = shown.match, shown.game
    rows = move_rows(match) if rows is None else rows
    labels = _labels_of(match, game, rows)
    groups: list[dict[str, Any]] = []
    named = len(game.seat_names) > 2  # with two seats the move number says who moved
    for row in map(shown.shown, rows):
        ply, seat, text, fallback = row.ply, row.seat, row.action_text, row.fallback
        label, title = labels[ply]
        if seat is None:  # a hidden action, and nobody's
            label, detail, who = text, "", ""
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


def move_list_html(
    groups: list[dict[str, Any]], replay: tuple[int, int] | None = None, *, full_moves: bool = False
) -> SafeString:
    """The move list of `move_groups`, drawn in Python: a live panel redraws it after every move and a template
    spends a few microseconds per node on each of its moves. `replay` is (match id, ply shown) on the replay page,
    where each move links to the position after it. With `full_moves` (chess) moves are numbered as players count
    them, "12. Qa4 Qb5": one number per pair, the second move beside the first. Every value from the groups is
    escaped."""
    parts = ['\n\n<div class="move-list" tabindex="0" aria-label="Moves">\n  ']
    for group in groups:
        title = f'<h3 class="move-group">{escape(group["title"])}</h3>' if group["title"] else ""
        numbered = ' class="full-moves"' if full_moves else f' start="{group["moves"][0]["ply"] + 1}"'
        # Each group in a section of its own: its heading sticks only while its own moves scroll past.
        parts.append(f"\n    <section>{title}\n    <ol{numbered}>\n      ")
        for index, move in enumerate(group["moves"]):
            who = f'<span class="muted">{escape(move["who"])}:</span> ' if move["who"] else ""
            if full_moves and (move["ply"] % 2 == 0 or index == 0):
                mark = "." if move["ply"] % 2 == 0 else "…"
                who = f'<span class="move-number">{move["ply"] // 2 + 1}{mark}</span> {who}'
            label = _replay_link(*replay, move["ply"] + 1, move["label"]) if replay else escape(move["label"])
            detail = (
                '\n          <details class="move-detail"><summary>plan JSON</summary><pre class="model-text">'
                f"{escape(move['detail'])}</pre></details>"
                if move["detail"]
                else ""
            )
            fallback = move["fallback"]
            classes = " ".join(
                c for c in ("fallback" if fallback else "", "second" if full_moves and move["ply"] % 2 else "") if c
            )
            parts.append(
                f"\n        <li{f' class="{classes}"' if classes else ''}>{who}{label}"
                f"{_FALLBACK_BADGE if fallback else ''}{detail}</li>\n      "
            )
        parts.append("\n    </ol></section>\n  ")
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
