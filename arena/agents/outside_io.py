"""The one boundary where outside code's bytes enter Arena: read while they stream, under one deadline.

Outside agents (remote HTTP agents, Botzone programs, UCI engines) are other people's code. Everything they
send passes through here: an HTTP answer is read in chunks and dropped once it passes its cap
(`read_capped`); a line protocol's output is split as it arrives, each line and the whole bounded (`Lines`);
a process's stdout and stderr are both drained as they arrive, stdout kept up to its cap
and stderr to `STDERR_KEPT` with the rest discarded, so neither pipe ever fills and blocks the program or
its kill (`ProcessPipes`). Every outside decision runs under one total `Deadline`, enforced by the event loop
from outside the agent's code path: connecting, sending, every read and every retry count against it.
Going over a cap is the attempt's `over_budget` verdict; passing the deadline its `timeout`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

#: A program's stderr kept for the record; the rest is read and dropped (never an error).
STDERR_KEPT = 10_000
#: How long an exited process's stderr may take to deliver its last bytes before it is read without them.
STDERR_GRACE_S = 0.5
#: Longest line of a line protocol (UCI); a longer one is over budget.
MAX_LINE_BYTES = 65_536


class Deadline:
    """One outside decision's total deadline, fixed when the decision starts."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.at = asyncio.get_running_loop().time() + seconds

    def left(self) -> float:
        """Seconds until the deadline (0 once it passed)."""
        return max(0.0, self.at - asyncio.get_running_loop().time())

    def within(self, seconds: float | None = None) -> asyncio.Timeout:
        """A timeout context ending at the deadline, or `seconds` from now if that comes first."""
        at = self.at if seconds is None else min(self.at, asyncio.get_running_loop().time() + seconds)
        return asyncio.timeout_at(at)


@dataclass(frozen=True)
class Capped:
    """What was read of an answer: at most `cap` bytes, and whether more came (the rest was not read)."""

    data: bytes
    over: bool


async def read_capped(chunks: AsyncIterator[bytes], cap: int) -> Capped:
    """Read `chunks` until they end or pass `cap` bytes; past the cap, stop reading at once."""
    kept = bytearray()
    async for chunk in chunks:
        kept += chunk
        if len(kept) > cap:
            return Capped(bytes(kept[:cap]), over=True)
    return Capped(bytes(kept), over=False)


class ProcessPipes(asyncio.SubprocessProtocol):
    """A started process's stdin, stdout and stderr, read as they arrive and never paused.

    stdout is kept up to `stdout_cap` bytes (one more marks it over); stderr up to `STDERR_KEPT`; what
    comes beyond is dropped on arrival, so a flood costs neither memory nor a blocked pipe.
    """

    def __init__(self, stdout_cap: int) -> None:
        self.stdout_cap = stdout_cap
        self.stdout = bytearray()
        self.stderr = bytearray()
        self.stdout_closed = False
        self.returncode: int | None = None
        self.transport: asyncio.SubprocessTransport | None = None
        self._stirred = asyncio.Event()
        self._exited = asyncio.Event()
        #: A line the process's wrapper prints on stderr once it hands over to the program (see `ready`).
        self.ready_line = b""
        self._early = bytearray()
        self._ready = asyncio.Event()
        self._stderr_closed = asyncio.Event()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        if fd == 1:
            self.stdout += data[: max(0, self.stdout_cap + 1 - len(self.stdout))]
            self._stirred.set()
        elif fd == 2:
            if self.ready_line and not self._ready.is_set():
                data = self._until_ready(data)
            self.stderr += data[: max(0, STDERR_KEPT - len(self.stderr))]

    def _until_ready(self, data: bytes) -> bytes:
        """Hold stderr back until the ready line; then what came before and after it, without it."""
        self._early += data[: max(0, STDERR_KEPT - len(self._early))]
        at = self._early.find(self.ready_line + b"\n")
        if at == -1:
            return b""
        self._ready.set()
        self._stirred.set()
        rest = self._early[:at] + self._early[at + len(self.ready_line) + 1 :]
        self._early.clear()
        return bytes(rest)

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        if fd == 1:
            self.stdout_closed = True
            self._stirred.set()
        elif fd == 2:
            self._keep_early()
            self._stderr_closed.set()

    def process_exited(self) -> None:
        self.returncode = self.transport.get_returncode() if self.transport else None
        self._keep_early()
        self._exited.set()
        self._stirred.set()

    def _keep_early(self) -> None:
        """Keep what stderr held back before a ready line that never came: the wrapper's own complaint."""
        self.stderr += self._early[: max(0, STDERR_KEPT - len(self.stderr))]
        self._early.clear()

    @property
    def stdout_over(self) -> bool:
        return len(self.stdout) > self.stdout_cap

    async def stirring(self) -> None:
        """Wait until stdout gets more, closes, or the process exits."""
        await self._stirred.wait()
        self._stirred.clear()

    async def ready(self) -> bool:
        """Wait until the ready line arrives (at once if none is expected) or the process exits; whether it came."""
        while self.ready_line and not self._ready.is_set() and not self._exited.is_set():
            await self.stirring()
        return not self.ready_line or self._ready.is_set()

    async def exited(self) -> int | None:
        """Wait for the process to exit, and briefly for the last of its stderr (the exit can be reported before
        the pipe's final bytes; a child still holding the pipe open is not waited for); its status."""
        await self._exited.wait()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stderr_closed.wait(), STDERR_GRACE_S)
        return self.returncode

    def write(self, data: bytes, *, close: bool = False) -> None:
        """Give the process `data` on stdin (buffered by the loop; dropped if it closed its stdin)."""
        pipe = self.transport.get_pipe_transport(0) if self.transport else None
        if pipe is None or pipe.is_closing():
            return
        pipe.write(data)
        if close:
            pipe.close()

    def close(self) -> None:
        """Close every pipe and kill the process if it still runs; returns at once, never waits for it."""
        if self.transport is not None:
            with contextlib.suppress(ProcessLookupError):
                self.transport.close()


class OverCap(Exception):
    """More arrived than a cap allows."""


class Lines:
    """A stream cut into lines as it arrives: no line over `MAX_LINE_BYTES`, no more than `byte_cap` bytes
    until `reset` (one decision's output); OverCap past either."""

    def __init__(self, byte_cap: int) -> None:
        self.byte_cap = byte_cap
        self.received = 0
        self.partial = b""

    def reset(self) -> None:
        """Start counting a new decision's bytes."""
        self.received = 0

    def feed(self, data: bytes) -> list[bytes]:
        """The lines `data` completes (without their line ends)."""
        self.received += len(data)
        if self.received > self.byte_cap:
            raise OverCap(f"more than {self.byte_cap} bytes of output in one decision")
        *lines, self.partial = (self.partial + data).split(b"\n")
        if len(self.partial) > MAX_LINE_BYTES or any(len(line) > MAX_LINE_BYTES for line in lines):
            raise OverCap(f"a line longer than {MAX_LINE_BYTES} bytes")
        return [line.removesuffix(b"\r") for line in lines]
