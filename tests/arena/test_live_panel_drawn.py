"""The live panel drawn in Python is byte-identical to templates/arena/partials/match-live.html, which it replaces.

Random games of several kinds are played through the services (people, bots and a model whose names and
reasoning hold `<`, `&` and quotes), and at every ply the panel is drawn for each kind of viewer; then each of
those contexts is varied (status, turn, clock, scores, fallbacks, results, a ladder, an opponent, a variant).
"""

from __future__ import annotations

import copy
import random

import pytest

from arena.agents.base import AttemptData
from arena.models import Tournament
from arena.play.live_panel import live_panel_html
from arena.play.people import person_agent_for_user
from arena.play.rendering import live_panel_context, render_plain
from arena.record.services import agent_create, bots_ensure, decision_record, match_claim, match_create
from games import get_game

pytestmark = pytest.mark.django_db

NASTY = ['<b>&amp;"it\'s"</b>', "a & b < c > d", "plain", "\x07bell\x1b[0m 'quoted' \"double\"", "", "é ü 名前"]


def template_html(context: dict) -> str:
    slug = context["game"].slug
    return render_plain(
        "arena/partials/match-live.html", {**context, "controls_template": f"games/{slug}/controls.html"}
    )


def varied(context: dict, rng: random.Random) -> dict:
    """`context` with its match's status and the panel's other inputs changed at random."""
    match = copy.copy(context["match"])
    match.status = rng.choice(["pending", "running", "finished", "aborted"])
    match.termination = rng.choice(NASTY)
    match.tournament = rng.choice(
        [None, Tournament(slug="climb-1", format="ladder"), Tournament(slug="t", format="swiss")]
    )
    seats = [
        {**seat, "score": rng.choice([None, 0, 1, 0.5, 1.0, -2.25]), "fallbacks": rng.choice([0, 0, 1, 2, 11])}
        for seat in context["seats"]
    ]
    agent = rng.choice([None, *(seat["agent"] for seat in seats)])
    if agent is not None:
        agent = copy.copy(agent)
        agent.name = rng.choice(NASTY) or "x"
    changed = context | {
        "match": match,
        "seats": seats,
        "my_seats": rng.choice([[], [0], [1], [0, 1]]),
        "my_turn": rng.random() < 0.5,
        "shown_to_move": rng.choice([None, 0, 1]),
        "to_move_agent": agent,
        "thinking_s": rng.choice([0, 3, 125]),
        "time_limit_s": rng.choice([None, 0, 30, 2.5]),
        "last_reasoning": rng.choice(
            [
                None,
                {"reasoning_text": rng.choice(NASTY), "raw_text": rng.choice(NASTY)},
                {"reasoning_text": "", "raw_text": None},
            ]
        ),
        "opponent": rng.choice([None, *(seat["agent"] for seat in seats)]),
        "variant": rng.choice(["", "7x7", "a&b c/d'e"]),
        "result": rng.choice(NASTY),
        "legal": rng.choice([[], [{"text": rng.choice(NASTY), "cells": ["a1"]}], context["legal"]]),
    }
    # as the template's `{% if my_turn and game.has_controls %}{% include controls_template %}` would
    controls = f"games/{context['game'].slug}/controls.html"
    has_controls = changed["my_turn"] and context["game"].has_controls
    return changed | {"controls": render_plain(controls, changed) if has_controls else ""}


@pytest.mark.parametrize(
    "slug", ["connect-four", "tic-tac-toe", "kuhn-poker", "leduc-holdem", "werewolf", "tower-defense", "holdem"]
)
def test_the_panel_drawn_in_python_is_the_template_byte_for_byte(slug, django_user_model):
    rng = random.Random(slug)
    game = get_game(slug)
    person = person_agent_for_user(user=django_user_model.objects.create_user("pat", password="pw-123456"))
    person.name = "Pat <\"&'>"
    person.save()
    model = agent_create(slug="m", name="Model <i>&\"'", kind="llm", config={"model": "x", "api_key_env": "M_KEY"})
    stranger = agent_create(slug="s", name="S", kind="human", config={})
    bot = {a.slug: a for a in bots_ensure(game=slug)}[f"{slug}-lv0"]
    others = [model, *[bot] * (game.num_players - 2)]
    renders = 0
    for seed in range(3):
        agents = [person, *others] if seed % 2 == 0 else [*others, person]
        match = match_claim(match_id=match_create(game=slug, agents=agents, seed=seed).pk, worker="w")
        while True:
            for viewer in (person, None, stranger, model):
                context = live_panel_context(match, viewer)
                assert live_panel_html(context) == template_html(context)
                for _ in range(4):
                    context = varied(live_panel_context(match, viewer), rng)
                    assert live_panel_html(context) == template_html(context)
                    renders += 1
            state = game.from_json(match.state)
            if match.status != "running" or match.ply >= 30:
                break
            seat = game.current_player(state)
            action = rng.choice(game.legal_actions(state))
            text = game.action_to_text(state, action)
            reply = AttemptData(
                verdict="ok", raw_text=f"Answer: {text} {rng.choice(NASTY)}", reasoning_text=rng.choice(NASTY)
            )
            fallback = "random_legal" if rng.random() < 0.2 else ""
            match = decision_record(
                match=match, ply=match.ply, action=action, attempts=[reply], fallback=fallback, worker="w"
            )
            assert seat is not None
    assert renders >= 400
