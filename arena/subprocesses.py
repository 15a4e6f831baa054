"""What the servers Arena starts (the message bus, llama.cpp) do before they run: die with whoever started them."""

from __future__ import annotations

import ctypes
import signal

_PR_SET_PDEATHSIG = 1
#: libc's prctl, looked up here: the forked child must not load anything (another thread may hold the loader's lock).
_prctl = getattr(ctypes.CDLL(None, use_errno=True), "prctl", None)


def die_with_parent() -> None:
    """A `preexec_fn`: in the child before it runs, ask the kernel to stop it (SIGTERM) if the thread that started
    it ends, however hard, so a killed or interrupted supervisor leaves no server behind."""
    if _prctl is not None:
        _prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
