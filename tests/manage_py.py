"""`manage.py` for a test's site, run in Django processes kept for the site.

A site's set-up and checks call `manage.py` many times (`seed`, `shell -c`, `tournament status`); a new process
spends about a second of CPU starting Django before each one does its work. `ManagePy` keeps a process on the
site's environment and sends it each command line, which runs as `manage.py` runs it (`manage.main`, its
configuration check included) with its output and exit status sent back. Commands that serve or work (`serve`,
`worker`, daphne) are still started as processes of their own.

Run as `python -m tests.manage_py` by `ManagePy` only: one JSON list of arguments per line on stdin, one JSON
object {"status", "stdout", "stderr"} per line on the descriptor named in ARENA_MANAGE_REPLIES.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import selectors
import subprocess
import sys
import threading
import weakref
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


class ManagePy:
    """`manage.py` on `env`'s site: `manage("seed", "--no-demo")` returns the command's stdout and fails the test,
    with the command's stderr, when it exits with an error. Commands run at once (from threads) each get a process;
    a process is kept for the next command once its own is done."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env  # the site's own: a change to it (a port set after the first command) starts new processes
        self.idle: list[_Commands] = []
        self.lock = threading.Lock()

    def __call__(self, *args: str, timeout_s: float = 600) -> str:
        with self.lock:
            commands = self.idle.pop() if self.idle else None
        if commands is None or not commands.serves(self.env):
            commands = _Commands(self.env)
        status, stdout, stderr = commands.run(args, timeout_s)
        with self.lock:
            self.idle.append(commands)
        assert status == 0, f"manage.py {' '.join(args)} exited with {status}:\n{stderr}"
        return stdout


class _Commands:
    """One Django process running commands, one at a time; stopped when it is dropped (its site is, or the
    site's environment changed) or this process exits."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = dict(env)
        read, write = os.pipe()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.manage_py"],
            cwd=ROOT, env={**env, "ARENA_MANAGE_REPLIES": str(write)}, pass_fds=(write,), text=True,
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        os.close(write)
        self.replies = os.fdopen(read, "r")
        weakref.finalize(self, _stop, self.process, self.replies)

    def serves(self, env: dict[str, str]) -> bool:
        return self.process.poll() is None and env == self.env

    def run(self, args: tuple[str, ...], timeout_s: float) -> tuple[int, str, str]:
        self.process.stdin.write(json.dumps(args) + "\n")
        self.process.stdin.flush()
        with selectors.DefaultSelector() as selector:
            selector.register(self.replies, selectors.EVENT_READ)
            line = self.replies.readline() if selector.select(timeout_s) else ""
        if not line:
            self.process.kill()
            raise AssertionError(f"manage.py {' '.join(args)}: no answer within {timeout_s:g} s (or its process died)")
        reply = json.loads(line)
        return reply["status"], reply["stdout"], reply["stderr"]


def _stop(process: subprocess.Popen, replies) -> None:
    """End of input ends the loop; a process that does not end is killed."""
    if process.poll() is None:
        process.stdin.close()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    replies.close()


def serve() -> None:
    """The process's loop: each line of arguments runs as `manage.py` would run it."""
    import traceback

    import django.db

    import manage

    replies = os.fdopen(int(os.environ.pop("ARENA_MANAGE_REPLIES")), "w")
    for line in sys.stdin:
        out, err = io.StringIO(), io.StringIO()
        sys.argv = ["manage.py", *json.loads(line)]
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                manage.main()
                status = 0
            except SystemExit as exit:
                status = _exit_status(exit.code)
            except Exception:
                traceback.print_exc()
                status = 1
            finally:
                django.db.connections.close_all()  # no connection, lock or transaction left between commands
        replies.write(json.dumps({"status": status, "stdout": out.getvalue(), "stderr": err.getvalue()}) + "\n")
        replies.flush()


def _exit_status(code: object) -> int:
    """A process's exit status for `sys.exit(code)`: None is 0, a message is printed and is 1."""
    if code is None or isinstance(code, int):
        return code or 0
    print(code, file=sys.stderr)
    return 1


if __name__ == "__main__":
    serve()
