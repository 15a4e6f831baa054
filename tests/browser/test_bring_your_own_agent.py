"""A person registers a bot account on the agents page, connects a real websocket bot with the token shown
once, finds it in the lobby, and plays it to the end by clicking."""

from __future__ import annotations

import json
import re
import threading

import pytest
from playwright.sync_api import expect
from websockets.sync.client import connect

from tests.browser.test_play import play_until_over

pytestmark = [pytest.mark.browser, pytest.mark.slow]


class FirstLegalBot:
    """A websocket bot account (the `websockets` package, as in docs/agents.md) playing the first legal move."""

    def __init__(self, site_url: str, token: str) -> None:
        self.url = site_url.replace("http", "ws", 1) + "/ws/bot/"
        self.site_url = site_url
        self.token = token
        self.turns = 0
        self.connected = threading.Event()
        self.thread = threading.Thread(target=self.play, daemon=True)
        self.thread.start()
        assert self.connected.wait(timeout=30), "the bot could not connect"

    def play(self) -> None:
        headers = {"Authorization": f"Bearer {self.token}"}
        with connect(self.url, additional_headers=headers, origin=self.site_url) as self.socket:
            self.connected.set()
            for frame in self.socket:
                turn = json.loads(frame)
                if turn["type"] == "turn":
                    self.turns += 1
                    action = turn["legal_actions"][0]
                    self.socket.send(
                        json.dumps({"type": "move", "match": turn["match"], "ply": turn["ply"], "action": action})
                    )

    def close(self) -> None:
        self.socket.close()
        self.thread.join(timeout=10)


def test_a_person_registers_a_websocket_bot_and_plays_it_from_the_lobby(page, live_site):
    page.goto(f"{live_site.url}/accounts/signup/")
    page.fill("input[name=username]", "bot-maker")
    page.fill("input[name=password1]", "Sx9!long-pass")
    page.fill("input[name=password2]", "Sx9!long-pass")
    page.click("button:has-text('Create account')")
    page.wait_for_url(re.compile(r"/play/$"))
    expect(page.locator("#id_opponent option[value='my-ws-bot']")).to_have_count(0)

    page.goto(f"{live_site.url}/agents/")
    expect(page.locator("a:has-text('program (Botzone)')")).to_have_count(0)  # programs are for staff
    page.click("a:has-text('bot account (websocket)')")
    page.fill("input[name=slug]", "my-ws-bot")
    page.fill("input[name=name]", "My <b>bot</b>")
    page.select_option("select[name=game]", "tic-tac-toe")
    page.click("button:has-text('Save')")
    expect(page.locator("h1")).to_have_text("Created my-ws-bot")
    token = page.locator("code[id$='-token']").inner_text().strip()
    assert token.startswith("arena_")
    page.goto(f"{live_site.url}/agents/my-ws-bot/")
    expect(page.locator("h1")).to_contain_text("My <b>bot</b>")  # escaped, shown as text
    assert token not in page.content()  # shown once only

    bot = FirstLegalBot(live_site.url, token)
    try:
        page.goto(f"{live_site.url}/play/?game=tic-tac-toe")
        expect(page.locator("#id_opponent option[value='my-ws-bot']")).to_have_count(1)  # connected: offered
        page.wait_for_load_state("networkidle")
        page.select_option("#id_opponent", "my-ws-bot")
        page.select_option("select[name=seat]", "0")
        if page.locator("input[name=consent]").count():
            page.check("input[name=consent][value=yes]")
        page.click("button:has-text('Play')")
        page.wait_for_url(re.compile(r"/play/\d+/$"))
        expect(page.locator("[data-connection]")).to_have_text("connected")
        play_until_over(page, max_moves=5)
        expect(page.locator(".match-status")).to_contain_text("Game over")
        assert bot.turns >= 2
    finally:
        bot.close()
    page.goto(f"{live_site.url}/play/?game=tic-tac-toe")
    expect(page.locator("#id_opponent option[value='my-ws-bot']")).to_have_count(0, timeout=15_000)
