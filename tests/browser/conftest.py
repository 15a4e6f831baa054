"""Real Chromium (Debian's, driven by Playwright) against a real daphne serving a fresh site."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.arena.llm.scripted_server import ScriptedServer, first_legal_move
from tests.sites import free_port, wait_healthy

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class LiveSite:
    """A daphne process serving Arena from its own var/ directory; can be restarted on the same port."""

    def __init__(self, var: Path) -> None:
        self.var = var
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "ARENA_VAR_DIR": str(var),
            "DJANGO_SECRET_KEY": "browser-tests",
            "ARENA_SEED_MATCHES": "0",
        }  # no first-run record: its 360 bot matches would load the worker
        self.env.pop("DJANGO_SETTINGS_MODULE", None)
        self.process: subprocess.Popen | None = None

    def manage(self, *args: str) -> str:
        result = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=600
        )
        assert result.returncode == 0, result.stderr
        return result.stdout

    def start(self) -> None:
        daphne = Path(sys.executable).with_name("daphne")
        self.process = subprocess.Popen(
            [str(daphne), "-b", "127.0.0.1", "-p", str(self.port), "arena.asgi:application"],
            cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        wait_healthy(self.url, self.process)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)


@pytest.fixture(scope="session")
def live_site(tmp_path_factory):
    # The site's local model server: a real OpenAI-compatible server on loopback that plays each prompt's first
    # legal move, on the port the seeded local models call, so the lobby offers them as `make run`'s does.
    model_server = ScriptedServer(first_legal_move, record=False).start()
    site = LiveSite(tmp_path_factory.mktemp("browser-site"))
    site.env["LLM_PORT"] = str(model_server.port)
    site.manage("migrate", "--noinput")
    site.manage("seed", "--no-demo", "--game", "connect-four", "--game", "tic-tac-toe")
    site.start()
    yield site
    site.stop()
    model_server.close()


@pytest.fixture(scope="session")
def worker(live_site):
    """A real background worker on the site's database, as `make run` starts it: leaderboard refits run there
    while people play."""
    process = subprocess.Popen(
        [sys.executable, "manage.py", "worker", "--queue-name", "*", "--interval", "0.2"],
        cwd=ROOT, env=live_site.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    yield process
    process.terminate()
    process.wait(timeout=30)


@pytest.fixture(scope="module")
def chromium():
    """One browser per test module: Playwright's sync API holds an event loop while it runs."""
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (.ci/run installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def page(chromium):
    context = chromium.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    # Generous waits: CI machines are shared and two cores run the browser, daphne and the tests.
    page.set_default_timeout(60_000)
    expect.set_options(timeout=20_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.console_errors = errors  # a test that expects some (a server restart) removes them
    yield page
    context.close()
    assert not errors, f"the page logged errors: {errors}"
