"""HTML fragments shared by views and websocket consumers: one renderer per fragment."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from itertools import accumulate
from typing import Any
from uuid import UUID

from django.db import connection
from django.template import Context
from django.template.loader import get_template, render_to_string
from django.utils import timezone

from arena.models import Agent, AgentVersion, Annotation, AnnotationTag, Attempt, Decision, Match, Tournament
from arena.pages.boards import PYTHON_BOARDS
from arena.pages.live_panel import live_panel_html
from arena.pages.move_list import move_groups, move_list_html, move_rows
from arena.pages.results import result_text
from arena.record.selectors import match_state_at, seat_versions, tournament_progress
from arena.record.visibility import MatchView
from arena.templatetags.match_seats import blinded_label
from games import Game, get_game


def render_plain(template: str, context: dict[str, Any]) -> str:
    """A template rendered without number localisation: boards and live panels are redrawn on every
    move, they hold coordinates and counts rather than prose, and localising each number is a large
    share of their cost."""
    return get_template(template).template.render(Context(context, use_l10n=False))


def board_html(game: Game, state: Any, seat: int | None, *, reveal: bool = False) -> str:
    """The game's board as `seat` (None: a spectator) may see it, or everything with `reveal`."""
    view = game.full_view(state) if reveal else game.player_view(state, seat)
    return render_view(game, view, seat)


def render_view(game: Game, view: dict[str, Any], seat: int | None) -> str:
    """The game's board drawn from a view already computed for `seat` (None: a spectator)."""
    if draw := PYTHON_BOARDS.get(game.slug):
        return draw(view, seat)
    return render_plain(f"games/{game.slug}/board.html", {"view": view, "seat": seat})


def legal_moves(game: Game, state: Any) -> list[dict[str, Any]]:
    """Each legal action's text and the cells a person clicks to make it."""
    return [
        {"text": game.action_to_text(state, action), "cells": list(game.action_cells(state, action))}
        for action in game.legal_actions(state)
    ]


def live_seats(match: Match) -> list[dict[str, Any]]:
    """Who sits where. Fixed when the match is made, so while it is played a process reads it once (the runner's
    `seat_versions`), not once per page: a crowd of spectators arriving costs no seat query each.
    A finished match's seats are read afresh (a guest's games move to their account once they are over)."""
    if match.status in (Match.Status.PENDING, Match.Status.RUNNING):
        return list(_live_seats(match.uid, match.game))
    return list(_seats_shown(match.game, seat_versions.__wrapped__(match.uid)))


@functools.lru_cache(maxsize=4096)
def _live_seats(match_uid: UUID, game: str) -> tuple[dict[str, Any], ...]:
    return _seats_shown(game, seat_versions(match_uid))


def _seats_shown(game: str, versions: tuple[AgentVersion, ...]) -> tuple[dict[str, Any], ...]:
    names = get_game(game).seat_names
    link = get_template("arena/partials/agent-link.html")  # drawn once per seat here, not on every render
    return tuple(
        {"index": index, "name": names[index], "agent": version.agent, "link": link.render({"agent": version.agent})}
        for index, version in enumerate(versions)
    )


def current_names(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`seats` with each guest's agent read afresh: a guest who signs up mid-match takes the account's name, and
    the live page shows it from its next frame on. One small read of the names, made only while a guest sits in
    the match (the names of bots, models and accounts are fixed, so theirs stay as `live_seats` read them once);
    the agents are read whole only when a name changed."""
    shown = {seat["agent"].pk: seat["agent"].name for seat in seats if _guest(seat["agent"])}
    if not shown:
        return seats
    renamed = [pk for pk, name in _agent_names(list(shown)) if name != shown[pk]]
    if not renamed:
        return seats
    fresh = Agent.objects.in_bulk(renamed)
    link = get_template("arena/partials/agent-link.html")
    return [
        {**seat, "agent": agent, "link": link.render({"agent": agent})}
        if (agent := fresh.get(seat["agent"].pk)) is not None
        else seat
        for seat in seats
    ]


def _agent_names(pks: list[int]) -> list[tuple[int, str]]:
    """The agents' current names, in a statement written here: on every live frame, building the ORM's query
    cost thirty times what running it did."""
    quote = connection.ops.quote_name
    table, pk = quote(Agent._meta.db_table), quote(Agent._meta.pk.column)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {pk}, {quote('name')} FROM {table} WHERE {pk} IN ({', '.join(['%s'] * len(pks))})", pks)
        return cursor.fetchall()


def blinded(match: Match, seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`seats` as a blinded study's participant sees them: each opponent by its label ("Opponent A", the match
    record's `seat_labels`), with no name, kind or link that would say who or what plays; the participant's own
    seat unlinked too (its page lists the opponents)."""
    labels = match.record.get("seat_labels")
    if not labels:
        return seats
    return [
        {**seat, "agent": Agent(pk=seat["agent"].pk, slug="", name=label, kind=""), "link": blinded_label(label)}
        if (label := labels.get(str(seat["index"])))
        else {**seat, "link": blinded_label(seat["agent"].name)}
        for seat in seats
    ]


def _guest(agent: Agent) -> bool:
    return agent.kind == Agent.Kind.HUMAN and agent.user_id is None


def live_match_html(
    match: Match, viewer, seats: list[dict[str, Any]] | None = None, recorded: Sequence[Decision] = ()
) -> str:
    """The play/spectate panel of a match as one viewer (a person's agent, or None) sees it.

    `seats` is `live_seats(match)` when the caller keeps it (a websocket consumer does); `recorded`, the decisions
    the write that left `match` so stored, when the caller has them (`arena.record.services.Recorded`).
    """
    return live_panel_html(live_panel_context(match, viewer, seats, recorded))


def live_panel_context(
    match: Match, viewer, seats: list[dict[str, Any]] | None = None, recorded: Sequence[Decision] = ()
) -> dict[str, Any]:
    """What the live panel shows one viewer (arena.pages.live_panel draws it; a game's controls template reads it)."""
    game = get_game(match.game)
    state = game.from_json(match.state)
    seats = blinded(match, current_names(seats or live_seats(match)))
    mine = [seat["index"] for seat in seats if viewer is not None and seat["agent"].pk == viewer.pk]
    shown = MatchView.for_seats(match, mine)
    scores = shown.scores or [None] * len(game.seat_names)
    seats = [{**seat, "score": scores[seat["index"]]} for seat in seats]
    to_move = game.current_player(state) if match.status == Match.Status.RUNNING else None
    view_seat = to_move if to_move in mine else (mine[0] if mine else None)
    shown_to_move = game.shown_to_move(state, view_seat) if to_move is not None else None
    decisions = move_rows(match, recorded)  # one read serves the move list, the fallback badges and the clock
    fallbacks = Counter(row.seat for row in map(shown.shown, decisions) if row.fallback)
    seats = [{**seat, "fallbacks": fallbacks[seat["index"]]} for seat in seats]
    reasoning = None
    last = decisions[-1] if decisions else None
    if last is not None and seats[last.seat]["agent"].kind == Agent.Kind.LLM and shown.trace(last):
        ok = Attempt.objects.filter(decision_id=last.pk, verdict=Attempt.Verdict.OK)
        reasoning = ok.values("reasoning_text", "raw_text").last()
    since = decisions[-1].created_at if decisions else (match.started_at or match.created_at)
    my_turn = to_move is not None and to_move in mine
    view = game.player_view(state, view_seat)
    context = {
        "match": match,
        "game": game,
        "seats": seats,
        # Once nothing is secret any more (the match and its seed twins are over), the board shows everything.
        "board": render_view(game, view if shown.keeps_secrets else game.full_view(state), view_seat),
        "my_seats": mine,
        "to_move": to_move,
        "shown_to_move": shown_to_move,
        "to_move_agent": seats[shown_to_move]["agent"] if shown_to_move is not None else None,
        "legal_id": f"match-{match.pk}-legal",
        "my_turn": my_turn,
        "legal": legal_moves(game, state) if my_turn else [],
        "thinking_s": round((timezone.now() - since).total_seconds()) if to_move is not None else 0,
        "time_limit_s": match.record.get("policies", {}).get("move_time_limit_s"),
        # A move the fallback policy chose (the model gave no legal answer) is marked, never passed off as its play.
        "move_list": move_list_html(move_groups(shown, decisions), full_moves=game.full_move_numbers),
        "last_reasoning": reasoning,
        "view": view,
        # "Play again" starts the same game against the same opponent.
        "opponent": next((seat["agent"] for seat in seats if seat["index"] not in mine), None),
        "variant": game.variant_of(match.options),
        "result": _result(shown, seats),
    }
    # A game's own controls (bet sizes, plan editors) are its template, given everything above.
    has_controls = my_turn and game.has_controls
    context["controls"] = render_plain(f"games/{game.slug}/controls.html", context) if has_controls else ""
    return context


def _result(shown: MatchView, seats: list[dict[str, Any]]) -> str:
    """How a finished match ended, in words; until its set is over, only that it is sealed."""
    if shown.match.status != Match.Status.FINISHED:
        return ""
    if shown.keeps_secrets:
        return "the result is sealed until the matches on the same deal are over"
    return result_text(shown.termination, seats, shown.scores)


def tournament_progress_html(tournament: Tournament) -> str:
    """Progress bar and standings; polls itself every 2 s while the tournament runs."""
    progress = tournament_progress(tournament)
    percent = round(100 * progress["done"] / progress["total"]) if progress["total"] else 100
    live = tournament.status in (Tournament.Status.CREATED, Tournament.Status.RUNNING)
    return render_to_string(
        "arena/partials/tournament-progress.html",
        {"tournament": tournament, "progress": progress, "percent": percent, "live": live},
    )


def annotations_html(shown: MatchView, decision: Decision, user, error: str = "") -> str:
    """A decision's annotations, and the signed-in person's form to add or edit theirs (offered only when
    `shown`, the person's view of the match, lets them see the decision's action)."""
    annotations = list(decision.annotations.select_related("author").prefetch_related("tags"))
    mine = next((a for a in annotations if user.is_authenticated and a.author_id == user.pk), None)
    context = {
        "decision": decision,
        "annotations": annotations,
        "mine": mine,
        "my_tags": {t.slug for t in mine.tags.all()} if mine else set(),
        "user": user,
        "annotatable": shown.annotatable(decision),
        "glyphs": Annotation.GLYPHS,
        "tags": AnnotationTag.objects.filter(is_active=True),
        "error": error,
    }
    return render_to_string("arena/partials/decision-annotations.html", context)


def replay_html(shown: MatchView, ply: int, user) -> str:
    """The replay panel at `ply`: board, step controls, move list and the trace of the move that led here, or of
    every move of the turn that ended here in games that step a turn at a time (`Game.turns`).

    Once the match has no secrets left it reveals everything; until then a viewer sees what their seats
    may see (`shown`, their view of the match).
    """
    match, game = shown.match, shown.game
    ply = min(max(ply, 0), match.ply)
    turns = game.turns(match_state_at(match, match.ply))
    ends = list(accumulate(plies for _, plies in turns))
    stops = [0, *ends] if turns else list(range(match.ply + 1))
    ply = min(stop for stop in stops if stop >= ply)  # a turn's inner plies are no steps: show the turn resolved
    state = match_state_at(match, ply)
    groups = move_groups(shown)
    step = stops.index(ply)
    decisions = match.decisions.select_related("match").filter(ply__gte=stops[step - 1] if step else 0, ply__lt=ply)
    decisions = decisions.order_by("ply")
    listed = {move["ply"]: move for group in groups for move in group["moves"]}
    seats = live_seats(match) if user.is_staff else blinded(match, live_seats(match))
    agents = [seat["agent"] for seat in seats]
    traced = [_traced(shown, decision, user, agents) | {"move": listed[decision.ply]} for decision in decisions]
    labelled = set() if user.is_staff else {int(seat) for seat in match.record.get("seat_labels", {})}
    for entry in traced:  # a blinded opponent's prompts and replies would say what it is
        if entry["decision"].seat in labelled:
            entry["attempts"] = []
    context = {
        "match": match,
        "game": game,
        "ply": ply,
        "prev_ply": stops[max(step - 1, 0)],
        "next_ply": stops[min(step + 1, len(stops) - 1)],
        "board": board_html(game, state, shown.seats[0] if shown.seats else None, reveal=not shown.keeps_secrets),
        "move_list": move_list_html(groups, replay=(match.pk, ply), full_moves=game.full_move_numbers),
        "turns": turns,
        "turn": turns[step - 1][0] if turns and step else "",
        "step": step,
        "steps": len(stops) - 1,
        "traced": traced,
    }
    return render_to_string("arena/partials/match-replay.html", context)


def _traced(shown: MatchView, decision: Decision, user, agents: list[Agent]) -> dict[str, Any]:
    """One decision as the replay's trace shows it to a viewer: its action, attempts and annotations where allowed,
    and who decided (`agents`: the match's agents by seat) when that is not secret."""
    if shown.hides(decision):  # its public text, and nothing that says who acted when (Werewolf's night order)
        return {"decision": shown.shown(decision), "attempts": [], "annotations": "", "agent": None}
    visible = shown.trace(decision)
    attempts = list(decision.attempts.order_by("number")) if visible else []
    decision.seat_name = shown.game.seat_names[decision.seat]
    return {
        "decision": decision,
        "attempts": attempts,
        "annotations": annotations_html(shown, decision, user),
        "agent": agents[decision.seat] if decision.seat < len(agents) else None,
        "trace_hidden": not visible,
    }
