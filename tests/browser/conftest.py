"""Real Chromium (Debian's headless shell, driven by Playwright) against a real daphne serving a fresh site."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.arena.llm.scripted_server import ScriptedServer, first_legal_move
from tests.sites import Site, free_port, wait_healthy

ROOT = Path(__file__).resolve().parents[2]
#: Chromium's headless shell: the same Blink and V8 without the desktop browser around them, at half the CPU of
#: `chromium --headless` over the browser suite (process accounting, `sa`).
CHROMIUM = shutil.which("chromium-headless-shell") or "/usr/bin/chromium-headless-shell"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class LiveSite(Site):
    """A daphne process serving Arena from its own var/ directory; can be restarted on the same port."""

    def __init__(self, var: Path) -> None:
        super().__init__(var)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

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


#: Playwright and its browser while browser tests run one after another in this process: launching them takes about
#: a second of CPU. Playwright's sync API holds an event loop from its start to its stop, which the async tests that
#: may follow in the same process could not run beside, so both stop after the last browser test in a row.
_running: list = []


@pytest.fixture
def chromium():
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium-headless-shell is not installed (.ci/run installs it)")
    if not _running:
        from playwright.sync_api import sync_playwright

        playwright = sync_playwright().start()
        _running[:] = [playwright, playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)]
    return _running[1]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """After the test's own teardown (its pages closed): stop the browser unless the next test is a browser test."""
    try:
        return (yield)
    finally:
        if _running and (nextitem is None or nextitem.path.parent != item.path.parent):
            playwright, browser = _running
            _running.clear()
            browser.close()
            playwright.stop()


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
