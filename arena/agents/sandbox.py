"""Run an agent's program under limits: wall time, CPU time, memory, processes, output size, no network.

Each program runs in a working directory of its own (a fresh temporary directory, removed afterwards),
with an environment that holds only PATH, HOME (that directory) and LANG. When Arena runs as root it
starts the program in a new network namespace (`unshare --net`: no interface but a loopback that is down)
as the unprivileged user `nobody` (so RLIMIT_NPROC binds, which it does not for root, and files readable
only by Arena's user stay closed); elsewhere it runs as Arena's user and each attempt notes that the
network was not cut.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.conf import settings

#: What a program may use, unless its agent's config says otherwise (seconds, mebibytes, bytes).
DEFAULT_LIMITS: dict[str, Any] = {
    "time_s": 5.0,  # wall clock per decision
    "cpu_s": 10,  # CPU seconds over the process's life (a kept-running program shares it across turns)
    "memory_mb": 512,  # address space
    "processes": 64,  # RLIMIT_NPROC: stops fork bombs (counted per user, so it also bounds the host's)
    "output_bytes": 1_000_000,  # stdout kept per decision; more is an overrun
    "file_mb": 16,  # largest file the program may write
}
#: The largest limit an agent's config may ask for; settings.ARENA_PROGRAM_LIMITS_MAX overrides each.
MAX_LIMITS: dict[str, Any] = {
    "time_s": 60,
    "cpu_s": 600,
    "memory_mb": 4096,
    "processes": 256,
    "output_bytes": 10_000_000,
    "file_mb": 256,
}
#: stderr kept for the record (the rest is dropped, not an error).
STDERR_KEPT = 10_000


@dataclass
class RunResult:
    """How one run (or one turn of a kept-running program) ended."""

    stdout: str = ""
    stderr: str = ""
    returncode: int | None = None
    #: "" when the program answered; else "timeout", "output_limit" or "crashed".
    failure: str = ""
    latency_ms: int = 0
    #: The program printed the keep-running marker and waits for its next input.
    kept: bool = False
    notes: list[str] = field(default_factory=list)


def limit_maxima() -> dict[str, Any]:
    """The largest value of each limit an agent may be given (MAX_LIMITS with the settings' overrides)."""
    return {**MAX_LIMITS, **settings.ARENA_PROGRAM_LIMITS_MAX}


def limits_with_defaults(config: dict[str, Any]) -> dict[str, Any]:
    """The limits for an agent: DEFAULT_LIMITS overridden by the config's `limits`, none above its maximum."""
    maxima = limit_maxima()
    limits = {**DEFAULT_LIMITS, **(config.get("limits") or {})}
    return {name: min(value, maxima[name]) for name, value in limits.items()}


#: The user a program runs as when Arena is root.
UNPRIVILEGED_UID = 65534


@cache
def isolation_available() -> bool:
    """Whether programs can run in their own network namespace as `nobody` (Arena is root, unshare works)."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    try:
        probe = ["unshare", "--net", "--setuid", str(UNPRIVILEGED_UID), "--setgid", str(UNPRIVILEGED_UID), "true"]
        return subprocess.run(probe, capture_output=True, timeout=5).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def limits_preexec(limits: dict[str, Any]):
    """Set the limits in the child before it runs the program (and put it in its own process group)."""
    cpu = int(limits["cpu_s"])
    memory = int(limits["memory_mb"]) * 1024 * 1024
    processes = int(limits["processes"])
    file_size = int(limits["file_mb"]) * 1024 * 1024

    def apply() -> None:
        os.setsid()
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply


class Program:
    """One started program: feed it input, read its answer within the limits, and kill it for good."""

    def __init__(self, command: str, limits: dict[str, Any]) -> None:
        self.command = command
        self.limits = limits
        self.workdir = tempfile.mkdtemp(prefix="arena-agent-")
        self.process: asyncio.subprocess.Process | None = None
        self.notes: list[str] = []

    async def start(self) -> None:
        argv = shlex.split(self.command)
        if isolation_available():
            uid = str(UNPRIVILEGED_UID)
            argv = ["unshare", "--net", "--setuid", uid, "--setgid", uid, "--", *argv]
            os.chown(self.workdir, UNPRIVILEGED_UID, UNPRIVILEGED_UID)
        else:
            self.notes.append("network not cut and same user as Arena: no namespace/root on this host")
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": self.workdir, "LANG": "C.UTF-8"}
        self.process = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=self.workdir,
            env=env,
            preexec_fn=limits_preexec(self.limits),
            limit=int(self.limits["output_bytes"]) + 1,
        )

    async def turn(self, text: str, *, until_marker: str | None = None, close_input: bool = False) -> RunResult:
        """Send `text`; read stdout to end of file, or up to the line `until_marker`, within the wall time.

        The program is killed unless it printed the marker (then `kept` is True and it waits for more input).
        """
        started = time.perf_counter()
        result = RunResult(notes=list(self.notes))
        process = self.process
        try:
            async with asyncio.timeout(float(self.limits["time_s"])):
                await self._send(text, close_input)
                result.stdout, result.failure, result.kept = await self._read(until_marker)
                if not result.kept and not result.failure:
                    result.returncode = await process.wait()
        except TimeoutError:
            result.failure = "timeout"
        result.latency_ms = round((time.perf_counter() - started) * 1000)
        if not result.kept:
            await self.kill()
            result.stderr = await self._stderr()
        if not result.failure and result.returncode not in (None, 0):
            result.failure = "crashed"
        return result

    async def _send(self, text: str, close_input: bool) -> None:
        stdin = self.process.stdin
        try:
            stdin.write(text.encode())
            await stdin.drain()
            if close_input:
                stdin.close()
        except (BrokenPipeError, ConnectionResetError):
            pass  # it exited already; its output and exit status say why

    async def _read(self, until_marker: str | None) -> tuple[str, str, bool]:
        """stdout up to end of file or the marker line: (text, failure, marker seen); "output_limit" past the cap."""
        cap = int(self.limits["output_bytes"])
        stream = self.process.stdout
        chunks: list[bytes] = []
        size = 0
        while True:
            try:
                chunk = await stream.readline() if until_marker else await stream.read(65536)
            except ValueError:  # a line longer than the cap (the stream's own limit)
                return b"".join(chunks)[:cap].decode(errors="replace"), "output_limit", False
            if not chunk:
                return b"".join(chunks).decode(errors="replace"), "", False
            if until_marker and chunk.rstrip(b"\r\n").decode(errors="replace") == until_marker:
                return b"".join(chunks).decode(errors="replace"), "", True
            size += len(chunk)
            if size > cap:
                return b"".join(chunks)[:cap].decode(errors="replace"), "output_limit", False
            chunks.append(chunk)

    async def _stderr(self) -> str:
        stream = self.process.stderr if self.process else None
        if stream is None:
            return ""
        try:
            async with asyncio.timeout(1):
                data = await stream.read(STDERR_KEPT)
        except TimeoutError:
            return ""
        return data.decode(errors="replace")

    async def kill(self) -> None:
        """Kill the program and everything it started (its process group), and remove its directory."""
        process = self.process
        if process is not None:
            # The whole group, even when the program itself has exited: what it forked may live on.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            await process.wait()
        shutil.rmtree(self.workdir, ignore_errors=True)


async def run_once(command: str, text: str, limits: dict[str, Any]) -> RunResult:
    """Start `command`, give it `text` on stdin, and take everything it prints, within `limits`."""
    program = Program(command, limits)
    try:
        await program.start()
    except OSError as error:
        await program.kill()
        return RunResult(failure="crashed", stderr=f"could not start {command!r}: {error}")
    try:
        return await program.turn(text, close_input=True)
    finally:
        await program.kill()
