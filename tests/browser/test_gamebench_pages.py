"""Five GameBench games (Air Land & Sea, Are You the Traitor?, Pit, Arctic Scavengers, Two Rooms and a Boom) as a
person sees them in real Chromium, at a phone's 390 px: the live board, the rules page and a finished match's replay
fit without sideways scrolling, every control on the board is labelled, a replay steps by keyboard and offers
nothing to click on its board."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.test_play import start_game

pytestmark = [pytest.mark.browser, pytest.mark.slow]

GAMES = ("air-land-sea", "are-you-the-traitor", "pit", "arctic-scavengers", "two-rooms-and-a-boom")
PHONE = {"width": 390, "height": 844}

FINISHED_MATCH = """
import json
from asgiref.sync import async_to_sync
from arena.models import Agent
from arena.runner.loop import run_match
from arena.record.services import match_create
from games.registry import get_game
bot = Agent.objects.get(slug="{game}-lv1")
match = async_to_sync(run_match)(match_create(game="{game}", agents=[bot] * get_game("{game}").num_players, seed=3).pk)
print(json.dumps({{"match": match.pk, "plies": match.ply}}))
"""

CONTROLS = ".board button:not([disabled]), .board input, .board [data-cell]"
UNLABELLED_CONTROLS = f"""() => [...document.querySelectorAll('{CONTROLS}')]
    .filter(el => !(el.getAttribute('aria-label') || el.labels?.[0]?.textContent || el.textContent).trim())
    .map(el => el.outerHTML)"""


def finished_match(live_site, game: str) -> dict:
    """A match of the game's Lv1 bot in every seat, played to its end: its id and number of plies."""
    return json.loads(live_site.manage("shell", "-c", FINISHED_MATCH.format(game=game)).strip().splitlines()[-1])


def fits_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("game", GAMES)
def test_live_board_rules_and_replay_fit_a_phone_and_label_their_controls(page, live_site, game):
    live_site.manage("seed", "--no-demo", "--game", game)  # the site seeds only two games' bots
    page.set_viewport_size(PHONE)
    start_game(page, live_site, game, f"{game}-lv0", "Uma")
    assert fits_the_phone(page)
    assert page.locator(".board [data-cell]").count() > 0  # something to click on our move
    assert page.evaluate(UNLABELLED_CONTROLS) == []

    page.goto(f"{live_site.url}/games/{game}/")
    expect(page.locator(".board")).to_have_count(1)  # the rules page draws an example table
    assert fits_the_phone(page)

    made = finished_match(live_site, game)
    page.goto(f"{live_site.url}/matches/{made['match']}/?ply=1")
    counter = page.locator(".ply-counter strong")
    expect(counter).to_have_text("1")
    assert fits_the_phone(page)
    # Nobody acts in a replay: no card, player or move on its board is an enabled button.
    assert page.locator(".board button[data-cell]:not([disabled])").count() == 0
    page.keyboard.press("End")
    expect(counter).to_have_text(str(made["plies"]))
    assert fits_the_phone(page)
    page.keyboard.press("ArrowLeft")
    expect(counter).to_have_text(str(made["plies"] - 1))
    page.keyboard.press("Home")
    expect(counter).to_have_text("0")


def resolved_colour(page, css: str) -> str:
    """The rgb() a CSS colour expression resolves to on this page (custom properties included)."""
    return page.evaluate(
        """css => { const probe = document.body.appendChild(document.createElement('span'));
        probe.style.color = css; const rgb = getComputedStyle(probe).color; probe.remove(); return rgb; }""",
        css,
    )


def test_two_rooms_draws_blue_in_the_site_blue_not_in_the_colour_of_secrets(page, live_site):
    live_site.manage("seed", "--no-demo", "--game", "two-rooms-and-a-boom")
    made = finished_match(live_site, "two-rooms-and-a-boom")
    page.goto(f"{live_site.url}/matches/{made['match']}/?ply=1")  # a replay shows every card: three Blue players
    blue = page.locator(".tr-team-blue")
    expect(blue).to_have_count(3)
    border = blue.first.evaluate("el => getComputedStyle(el).borderTopColor")
    assert border == resolved_colour(page, "var(--accent)")  # Air, Land & Sea's Blue
    assert border != resolved_colour(page, "var(--info)")  # the shared chat's "secret" marking
