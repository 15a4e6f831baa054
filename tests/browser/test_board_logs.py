"""Board details in real Chromium, without a server: the Codenames and Skirmish logs open on their newest lines
(not their first), and Gomoku's legal-move discs let the grid show through."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from arena.pages.rendering import board_html
from games import get_game

pytestmark = [pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]


def show(page, slug: str, html: str) -> None:
    page.set_content(f'<main class="page"><div id="match-1-live">{html}</div></main>')
    page.add_style_tag(content=(ROOT / "static/css/arena.css").read_text())
    page.add_style_tag(content=(ROOT / f"static/games/{slug}.css").read_text())


def played(slug: str, plies: int):
    game = get_game(slug)
    state, rng = game.initial_state(seed=3), random.Random(3)
    while game.current_player(state) is not None and state.ply < plies:
        state = game.apply(state, game.random_action(state, rng))
    return game, state


@pytest.mark.parametrize(
    ("slug", "scroller", "plies"), [("codenames", ".cn-log-scroll", 60), ("skirmish", ".skirmish-log-scroll", 80)]
)
def test_a_long_log_opens_on_its_newest_line(page, slug, scroller, plies):
    game, state = played(slug, plies)
    show(page, slug, board_html(game, state, None, reveal=True))
    log = page.locator(scroller)
    assert log.evaluate("l => l.scrollHeight > l.clientHeight + 40"), "the log is long enough to scroll"
    assert log.evaluate(
        "l => Math.abs(l.scrollTop) < 2 && l.scrollHeight - l.clientHeight > 0"
    )  # column-reverse: 0 is the end
    last = log.locator("li").last
    assert last.evaluate(
        "(li) => { const l = li.closest('[role=log]').getBoundingClientRect(), r = li.getBoundingClientRect();"
        " return r.bottom <= l.bottom + 1 && r.top >= l.top - 1; }"
    ), "the newest line is in view"


def test_gomoku_legal_move_discs_are_faint_and_the_point_under_the_pointer_full(page):
    game = get_game("gomoku")
    state = game.initial_state(seed=1)
    show(page, "gomoku", board_html(game, state, 0))
    page.evaluate("document.querySelectorAll('.gm-playable').forEach(p => p.classList.add('cell-target'))")
    # The fill's alpha: rgba(…, a) or color(srgb … / a); an opaque colour has none.
    opacity = (
        "el => { const c = getComputedStyle(el).fill; const m = c.match(/[\\d.]+(?=\\)$)/);"
        " return c.startsWith('rgba') || c.includes('/') ? Number(m[0]) : 1; }"
    )
    disc = page.locator(".gm-playable .gm-hit").nth(40)
    faint = disc.evaluate(opacity)
    page.locator(".gm-playable").nth(40).hover()
    assert 0 < faint <= disc.evaluate(opacity) / 2


def test_the_selected_skirmish_unit_stands_out_from_its_targets(page):
    game = get_game("skirmish")
    state = game.initial_state(seed=1)
    show(page, "skirmish", board_html(game, state, 0))
    unit = page.locator(".board-skirmish [data-cell]:has(.unit-red)").first
    target = page.locator(".board-skirmish [data-cell]:not(:has(.unit))").first
    unit.evaluate("el => el.classList.add('cell-selected')")
    target.evaluate("el => el.classList.add('cell-target')")
    width = "g => parseFloat(getComputedStyle(g.querySelector('.hex')).strokeWidth)"
    assert unit.evaluate(width) >= 2 * target.evaluate(width)
    assert unit.evaluate("g => parseFloat(getComputedStyle(g.querySelector('.unit')).strokeWidth)") > 1
