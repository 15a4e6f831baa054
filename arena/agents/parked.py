"""Kept-running programs parked while a person thinks: the worker that ran a program's turn keeps it alive.

Botzone's keep-running mode keeps a bot's process between its turns. A run of a match lets go of it when a person
is to move, and the next run after the person's move may be on this worker process or another. Parked here (by
match, seat and command, in the event loop that started it), the program is given back to the next run in this
process, which sends it just the new request; anywhere else that run starts it afresh with the full input, as
any restart does. Bounded: a parked program is killed after `PARKED_IDLE_S` without its turn, and a process parks
at most `MAX_PARKED` (the longest parked is killed first).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass

from arena.agents.sandbox import Program

#: How long a parked program waits for its next turn (a person's think), and how many one process keeps at once.
PARKED_IDLE_S = 600
MAX_PARKED = 8

Key = tuple[int, int, str]  # (match id, seat, command)


@dataclass
class Parked:
    program: Program
    #: The requests the program has been sent so far.
    turns_seen: int
    loop: asyncio.AbstractEventLoop
    expiry: asyncio.TimerHandle


_parked: dict[Key, Parked] = {}


def park(key: Key, program: Program, turns_seen: int) -> None:
    """Keep `program` alive for its next turn in this process (one already parked under `key` is killed)."""
    loop = asyncio.get_running_loop()
    _kill(key)
    _parked[key] = Parked(program, turns_seen, loop, loop.call_later(PARKED_IDLE_S, _kill, key))
    while len(_parked) > MAX_PARKED:
        _kill(next(iter(_parked)))  # dicts keep insertion order: the longest parked


def unpark(key: Key) -> Parked | None:
    """The program parked under `key`, taken back (None if none, or if it was parked by another event loop)."""
    parked = _parked.pop(key, None)
    if parked is None:
        return None
    parked.expiry.cancel()
    if parked.loop is not asyncio.get_running_loop():
        _stop(parked)
        return None
    return parked


def parked_count() -> int:
    return len(_parked)


def stop_all() -> None:
    """Kill every parked program (the worker is stopping)."""
    for key in list(_parked):
        _kill(key)


def _kill(key: Key) -> None:
    if (parked := _parked.pop(key, None)) is not None:
        parked.expiry.cancel()
        _stop(parked)


def _stop(parked: Parked) -> None:
    """Kill a parked program at once (its process group; `Program.kill` never waits on the program)."""
    parked.program.sandbox.close()
    with contextlib.suppress(RuntimeError):  # its event loop is closed: the pipes went with it
        parked.program.pipes.close()
