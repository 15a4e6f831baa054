"""Serve the embedded local models over an OpenAI-compatible API (llama-cpp-python)."""

from __future__ import annotations

import signal

from django.core.management.base import BaseCommand, CommandError

from arena.agents.llm.local import (
    GEMMA3,
    SMOLLM2,
    LocalModelMissing,
    llm_port,
    local_base_url,
    models_dir,
    server_ready,
    start_server,
    stop_server,
)


class Command(BaseCommand):
    help = (
        "Start llama.cpp's OpenAI-compatible server with the local models (smollm2-135m, gemma3-270m) "
        "on 127.0.0.1:$LLM_PORT (default 8081) and wait until it answers."
    )

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=None, help="Default: $LLM_PORT or 8081.")
        parser.add_argument("--model", action="append", choices=[SMOLLM2, GEMMA3], help="Repeatable. Default: both.")
        parser.add_argument(
            "--n-ctx", type=int, default=None, help="Context tokens for every model. Default: each its own (8,192)."
        )
        parser.add_argument("--threads", type=int, default=2)
        parser.add_argument("--wait", type=float, default=180.0, help="Seconds to wait for it to answer.")
        parser.add_argument(
            "--detach", action="store_true", help="Return once it answers and leave it running (prints its pid)."
        )

    def handle(self, *args, port=None, model=None, n_ctx=None, threads=2, wait=180.0, detach=False, **options):
        port = port or llm_port()
        base_url = local_base_url(port)
        if server_ready(base_url):
            self.stdout.write(f"already serving on {base_url}")
            return
        log_path = models_dir() / f"llama-server-{port}.log"
        try:
            process = start_server(
                port, models=tuple(model or ()), n_ctx=n_ctx, n_threads=threads, log_path=log_path, wait_s=wait
            )
        except (LocalModelMissing, RuntimeError, ValueError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"serving {', '.join(model or (SMOLLM2, GEMMA3))} on {base_url} (pid {process.pid})")
        if detach:
            return
        # Foreground: stop the server with us, whether by Ctrl-C or a supervisor's SIGTERM. SIGTERM is
        # handled as Ctrl-C, so the wait below is left before the server is stopped: stopping it from
        # inside the handler would wait on it again while this wait holds its lock, and hang.
        signal.signal(signal.SIGTERM, signal.default_int_handler)
        try:
            process.wait()
        except KeyboardInterrupt:
            pass
        finally:
            stop_server(process)
