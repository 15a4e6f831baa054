"""HTML fragments shared by views and websocket consumers: one renderer per fragment."""

from __future__ import annotations

from typing import Any

from django.template import Context
from django.template.loader import get_template, render_to_string
from django.utils import timezone

from arena.models import Agent, Annotation, AnnotationTag, Attempt, Decision, Match, Tournament
from arena.play.people import person_seats
from arena.record.selectors import match_state_at, tournament_progress
from games import Game, get_game


def render_plain(template: str, context: dict[str, Any]) -> str:
    """A template rendered without number localisation: boards and live panels are redrawn on every
    move, they hold coordinates and counts rather than prose, and localising each number is a large
    share of their cost."""
    return get_template(template).template.render(Context(context, use_l10n=False))


def board_html(game: Game, state: Any, seat: int | None, *, reveal: bool = False) -> str:
    """The game's board as `seat` (None: a spectator) may see it, or everything with `reveal`."""
    view = game.full_view(state) if reveal else game.player_view(state, seat)
    return render_plain(f"games/{game.slug}/board.html", {"view": view, "seat": seat})


def legal_moves(game: Game, state: Any) -> list[dict[str, Any]]:
    """Each legal action's text and the cells a person clicks to make it."""
    return [
        {"text": game.action_to_text(state, action), "cells": list(game.action_cells(state, action))}
        for action in game.legal_actions(state)
    ]


def visible_move(game: Game, match: Match, seat: int, text: str, viewer_seats: list[int]) -> str:
    """A move as a viewer may see it: another seat's plan or setup stays hidden until the match is over."""
    running = match.status in (Match.Status.PENDING, Match.Status.RUNNING)
    return game.public_action_text(text) if running and seat not in viewer_seats else text


def live_seats(match: Match) -> list[dict[str, Any]]:
    """Who sits where: fixed when the match is made, so a live page fetches it once."""
    names = get_game(match.game).seat_names
    return [
        {"index": seat.index, "name": names[seat.index], "agent": seat.agent_version.agent}
        for seat in match.seats.select_related("agent_version__agent").order_by("index")
    ]


def live_match_html(match: Match, viewer, seats: list[dict[str, Any]] | None = None) -> str:
    """The play/spectate panel of a match as one viewer (a person's agent, or None) sees it.

    `seats` is `live_seats(match)` when the caller keeps it (a websocket consumer does).
    """
    game = get_game(match.game)
    state = game.from_json(match.state)
    scores = match.scores or [None] * len(game.seat_names)
    seats = [{**seat, "score": scores[seat["index"]]} for seat in seats or live_seats(match)]
    mine = [seat["index"] for seat in seats if viewer is not None and seat["agent"].pk == viewer.pk]
    to_move = game.current_player(state) if match.status == Match.Status.RUNNING else None
    view_seat = to_move if to_move in mine else (mine[0] if mine else None)
    shown_to_move = game.shown_to_move(state, view_seat) if to_move is not None else None
    moves = list(match.decisions.order_by("ply").values_list("pk", "seat", "action_text", "created_at"))
    reasoning = None
    last_seat = moves[-1][1] if moves else None
    secret = game.hidden_information and to_move is not None and last_seat not in mine
    if moves and seats[last_seat]["agent"].kind == Agent.Kind.LLM and not secret:
        ok = Attempt.objects.filter(decision_id=moves[-1][0], verdict=Attempt.Verdict.OK)
        reasoning = ok.values("reasoning_text", "raw_text").last()
    since = moves[-1][3] if moves else (match.started_at or match.created_at)
    my_turn = to_move is not None and to_move in mine
    context = {
        "match": match,
        "game": game,
        "seats": seats,
        "board": board_html(game, state, view_seat),
        "my_seats": mine,
        "to_move": to_move,
        "shown_to_move": shown_to_move,
        "to_move_agent": seats[shown_to_move]["agent"] if shown_to_move is not None else None,
        "legal_id": f"match-{match.pk}-legal",
        "my_turn": my_turn,
        "legal": legal_moves(game, state) if my_turn else [],
        "thinking_s": round((timezone.now() - since).total_seconds()) if to_move is not None else 0,
        "time_limit_s": match.record.get("policies", {}).get("move_time_limit_s"),
        "moves": [visible_move(game, match, seat, text, mine) for _, seat, text, _ in moves],
        "last_reasoning": reasoning,
        "controls_template": f"games/{game.slug}/controls.html",
        "view": game.player_view(state, view_seat),
    }
    return render_plain("arena/partials/match-live.html", context)


def tournament_progress_html(tournament: Tournament) -> str:
    """Progress bar and standings; polls itself every 2 s while the tournament runs."""
    progress = tournament_progress(tournament)
    percent = round(100 * progress["done"] / progress["total"]) if progress["total"] else 100
    live = tournament.status in (Tournament.Status.CREATED, Tournament.Status.RUNNING)
    return render_to_string(
        "arena/partials/tournament-progress.html",
        {"tournament": tournament, "progress": progress, "percent": percent, "live": live},
    )


def annotations_html(decision: Decision, user, error: str = "") -> str:
    """A decision's annotations, and the signed-in person's form to add or edit theirs."""
    annotations = list(decision.annotations.select_related("author").prefetch_related("tags"))
    mine = next((a for a in annotations if user.is_authenticated and a.author_id == user.pk), None)
    context = {
        "decision": decision,
        "annotations": annotations,
        "mine": mine,
        "my_tags": {t.slug for t in mine.tags.all()} if mine else set(),
        "user": user,
        "glyphs": Annotation.GLYPHS,
        "tags": AnnotationTag.objects.filter(is_active=True),
        "error": error,
    }
    return render_to_string("arena/partials/decision-annotations.html", context)


def replay_html(match: Match, ply: int, viewer, user) -> str:
    """The replay panel at `ply`: board, step controls, move list and the trace of the move that led here.

    A finished match reveals everything; while it runs, a viewer sees only what their seat may see.
    """
    game = get_game(match.game)
    ply = min(max(ply, 0), match.ply)
    state = match_state_at(match, ply)
    over = match.status in (Match.Status.FINISHED, Match.Status.ABORTED)
    mine = person_seats(match, viewer)
    decisions = list(match.decisions.order_by("ply").only("ply", "seat", "action_text", "fallback"))
    for decision in decisions:
        decision.action_text = visible_move(game, match, decision.seat, decision.action_text, mine)
    decision = match.decisions.filter(ply=ply - 1).first() if ply > 0 else None
    attempts = list(decision.attempts.order_by("number")) if decision else []
    if decision:
        shown = visible_move(game, match, decision.seat, decision.action_text, mine)
        if shown != decision.action_text:
            attempts = []  # its prompts and replies spell out what is hidden
            decision.seat = None  # and who acted when can give a role away (Werewolf's night order)
        decision.action_text = shown
    if decision and not over and game.hidden_information and decision.seat not in mine:
        attempts = []  # another seat's prompts could reveal its hidden information
    context = {
        "match": match,
        "game": game,
        "ply": ply,
        "prev_ply": max(ply - 1, 0),
        "next_ply": min(ply + 1, match.ply),
        "board": board_html(game, state, mine[0] if mine else None, reveal=over),
        "decisions": decisions,
        "decision": decision,
        "attempts": attempts,
        "annotations": annotations_html(decision, user) if decision else "",
    }
    return render_to_string("arena/partials/match-replay.html", context)
