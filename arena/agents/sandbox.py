"""The one sandbox every outside process runs in: Botzone programs and UCI engines alike.

Walls (when Arena runs as root and util-linux's `unshare` and `setpriv` work; docs/operations.md lists
each with the threat it answers): a network namespace (only a loopback that is down), a pid namespace
whose init is killed with the run (so nothing the program starts, even under `setsid`, outlives it),
a mount namespace in which every mount is read-only, Arena's data directory is covered by an empty
directory (an SQLite file kept elsewhere by /dev/null), and the working directory (also HOME and
TMPDIR) is a private tmpfs of `disk_mb`, gone with the run; the program itself runs as the
unprivileged user `nobody` with no capabilities and `no_new_privs`, under RLIMIT_CPU, RLIMIT_AS,
RLIMIT_NPROC, RLIMIT_FSIZE and no core dumps, with an environment of PATH, HOME, TMPDIR and LANG only,
and may not make a Unix socket (`arena.agents.seccomp`), so no socket file on the host is reachable.
When Arena is not root but may make user namespaces, every wall holds but the change of user: the
program is the namespace's root without capabilities, which is Arena's own user outside it. Otherwise it
runs as Arena's user with the limits, the clean environment and a temporary directory of its own. Either
way each attempt notes the walls that are missing (`MISSING_WALLS`). Behind the walls, a program's clock
starts once its init prints `SANDBOX_READY`: putting the walls up is not the program's time.
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
from pathlib import Path
from typing import Any

from django.conf import settings

from arena.agents import seccomp
from arena.agents.outside_io import ProcessPipes
from arena.limits import PROGRAM_LIMITS_MAX

#: What a program may use, unless its agent's config says otherwise (seconds, mebibytes, bytes).
DEFAULT_LIMITS: dict[str, Any] = {
    "time_s": 5.0,  # wall clock per decision
    "cpu_s": 10,  # CPU seconds over the process's life (a kept-running program shares it across turns)
    "memory_mb": 512,  # address space
    "processes": 64,  # RLIMIT_NPROC: stops fork bombs (counted per user, so it also bounds the host's)
    "output_bytes": 1_000_000,  # stdout kept per decision; more is an overrun
    "file_mb": 16,  # largest file the program may write
    "disk_mb": 64,  # everything the program may write (its private tmpfs)
}


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
    """The largest value of each limit an agent may be given (PROGRAM_LIMITS_MAX with the settings' overrides)."""
    return {**PROGRAM_LIMITS_MAX, **settings.ARENA_PROGRAM_LIMITS_MAX}


def limits_with_defaults(config: dict[str, Any]) -> dict[str, Any]:
    """The limits for an agent: DEFAULT_LIMITS overridden by the config's `limits`, none above its maximum."""
    maxima = limit_maxima()
    limits = {**DEFAULT_LIMITS, **(config.get("limits") or {})}
    return {name: min(value, maxima[name]) for name, value in limits.items()}


#: What the pid namespace's init prints on stderr when the walls stand and it starts the program: the program's
#: clock starts here, so the sandbox's own start-up is not counted against its time.
SANDBOX_READY = "arena: sandbox ready"
#: Longest the walls may take to go up before a program starts.
STARTUP_S = 20.0
#: The user a program runs as when Arena is root.
UNPRIVILEGED_UID = 65534
#: The pid namespace's init: make every mount read-only, hide Arena's data, give the run its own tmpfs,
#: then run the program without capabilities: as the unprivileged user when Arena is root, else as the
#: user namespace's root, which is Arena's own user outside it. It stays the namespace's pid 1 (it does
#: not exec), so killing it, or the program's exit, takes down everything the program started.
INIT_SCRIPT = """set -e
workdir=$1 uid=$2 disk_mb=$3 READY=$4
shift 4
mount -o remount,bind,ro /
while read -r _ target _; do mount -o remount,bind,ro "$target" 2>/dev/null || true; done < /proc/self/mounts
while [ "$1" != -- ]; do
  if [ -d "$1" ]; then mount -t tmpfs -o ro,size=4k,mode=0700 tmpfs "$1"
  elif [ -e "$1" ]; then mount --bind /dev/null "$1"
  fi
  shift
done
shift
mount -t tmpfs -o "size=${disk_mb}m,mode=0700,nosuid,nodev" tmpfs "$workdir"
cd "$workdir"
echo "$READY" >&2
if [ "$uid" = own ]; then
  setpriv --no-new-privs --inh-caps=-all --bounding-set=-all --securebits=+noroot,+noroot_locked -- "$@"
else
  chown "$uid:$uid" "$workdir"
  setpriv --reuid="$uid" --regid="$uid" --clear-groups --no-new-privs --inh-caps=-all --bounding-set=-all -- "$@"
fi
"""
#: What each way of walling a program in lacks, noted on its attempts.
MISSING_WALLS = {
    "root": "",
    "userns": "runs as Arena's own user (Arena is not root): it may read what that user may read outside var/",
    "": "network, files and processes not walled off: Arena is not root and user namespaces are unavailable",
}


def _walled(argv: list[str], workdir: str, limits: dict[str, Any], mode: str) -> list[str]:
    """`argv` inside the namespaces (`mode` "root": as `nobody`; "userns": in a user namespace too)."""
    disk_mb = str(max(1, int(limits.get("disk_mb", DEFAULT_LIMITS["disk_mb"]))))
    namespaces = ["unshare", "--net", "--ipc", "--uts", "--mount", "--pid", "--fork", "--kill-child", "--mount-proc"]
    user = str(UNPRIVILEGED_UID)
    if mode == "userns":
        namespaces.insert(1, "--user")
        namespaces.insert(2, "--map-root-user")
        user = "own"
    hidden = [str(path) for path in hidden_paths()]
    return [
        *namespaces,
        "--",
        "sh",
        "-c",
        INIT_SCRIPT,
        "sh",
        workdir,
        user,
        disk_mb,
        SANDBOX_READY,
        *hidden,
        "--",
        *argv,
    ]


def hidden_paths() -> list[Path]:
    """What a sandboxed program finds empty: Arena's data directory (database, secret key, models, caches),
    and an SQLite database kept elsewhere (DATABASE_URL=sqlite:///…) with its -wal and -shm files."""
    hidden = [Path(settings.VAR_DIR)]
    database = settings.DATABASES["default"]
    name = str(database.get("NAME") or "")
    if "sqlite" in database["ENGINE"] and name and not name.startswith(("file:", ":memory:")):
        hidden += [Path(name + suffix) for suffix in ("", "-wal", "-shm")]
    return hidden


def _works(mode: str) -> bool:
    workdir = tempfile.mkdtemp(prefix="arena-probe-")
    try:
        probe = _walled(["true"], workdir, DEFAULT_LIMITS, mode)
        return subprocess.run(probe, capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


@cache
def isolation_mode() -> str:
    """How programs are walled in here: "root" (every wall, as `nobody`), "userns" (every wall but the
    change of user: Arena is not root but may make user namespaces), or "" (limits and environment only)."""
    if not all(shutil.which(tool) for tool in ("unshare", "setpriv", "mount")):
        return ""
    if os.geteuid() == 0:
        return "root" if _works("root") else ""
    return "userns" if _works("userns") else ""


def isolation_available() -> bool:
    """Whether programs run behind every wall, as `nobody` (Arena is root; unshare, setpriv and mount work)."""
    return isolation_mode() == "root"


def limits_preexec(limits: dict[str, Any]):
    """Set the limits and the seccomp filter in the child before it runs the program (in a session of its own)."""
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
        if seccomp.available():
            seccomp.refuse_unix_sockets()

    return apply


class Sandbox:
    """One run's walls: how to start a command inside them (`launch`), and `close` to end the run for good."""

    def __init__(self, command: str | list[str], limits: dict[str, Any]) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        self.limits = limits
        self.workdir = tempfile.mkdtemp(prefix="arena-agent-")
        self.notes: list[str] = []
        self.pid: int | None = None
        #: Whether the command runs behind the namespaces' walls (whose init prints SANDBOX_READY); set by `launch`.
        self.walled = False

    def launch(self) -> tuple[list[str], dict[str, Any]]:
        """The argv and the keyword arguments for asyncio's subprocess_exec (or python-chess's popen)."""
        argv, mode = self.argv, isolation_mode()
        if mode:
            argv = _walled(argv, self.workdir, self.limits, mode)
            self.walled = True
        if MISSING_WALLS[mode]:
            self.notes.append(MISSING_WALLS[mode])
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": self.workdir,
            "TMPDIR": self.workdir,
            "LANG": "C.UTF-8",
        }
        return argv, {"cwd": self.workdir, "env": env, "preexec_fn": limits_preexec(self.limits)}

    def started(self, pid: int) -> None:
        """Note the process started from `launch` (the leader of the run's session)."""
        self.pid = pid

    def close(self) -> None:
        """Kill the run's whole process group (with the pid namespace's init, everything in it) and its files."""
        if self.pid is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)
        shutil.rmtree(self.workdir, ignore_errors=True)


class Program:
    """One started program: feed it input, read its answer within the limits, and kill it for good."""

    def __init__(self, command: str | list[str], limits: dict[str, Any]) -> None:
        self.command = command
        self.limits = limits
        self.sandbox = Sandbox(command, limits)
        self.pipes = ProcessPipes(int(limits["output_bytes"]))

    @property
    def notes(self) -> list[str]:
        return self.sandbox.notes

    async def start(self) -> None:
        """Start the program and wait until its walls stand (OSError if they do not within STARTUP_S)."""
        argv, walls = self.sandbox.launch()
        if self.sandbox.walled:
            self.pipes.ready_line = SANDBOX_READY.encode()
        transport, _ = await asyncio.get_running_loop().subprocess_exec(
            lambda: self.pipes,
            *argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            **walls,
        )
        self.sandbox.started(transport.get_pid())
        try:
            async with asyncio.timeout(STARTUP_S):
                await self.pipes.ready()
        except TimeoutError:
            raise OSError(f"the sandbox did not start within {STARTUP_S:g} s") from None

    async def turn(
        self, text: str, *, until_marker: str | None = None, close_input: bool = False, time_s: float | None = None
    ) -> RunResult:
        """Send `text`; read stdout to end of file, or up to the line `until_marker`, within the wall time
        (`time_s`, else the limits' `time_s`), counted from the moment the program has its input.

        The program is killed unless it printed the marker (then `kept` is True and it waits for more input).
        """
        started = time.perf_counter()
        result = RunResult(notes=list(self.notes))
        try:
            async with asyncio.timeout(float(time_s or self.limits["time_s"])):
                self.pipes.write(text.encode(), close=close_input)
                result.stdout, result.failure, result.kept = await self._read(until_marker)
                if not result.kept and not result.failure:
                    result.returncode = await self.pipes.exited()
        except TimeoutError:
            result.failure = "timeout"
        result.latency_ms = round((time.perf_counter() - started) * 1000)
        if not result.kept:
            await self.kill()
            result.stderr = self.pipes.stderr.decode(errors="replace")
        if not result.failure and result.returncode not in (None, 0):
            result.failure = "crashed"
        return result

    async def _read(self, until_marker: str | None) -> tuple[str, str, bool]:
        """stdout up to end of file or the marker line: (text, failure, marker seen); "output_limit" past the cap."""
        pipes, marker = self.pipes, (until_marker or "").encode()
        while True:
            if pipes.stdout_over:
                return pipes.stdout[: pipes.stdout_cap].decode(errors="replace"), "output_limit", False
            if marker:
                answer = _before_marker(pipes.stdout, marker)
                if answer is not None:
                    return answer.decode(errors="replace"), "", True
            if pipes.stdout_closed:
                return bytes(pipes.stdout).decode(errors="replace"), "", False
            await pipes.stirring()

    async def kill(self) -> None:
        """Kill the program and everything it started, and remove its directory; never waits on the program."""
        self.sandbox.close()
        self.pipes.close()


def _before_marker(stdout: bytearray, marker: bytes) -> bytes | None:
    """What stdout holds before its first `marker` line, taken out of it with the marker; None if no such line."""
    position = 0
    while (end := stdout.find(b"\n", position)) != -1:
        if stdout[position:end].rstrip(b"\r") == marker:
            answer = bytes(stdout[:position])
            del stdout[: end + 1]
            return answer
        position = end + 1
    return None


async def run_once(
    command: str | list[str], text: str, limits: dict[str, Any], *, time_s: float | None = None
) -> RunResult:
    """Start `command`, give it `text` on stdin, and take everything it prints, within `limits` (and `time_s`)."""
    program = Program(command, limits)
    try:
        await program.start()
    except OSError as error:
        await program.kill()
        return RunResult(failure="crashed", stderr=f"could not start {command!r}: {error}")
    try:
        return await program.turn(text, close_input=True, time_s=time_s)
    finally:
        await program.kill()
