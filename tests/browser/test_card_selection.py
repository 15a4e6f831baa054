"""Fight the Landlord in real Chromium, without a server: a person selects cards in their hand and the move box
holds the play (static/games/fight-the-landlord.js), which the rules read as a legal action."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from arena.pages.rendering import board_html, render_plain
from games import get_game
from games.fight_the_landlord.combos import RANK_NAMES, rank_of

pytestmark = [pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]
GAME = get_game("fight-the-landlord")
STATE = GAME.initial_state(seed=8)  # P1, the landlord, leads with 20 cards


@pytest.fixture
def table(page):
    view = GAME.player_view(STATE, 0)
    controls = render_plain("games/fight-the-landlord/controls.html", {"view": view})
    live = f'<div id="match-1-live">{board_html(GAME, STATE, 0)}{controls}</div>'
    page.set_content(f'<main class="page"><div class="play" data-match="1">{live}</div></main>')
    page.add_style_tag(content=(ROOT / "static/css/arena.css").read_text())
    page.add_style_tag(content=(ROOT / "static/games/fight-the-landlord.css").read_text())
    page.add_script_tag(content=(ROOT / "static/games/fight-the-landlord.js").read_text())
    page.evaluate("""() => { window.sent = [];
      document.querySelector('.play').addEventListener('submit', (e) => {
        e.preventDefault(); window.sent.push(e.target.querySelector('input[name=move]').value); }); }""")
    return page


def test_selecting_a_pair_writes_it_and_plays_it(table):
    ranks = Counter(rank_of(c) for c in STATE.hands[0])
    pair_rank = min(r for r, n in ranks.items() if n >= 2)
    name = RANK_NAMES[pair_rank]
    lowest = RANK_NAMES[min(ranks)]
    cards = table.locator(f'.ftl-you [data-ftl-rank="{name}"]')
    cards.nth(0).click()
    cards.nth(1).click()
    table.locator(f'.ftl-you [data-ftl-rank="{lowest}"]').first.click()
    table.locator(f'.ftl-you [data-ftl-rank="{lowest}"]').first.click()  # selected, then unselected
    assert table.locator("[data-ftl-move]").input_value() == f"{name} {name}"
    assert cards.nth(0).get_attribute("aria-pressed") == "true"
    table.get_by_role("button", name="Play").click()
    assert table.evaluate("window.sent") == [f"{name} {name}"]
    assert GAME.is_legal(STATE, GAME.parse_action(STATE, f"{name} {name}"))


def test_clear_unselects_every_card(table):
    table.locator(".ftl-you [data-ftl-rank]").nth(0).click()
    table.locator(".ftl-you [data-ftl-rank]").nth(5).click()
    table.locator("[data-ftl-clear]").click()
    assert table.locator("[data-ftl-move]").input_value() == ""
    assert table.locator(".ftl-you [aria-pressed='true']").count() == 0


@pytest.mark.parametrize("width", [1280, 390])
def test_the_plays_list_shows_two_digit_numbers_whole(page, width):

    state, rng = GAME.initial_state(seed=8), random.Random(8)
    while len(GAME.player_view(state, 0)["history"]) < 12 and GAME.current_player(state) is not None:
        state = GAME.apply(state, rng.choice(GAME.legal_actions(state)))
    page.set_viewport_size({"width": width, "height": 900})
    page.set_content(f'<main class="page">{board_html(GAME, state, 0)}</main>')
    page.add_style_tag(content=(ROOT / "static/css/arena.css").read_text())
    page.add_style_tag(content=(ROOT / "static/games/fight-the-landlord.css").read_text())
    page.locator(".ftl-history summary").click()
    # The list's numbers ("10.") sit in its left padding, and the list scrolls (which clips what overflows): drawn
    # with and without the clip, the strip left of the list looks the same when no number sticks out of the box.
    box = page.locator(".ftl-history ol").bounding_box()
    strip = {"x": max(box["x"] - 24, 0), "y": box["y"], "width": 72, "height": min(box["height"], 200)}
    clipped = page.screenshot(clip=strip)
    page.add_style_tag(content=".ftl-history ol { overflow: visible !important; max-height: none !important; }")
    assert page.locator(".ftl-history li").count() >= 10
    assert page.screenshot(clip=strip) == clipped


def test_on_a_phone_play_and_clear_stay_on_screen_after_selecting_cards(page):
    """The live panel in one column: the board with the hand, then the side panel whose move list and status put
    the controls a screen or more below the hand."""
    page.set_viewport_size({"width": 390, "height": 844})
    view = GAME.player_view(STATE, 0)
    controls = render_plain("games/fight-the-landlord/controls.html", {"view": view})
    moves = "".join(f"<li>move {n}</li>" for n in range(60))
    page.set_content(
        '<main class="page"><div class="play" data-match="1"><div id="match-1-live" class="board-layout live-match" '
        f'data-my-turn="true"><section class="board-area">{board_html(GAME, STATE, 0)}</section>'
        f'<aside class="side-panel"><h2>Moves</h2><ol>{moves}</ol>{controls}</aside></div></div></main>'
    )
    page.add_style_tag(content=(ROOT / "static/css/arena.css").read_text())
    page.add_style_tag(content=(ROOT / "static/games/fight-the-landlord.css").read_text())
    page.add_script_tag(content=(ROOT / "static/games/fight-the-landlord.js").read_text())
    cards = page.locator(".ftl-you [data-ftl-rank]")
    cards.first.click()
    cards.nth(1).click()
    for name in ("Play", "Clear"):
        box = page.get_by_role("button", name=name).bounding_box()
        assert box["y"] >= 0, (name, box)  # on screen, without scrolling
        assert box["y"] + box["height"] <= 844, (name, box)
        assert box["x"] + box["width"] <= 390, (name, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # Nothing is left under the bar: the end of the panel scrolls clear of it.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    last = page.locator(".side-panel ol li").last.bounding_box()
    bar = page.locator(".ftl-controls").bounding_box()
    assert last["y"] + last["height"] <= bar["y"]
