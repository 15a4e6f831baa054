"""Serve the embedded local models over an OpenAI-compatible API (llama.cpp's llama-server), and keep them served.

In the foreground the command supervises the server: a crash is logged and the server restarted (after 2, 4,
8 … s), at most `--restarts` times within ten minutes; past that it is left down, the state file says why,
and the command exits 1 — the site goes on without local models (`scripts/serve` keeps it up). Readiness is a
real completion from every model, so a server that would die on its first answer never reports ready.
"""

from __future__ import annotations

import os
import signal
import time
from collections import deque

from django.core.management.base import BaseCommand, CommandError

from arena.agents.llm.local import (
    GEMMA3,
    SMOLLM2,
    LocalModelMissing,
    llm_port,
    local_base_url,
    models_dir,
    server_alive,
    start_server,
    state_write,
    stop_server,
)

#: Crashes counted against `--restarts` are those of the last ten minutes.
RESTART_WINDOW_S = 600.0


class Command(BaseCommand):
    help = (
        "Start llama.cpp's llama-server with the local models (smollm2-135m, gemma3-270m) on 127.0.0.1:$LLM_PORT "
        "(default 8081), several games at once, wait until each model answers, and restart it if it crashes."
    )

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=None, help="Default: $LLM_PORT or 8081.")
        parser.add_argument("--model", action="append", choices=[SMOLLM2, GEMMA3], help="Repeatable. Default: both.")
        parser.add_argument(
            "--n-ctx", type=int, default=None, help="Context tokens of every slot of every model. Default: 8,192."
        )
        parser.add_argument("--threads", type=int, default=None, help="Default: the cores this process may use.")
        parser.add_argument(
            "--slots",
            type=int,
            default=None,
            help="Completions each model decodes at once. Default: 2 per thread, from 4 to 8.",
        )
        parser.add_argument("--wait", type=float, default=180.0, help="Seconds to wait for it to answer.")
        parser.add_argument(
            "--restarts",
            type=int,
            default=int(os.environ.get("LLM_RESTARTS") or 3),
            help="Crashes restarted within ten minutes before giving up: $LLM_RESTARTS or 3.",
        )
        parser.add_argument(
            "--detach", action="store_true", help="Return once it answers and leave it running (prints its pid)."
        )

    def handle(
        self,
        *args,
        port=None,
        model=None,
        n_ctx=None,
        threads=None,
        slots=None,
        wait=180.0,
        restarts=3,
        detach=False,
        **_,
    ):
        port = port or llm_port()
        base_url = local_base_url(port)
        if server_alive(base_url):
            self.stdout.write(f"already serving on {base_url}")
            return
        models = tuple(model or ())
        log_path = models_dir() / f"llama-server-{port}.log"

        def start():
            return start_server(
                port, models=models, n_ctx=n_ctx, n_threads=threads, slots=slots, log_path=log_path, wait_s=wait
            )

        if detach:
            try:
                process = start()
            except (LocalModelMissing, RuntimeError, ValueError) as error:
                raise CommandError(str(error)) from None
            self._serving(port, models, process)
            return
        # SIGTERM is handled as Ctrl-C, so a wait below is left before the server is stopped: stopping it from
        # inside the handler would wait on it again while this wait holds its lock, and hang.
        signal.signal(signal.SIGTERM, signal.default_int_handler)
        try:
            self._supervise(port, models, start, restarts)
        except KeyboardInterrupt:
            state_write(port, "stopped")

    def _serving(self, port, models, process):
        state_write(port, "ready", pid=process.pid)
        self.stdout.write(
            f"serving {', '.join(models or (SMOLLM2, GEMMA3))} on {local_base_url(port)} (pid {process.pid})"
        )
        self.stdout.flush()

    def _supervise(self, port, models, start, restarts):
        crashes: deque[float] = deque()
        while True:
            state_write(port, "starting" if not crashes else "restarting", f"after {len(crashes)} crash(es)")
            process = None
            try:
                process = start()
            except (LocalModelMissing, ValueError) as error:
                state_write(port, "down", str(error))
                raise CommandError(str(error)) from None
            except RuntimeError as error:
                failure = str(error)
            else:
                try:  # from the moment it serves: a SIGTERM right after "serving" still stops it
                    self._serving(port, models, process)
                    process.wait()
                finally:
                    stop_server(process)
                failure = f"llama-server exited (return code {process.returncode})"
            now = time.monotonic()
            crashes.append(now)
            while crashes and crashes[0] < now - RESTART_WINDOW_S:
                crashes.popleft()
            if len(crashes) > restarts:
                message = f"{failure}; gave up after {len(crashes)} failures in {RESTART_WINDOW_S / 60:g} minutes"
                state_write(port, "down", message)
                raise CommandError(f"local model server down: {message}")
            delay = 2.0 ** len(crashes)
            state_write(port, "restarting", f"{failure}; restart {len(crashes)} of {restarts} in {delay:g} s")
            self.stderr.write(f"local model server failed ({failure}); restarting in {delay:g} s")
            time.sleep(delay)
