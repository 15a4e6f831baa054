"""A move list's group headings ("Turn 6", "Hand 3 of 12") in real Chromium, without a server: each stays at the
top only while its own moves scroll past, so no heading hides another or the first move under it."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.pages.move_list import move_list_html

pytestmark = [pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]
#: The boxes of every heading and move, relative to the list's top edge.
BOXES = """() => {
  const list = document.querySelector('.move-list'), top = list.getBoundingClientRect().top;
  const box = (e) => ({text: e.textContent.trim().slice(0, 12), top: e.getBoundingClientRect().top - top,
                       bottom: e.getBoundingClientRect().bottom - top});
  const all = (selector) => [...list.querySelectorAll(selector)].map(box);
  return {headings: all('.move-group'), moves: all('li')};
}"""


def test_a_turn_heading_at_the_top_hides_neither_another_heading_nor_its_first_move(page):
    groups = [
        {
            "title": f"Turn {turn}",
            "moves": [
                {"ply": turn * 3 + i, "who": "Player 1", "label": f"move {turn}.{i}", "detail": "", "fallback": i == 0}
                for i in range(3)
            ],
        }
        for turn in range(1, 9)
    ]
    page.set_viewport_size({"width": 390, "height": 700})
    page.set_content(f'<main class="page"><div class="card">{move_list_html(groups)}</div></main>')
    page.add_style_tag(content=(ROOT / "static/css/arena.css").read_text())
    page.add_style_tag(content=".move-list { max-height: 10rem; }")  # a short list: most of it scrolled away
    list_ = page.locator(".move-list")
    for turn in (3, 6):
        # Scrolled so that this turn's heading has just reached the top.
        list_.evaluate(
            "(l, n) => { l.scrollTop = l.querySelectorAll('.move-group')[n].offsetTop - l.offsetTop; }", turn - 1
        )
        boxes = page.evaluate(BOXES)
        at_top = [h for h in boxes["headings"] if h["bottom"] > 0 and h["top"] < 12]  # shown at the top
        assert [h["text"] for h in at_top] == [f"Turn {turn}"]  # the earlier turns' headings are gone with their moves
        first = next(m for m in boxes["moves"] if m["text"].startswith("Player 1: mo") and m["top"] >= 0)
        assert first["top"] >= at_top[0]["bottom"]  # the first move shows whole, under its heading
    # Scrolled part-way into a turn: its heading is the only one shown, over its own moves.
    list_.evaluate("l => { l.scrollTop += 30; }")
    at_top = [h for h in page.evaluate(BOXES)["headings"] if h["bottom"] > 0 and h["top"] < 12]
    assert len(at_top) == 1
