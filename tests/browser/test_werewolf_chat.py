"""Werewolf's debate panel in real Chromium, without a server: the board fragment as the play page holds it,
the site's and the game's stylesheets, and static/games/werewolf.js. A fragment swap is done as play.js does it."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from arena.pages.rendering import board_html
from games.werewolf import Werewolf

pytestmark = [pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]
GAME = Werewolf()
# Seed 427 deals P2 and P5 werewolves, P3 seer, P4 doctor, the others villagers; the viewer is P1.
MOVES = ["kill P6", "kill P6", "inspect P2", "protect P4", "say Good morning from me."]
MOVES += [f"say P{n} here." for n in (2, 3, 4, 5, 7, 8)] + ["abstain"] * 7
MOVES += ["kill P7", "kill P8", "inspect P5", "protect P8", "say <img src=x onerror=window.__pwned=1>"]
MOVES += ["say I am the seer.", "say Trust P3.", "say Not me.", "say P7 again."]


def fragment(*extra: str) -> str:
    state = GAME.initial_state(seed=427)
    for text in [*MOVES, *extra]:
        state = GAME.apply(state, GAME.parse_action(state, text))
    board = board_html(GAME, state, 0)
    return f'<div id="match-1-live" class="board-layout live-match"><section class="board-area">{board}</section></div>'


@pytest.fixture
def chat(page):
    page.set_viewport_size({"width": 390, "height": 700})
    page.set_content(f'<main class="page"><div class="play" data-match="1">{fragment()}</div></main>')
    page.add_style_tag(content=(ROOT / "static/css/arena.css").read_text())
    page.add_style_tag(content=(ROOT / "static/games/werewolf.css").read_text())
    page.add_script_tag(content=(ROOT / "static/games/werewolf.js").read_text())
    # What play.js does with a move form: read its field on submit (after werewolf.js's capture handler).
    page.evaluate("""() => { window.sent = [];
      document.querySelector('.play').addEventListener('submit', (e) => {
        e.preventDefault(); window.sent.push(e.target.querySelector('input[name=move]').value); }); }""")
    return page


def newest_is_in_view(page) -> bool:
    return page.evaluate("""() => { const box = document.querySelector('[data-ww-chat]');
      const last = [...box.querySelectorAll('[data-event]')].pop();
      const r = last.getBoundingClientRect(), b = box.getBoundingClientRect();
      return box.scrollHeight > box.clientHeight && r.top >= b.top - 1 && r.bottom <= b.bottom + 1; }""")


def swap(page, html: str) -> None:
    page.evaluate(
        """(html) => { const t = document.createElement('template'); t.innerHTML = html.trim();
      document.getElementById('match-1-live').replaceWith(t.content.firstElementChild); }""",
        html,
    )


def test_the_chat_scrolls_to_the_newest_announces_it_and_keeps_the_keyboard_on_the_box(chat):
    page = chat
    assert newest_is_in_view(page)
    expect(page.locator("#ww-say")).to_be_hidden()  # P8 speaks now, not the viewer
    expect(page.locator(".ww-turn")).to_have_text("P8 is speaking…")
    page.focus("[data-ww-chat]")  # a keyboard user reading the conversation when the fragment is replaced
    swap(page, fragment("say P8 again."))
    expect(page.locator(".ww-announcer")).to_have_text("P8: P8 again.")
    expect(page.locator("#ww-say")).to_be_focused()
    assert newest_is_in_view(page)
    page.keyboard.type("I suspect P2")
    expect(page.locator("[data-say-count]")).to_have_text("12/500")
    page.keyboard.press("Enter")
    assert page.evaluate("window.sent") == ["say I suspect P2"]
    page.fill("#ww-say", "x" * 501)
    page.dispatch_event("#ww-say", "input")
    expect(page.locator("[data-say-count]")).to_have_class("ww-count ww-over")
    assert page.evaluate("window.__pwned") is None
    expect(page.locator(".ww-msg-text").nth(7)).to_have_text("<img src=x onerror=window.__pwned=1>")
