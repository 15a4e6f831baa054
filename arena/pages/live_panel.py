"""The live panel of the play and spectate pages, drawn in Python from the context `live_panel_context` builds.

Every move redraws the panel for each viewer kind of a match, and Django's template engine spends a few
microseconds on each of the panel's nodes. Every value the panel prints is escaped exactly as the template
it replaced (match-live.html, byte-identical on ~10,600 random renders) escaped it, numbers unlocalised;
the board, the move list, the agents' links and a game's controls (its template) arrive drawn and escaped.
"""

from __future__ import annotations

import html
from typing import Any

from django.template.defaultfilters import urlencode
from django.urls import reverse
from django.utils.formats import localize
from django.utils.html import conditional_escape, json_script
from django.utils.safestring import SafeString, mark_safe

from arena.templatetags.arena_text import visible_controls

_FALLBACKS_TITLE = "Moves the fallback policy chose at random because the model gave no legal answer."
_MOVE_STEP = (
    '<p class="move-step" data-move-step hidden><span data-move-hint aria-live="polite"></span> '
    '<button type="button" class="button" data-cancel-move hidden>Cancel</button></p>'
)


def _text(value: Any) -> str:
    """A value as `{{ value }}` prints it with localisation off: numbers as they are, everything escaped."""
    if type(value) is str:  # most of them: what Django's escape does, without its check for lazy text
        return html.escape(value)
    return conditional_escape(localize(value, use_l10n=False))


def live_panel_html(context: dict[str, Any]) -> SafeString:
    """The panel of one viewer kind: the board, then the side panel (players, status, moves, controls)."""
    match, my_turn, time_limit = context["match"], context["my_turn"], context["time_limit_s"]
    return mark_safe(  # every value from the context is escaped above or below, or arrives drawn and escaped
        f'<div id="match-{_text(match.pk)}-live" class="board-layout live-match" data-ply="{_text(match.ply)}" '
        f'data-status="{_text(match.status)}"\n'
        f'     data-my-turn="{"true" if my_turn else "false"}" '
        f'data-time-limit="{"" if time_limit is None else _text(time_limit)}" '
        f'data-thinking="{_text(context["thinking_s"])}">\n'
        f'  <section class="board-area{" my-turn" if my_turn else ""}" aria-label="Board">\n'
        f"    {context['board']}\n"
        f"    {json_script(context['legal'], context['legal_id'])}\n"
        f'    <div class="move-chooser" hidden></div>\n'
        f"    {_MOVE_STEP}\n"
        f"  </section>\n"
        f'  <aside class="side-panel">\n'
        f'    <h1 class="match-title">{_text(context["game"].name)}</h1>\n'
        f'    <ol class="players">\n      {"".join(_seat(seat, context) for seat in context["seats"])}\n    </ol>\n'
        f'    <p class="match-status" role="status">\n      {_status(context)}\n    </p>\n'
        f"    {_after_the_end(context)}\n"
        f"    <h2>Moves</h2>\n"
        f"    {context['move_list']}\n"
        f"    {_reasoning(context['last_reasoning'])}\n"
        f"    {context['controls']}\n"
        f"    {_move_form(context)}\n"
        f"    {_resign(context)}\n"
        f"  </aside>\n"
        f"</div>\n"
    )


def _seat(seat: dict[str, Any], context: dict[str, Any]) -> str:
    to_move = ' class="to-move"' if seat["index"] == context["shown_to_move"] else ""
    you = " <strong>(you)</strong>" if seat["index"] in context["my_seats"] else ""
    fallbacks = seat["fallbacks"]
    badge = (
        f'<span class="badge badge-over_budget" title="{_FALLBACKS_TITLE}">{_text(fallbacks)} random fallback'
        f"{'' if fallbacks == 1 else 's'}</span>"
        if fallbacks
        else ""
    )
    score = "" if seat["score"] is None else f'<span class="score">{_text(seat["score"])}</span>'
    return (
        f"\n        <li{to_move}>\n"
        f'          <span class="seat-name">{_text(seat["name"])}</span>\n'
        f"          {seat['link']}{you}\n"
        f"          {badge}\n"
        f"          {score}\n"
        f"        </li>\n      "
    )


def _status(context: dict[str, Any]) -> str:
    match = context["match"]
    if match.status == "running" and match.paused_until is not None:
        return f"<strong>Paused:</strong> {_text((match.pause or {}).get('reason', ''))}\n      "
    if match.status == "running":
        if context["my_turn"]:
            who = "<strong>Your move.</strong>"
        else:
            agent = context["to_move_agent"]
            acting = f"{_text(agent.name)} is thinking…" if agent else "Players act in secret…"
            who = f'<span class="thinking-dot" aria-hidden="true"></span> {acting}'
        limit = context["time_limit_s"]
        of = f' <span class="muted">of {_text(limit)} s</span>' if limit else ""
        return (
            f"\n        {who}\n"
            f'        <span class="clock" data-clock>{_text(context["thinking_s"])} s</span>{of}\n      '
        )
    if match.status == "finished":
        return f"\n        <strong>Game over:</strong> {_text(context['result'])}\n      "
    if match.status == "aborted":
        return f"<strong>Aborted:</strong> {_text(match.termination)}\n      "
    return "Waiting to start…"


def _after_the_end(context: dict[str, Any]) -> str:
    """Replay, and the way on: the ladder's next step, the same game again, or the lobby."""
    match = context["match"]
    if match.status not in ("finished", "aborted"):
        return ""
    replay = conditional_escape(reverse("match-detail", args=[match.pk]))
    if match.record.get("study"):
        onward = ""  # a study's participant goes back to the study (the page's link), not to the lobby
    elif match.tournament and match.tournament.format == "ladder":
        climb = conditional_escape(reverse("ladder-climb", args=[match.tournament.slug]))
        onward = f'<a class="button" href="{climb}">Continue the climb</a>'
    elif context["my_seats"]:
        query = f"?game={_text(urlencode(match.game))}"
        opponent = context["opponent"]
        if opponent and opponent.kind != "human":
            query += f"&amp;opponent={_text(urlencode(opponent.slug))}"
        if context["variant"]:
            query += f"&amp;variant={_text(urlencode(context['variant']))}"
        onward = f'<a class="button" href="{conditional_escape(reverse("play"))}{query}">Play again</a>'
    else:
        onward = f'<a class="button" href="{conditional_escape(reverse("play"))}">Play</a>'
    return (
        f'\n      <p class="actions"><a class="button primary" href="{replay}">Replay this match</a>\n'
        f"        {onward}</p>\n    "
    )


def _reasoning(reasoning: dict[str, Any] | None) -> str:
    """The model's reasoning for its last move (its raw reply when it gave none), folded."""
    if not reasoning:
        return ""
    text = reasoning["reasoning_text"] or reasoning["raw_text"]
    return (
        '\n      <details class="last-reasoning"><summary>Why the model played its last move</summary>\n'
        f'        <pre class="model-text">{_text(visible_controls(text))}</pre>\n'
        "      </details>\n    "
    )


def _move_form(context: dict[str, Any]) -> str:
    """The typed move box, unless the game's own controls already hold one: one move, one box."""
    if not context["my_turn"] or "data-move-form" in context["controls"]:
        return ""
    example = _text(context["legal"][0]["text"]) if context["legal"] else ""
    return (
        '\n      <form data-move-form class="move-form"><label>Or type a move <input name="move" autocomplete="off" '
        f'maxlength="12000" placeholder="e.g. {example}"></label> <button type="submit" class="button">Send</button>'
        "</form>\n    "
    )


def _resign(context: dict[str, Any]) -> str:
    if context["match"].status != "running" or not context["my_seats"]:
        return ""
    return '\n      <button type="button" class="button danger" data-resign>Resign</button>\n    '
