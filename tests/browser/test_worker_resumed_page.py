"""A page open on daphne hears the match a worker resumes: `scripts/serve` (the bus, daphne, the workers) as
`make run` starts it, a model that stops answering mid-game and comes back, and real Chromium watching."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.arena.llm.scripted_server import Reply, ScriptedServer, first_legal_move
from tests.browser.test_play import lobby_start
from tests.sites import Site

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_match_a_worker_resumes_moves_on_the_open_page(page, tmp_path):
    answering = {"now": True}

    def model(body: dict) -> Reply:
        return first_legal_move(body) if answering["now"] else Reply(status=503, raw_body=b'{"error": "overloaded"}')

    with ScriptedServer(model, record=False) as server:
        site = Site(tmp_path)
        site.migrate("tic-tac-toe")
        site.manage(
            "agents", "add", "--kind", "llm", "--slug", "comeback", "--name", "Comeback model",
            "--base-url", server.base_url, "--model", "scripted-model", "--timeout-s", "5",
        )  # fmt: skip
        with site.served() as base:
            page.goto(f"{base}/play/")
            lobby_start(page, "tic-tac-toe", "comeback", "Ada")
            expect(page.locator("[data-connection]")).to_have_text("connected")
            expect(page.locator(".match-status")).to_contain_text("Your move.")

            answering["now"] = False  # the model server stops answering: the model's turn pauses the match
            page.locator("[data-cell='b2']").click()
            status = page.locator(".match-status")
            expect(status).to_contain_text("Paused", timeout=90_000)
            moves = page.locator(".move-list li:not(.muted)")
            expect(moves).to_have_count(1)

            # Back up: the worker resumes the match when its pause is over (30 s) and the model moves. The page
            # was opened on daphne and has not been reloaded: only the bus can bring it the worker's move.
            answering["now"] = True
            expect(moves).to_have_count(2, timeout=120_000)
            expect(status).to_contain_text("Your move.")
            expect(status).not_to_contain_text("Paused")
            page.goto("about:blank")  # no reconnection attempts to log once the site stops
