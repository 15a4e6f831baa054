"""A person plays Mahjong against three random bots in real Chromium: tiles are faces people recognise (the code
on hover), one typed box, discards by click, and the answers where Pass is the only choice are sent for them
unless they untick "Pass for me"."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_play import start_game

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LEGAL = """id => { const d = document.getElementById(`match-${id}-legal`);
  return d ? JSON.parse(d.textContent).map(m => m.text) : []; }"""


def seat_passes(live_site, match_id: str) -> int:
    """How many Pass answers the record holds for the first seat (ours)."""
    code = (
        "from arena.models import Decision;"
        f"print(Decision.objects.filter(match_id={match_id}, seat=0, action_text='Pass').count())"
    )
    return int(live_site.manage("shell", "-c", code).split()[-1])


def my_choice(page, match_id: str) -> list[str]:
    """Wait for our move (or the end) and return the legal moves' texts ([] when the game is over)."""
    expect(page.locator(".match-status")).to_contain_text(re.compile(r"Your move|Game over"), timeout=60000)
    return page.evaluate(LEGAL, match_id)


def act(page, match_id: str, selector: str) -> None:
    """Click `selector` and wait until the move is recorded (the page shows a later ply)."""
    live = page.locator(f"#match-{match_id}-live")
    ply = live.get_attribute("data-ply")
    page.locator(selector).first.click()
    expect(live).not_to_have_attribute("data-ply", ply, timeout=60000)


def play_a_real_choice(page, match_id: str, legal: list[str]) -> None:
    """Discard the first tile, or pass on a claim that offers more than Pass."""
    act(page, match_id, ".mj-hand button[data-cell]" if any(m.startswith("Play") for m in legal)
        else ".mj-buttons button[data-cell='Pass']")  # fmt: skip


@pytest.mark.parametrize("width", [1280, 390])
def test_tiles_read_as_faces_and_lone_passes_are_sent_for_the_person(page, live_site, width):
    live_site.manage("seed", "--no-demo", "--game", "mahjong")
    page.set_viewport_size({"width": width, "height": 900})
    url = start_game(page, live_site, "mahjong", "mahjong-lv0", "Mei")
    match_id = re.search(r"/play/(\d+)/", url).group(1)

    tile = page.locator(".mj-hand button[data-cell]").first
    code = tile.get_attribute("data-cell")
    assert re.fullmatch(r"[WTB][1-9]|F[1-4]|J[1-3]", code)
    assert tile.get_attribute("title").startswith(f"{code}: ")  # the code on hover, after the name
    face = tile.locator(".mj-mark").inner_text() + " " + tile.locator(".mj-suit").inner_text().lower()
    assert re.fullmatch(r"[1-9] (char|bam|dot)|[ESWN] wind|[RGW] dragon", face), face
    assert code not in tile.inner_text()  # the face, not the code
    assert page.locator("input[name=move]").count() == 1  # one typed box for one move
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scrolling
    expect(page.locator("[data-mahjong-autopass]")).to_be_checked()

    # With "Pass for me" on, every lone Pass is answered without the person: their turn is always a real choice.
    for _ in range(4):
        legal = my_choice(page, match_id)
        if not legal:
            break
        if legal == ["Pass"]:  # shown for an instant, then answered for us
            expect(page.locator(f"#match-{match_id}-live")).not_to_have_attribute("data-ply", page.locator(
                f"#match-{match_id}-live").get_attribute("data-ply"), timeout=60000)  # fmt: skip
            continue
        play_a_real_choice(page, match_id, legal)
    assert seat_passes(live_site, match_id) >= 1

    # Unticked, the choice survives a reload and a lone Pass waits for the person's click.
    page.uncheck("[data-mahjong-autopass]")
    page.reload()
    expect(page.locator("[data-connection]")).to_have_text("connected")
    expect(page.locator("[data-mahjong-autopass]")).not_to_be_checked()
    for _ in range(20):
        legal = my_choice(page, match_id)
        if legal in ([], ["Pass"]):
            break
        play_a_real_choice(page, match_id, legal)
    if not legal:
        return  # the hand ended first
    before = seat_passes(live_site, match_id)
    page.wait_for_timeout(1500)
    expect(page.locator(".match-status")).to_contain_text("Your move")  # still waiting: nothing was sent for us
    assert seat_passes(live_site, match_id) == before
    act(page, match_id, ".mj-buttons button[data-cell='Pass']")
    assert seat_passes(live_site, match_id) == before + 1
