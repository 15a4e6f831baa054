"""Arctic Scavengers and Two Rooms and a Boom on a 390 px phone: the rules page, and a finished match's replay
stepped by keyboard, each fitting the screen without sideways scrolling."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_first_run import assert_fits

pytestmark = [pytest.mark.browser, pytest.mark.slow]

FINISHED = """
import json
from asgiref.sync import async_to_sync
from arena.record.agents import bots_ensure
from arena.record.services import match_create
from arena.runner.loop import run_match
from games import get_game
made = {}
for slug in ("arctic-scavengers", "two-rooms-and-a-boom"):
    bots = {agent.slug: agent for agent in bots_ensure(game=slug)}
    agents = [bots[slug + "-lv1"]] + [bots[slug + "-lv0"]] * (get_game(slug).num_players - 1)
    match = async_to_sync(run_match)(match_create(game=slug, agents=agents, seed=8).pk)
    made[slug] = [match.pk, match.ply]
print(json.dumps(made))
"""


def test_rules_and_keyboard_replays_of_the_newest_games_fit_a_phone(chromium, live_site):
    made = json.loads(live_site.manage("shell", "-c", FINISHED).strip().splitlines()[-1])
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    for slug, (pk, plies) in made.items():
        page.goto(f"{live_site.url}/games/{slug}/")
        assert_fits(page)
        page.goto(f"{live_site.url}/matches/{pk}/?ply=2")
        counter = page.locator(".ply-counter strong")
        expect(counter).to_have_text("2")
        assert_fits(page)
        page.keyboard.press("ArrowRight")
        expect(counter).to_have_text("3")
        expect(page).to_have_url(re.compile(r"\?ply=3$"))
        page.keyboard.press("ArrowLeft")
        expect(counter).to_have_text("2")
        page.keyboard.press("End")
        expect(counter).to_have_text(str(plies))
        expect(page.locator(".board")).to_contain_text(re.compile(r"larger tribe|equal tribes|team wins"))  # the result
        assert_fits(page)
        page.keyboard.press("Home")
        expect(counter).to_have_text("0")
    context.close()
    assert not errors, errors
