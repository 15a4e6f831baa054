"""Diplomacy's retreats and builds by clicking, in real Chromium without a server: a click on a dislodged unit or a
home centre lists that province's possible orders as buttons (static/games/diplomacy.js); one writes its order."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from arena.pages.rendering import board_html, render_plain
from games import get_game

pytestmark = [pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]
GAME = get_game("diplomacy")


def first_phase(seed: int, kind: str, wanted: str):
    """The first position of a random game on `seed` whose player to act is in a phase ending in `kind` and has an
    order containing `wanted`: (state, seat, view)."""
    state, rng = GAME.initial_state(seed=seed), random.Random(seed)
    while GAME.current_player(state) is not None:
        seat = GAME.current_player(state)
        view = GAME.player_view(state, seat)
        if view["phase"].endswith(kind) and any(wanted in o for orders in view["options"] for o in orders):
            return state, seat, view
        state = GAME.apply(state, GAME.random_action(state, rng))
    raise AssertionError(f"no {kind} phase on seed {seed}")


def table(page, state, seat, view, width: int):
    page.set_viewport_size({"width": width, "height": 900})
    controls = render_plain("games/diplomacy/controls.html", {"view": view})
    live = f'<div id="match-1-live">{board_html(GAME, state, seat)}{controls}</div>'
    page.set_content(f'<main class="page"><div class="play" data-match="1">{live}</div></main>')
    page.add_style_tag(content=(ROOT / "static/css/arena.css").read_text())
    page.add_style_tag(content=(ROOT / "static/games/diplomacy.css").read_text())
    page.add_script_tag(content=(ROOT / "static/games/diplomacy.js").read_text())


@pytest.mark.parametrize("width", [1280, 390])
def test_a_dislodged_unit_retreats_by_two_clicks(page, width):
    state, seat, view = first_phase(2, "R", " R ")
    table(page, state, seat, view, width)
    order = next(o for orders in view["options"] for o in orders if " R " in o)  # "A GAL R BOH"
    province = order.split()[1][:3]
    page.locator(f".dip-unit[data-cell='{province}']").first.click()
    choices = page.locator("[data-dip-choices] button")
    assert sorted(choices.all_inner_texts()) == sorted(o for orders in view["options"] for o in orders
                                                         if o.split()[1][:3] == province)  # fmt: skip
    choices.filter(has_text=order).click()
    assert page.locator("[data-dip-orders]").input_value() == f"orders: {order}"


@pytest.mark.parametrize("width", [1280, 390])
def test_a_build_is_chosen_by_clicking_a_home_centre(page, width):
    state, seat, view = first_phase(1, "A", " B")
    table(page, state, seat, view, width)
    order = next(o for orders in view["options"] for o in orders if o.endswith(" B"))  # "A MOS B"
    province = order.split()[1][:3]
    page.locator(f"path[data-cell='{province}']").dispatch_event("click")  # the province, wherever it is drawn
    page.locator("[data-dip-choices] button", has_text=order).click()
    assert page.locator("[data-dip-orders]").input_value() == f"orders: {order}"
    assert page.locator("[data-dip-choices] button").count() == 0  # the choice is made
