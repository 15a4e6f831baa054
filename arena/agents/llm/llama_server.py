"""llama.cpp's own `llama-server`, which serves the embedded models: where it is, its command line, and its probes.

One router process (`--models-preset`) serves every local model on one port and routes each request by its
`model` field to that model's instance; each instance decodes its slots together (continuous batching). The
router answers `/health` itself, so a probe never waits behind a completion, and each instance reports its own
queue on `/metrics?model=…`.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import NamedTuple

#: The environment variable naming another llama-server binary than the one `make install` puts in the venv.
BINARY_ENV = "LLAMA_SERVER"
FEWEST_SLOTS = 4
PROMPT_CACHE_MIB = 512
MOST_SLOTS = 8
#: Seconds llama-server takes to drop a completion whose client hung up (it looks once a second).
HANG_UP_NOTICED_S = 1.5
#: Prometheus gauges of one instance: completions decoding in a slot, and those waiting for a slot.
QUEUE_GAUGES = re.compile(r"^llamacpp:requests_(processing|deferred)\s+([0-9.]+)", re.MULTILINE)


def server_binary() -> Path | None:
    """The llama-server to run: $LLAMA_SERVER, else the venv's (scripts/build-llama-server, run by `make install`),
    else one on PATH; None when there is none."""
    named = os.environ.get(BINARY_ENV)
    candidates = [Path(named)] if named else [Path(sys.executable).parent / "llama-server"]
    on_path = shutil.which("llama-server")
    if not named and on_path:
        candidates.append(Path(on_path))
    return next((path for path in candidates if path.is_file() and os.access(path, os.X_OK)), None)


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, which containers and `taskset` narrow)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def server_slots(cores: int) -> int:
    """Completions each model decodes at once: two per core, at least 4 and at most 8.

    A small model's decoding step reads its weights once for every slot in the batch, so on a CPU several games'
    tokens cost little more than one game's; past two per core the prompts (computed, not memory-bound) dominate,
    and every slot holds its own KV cache.
    """
    return max(FEWEST_SLOTS, min(MOST_SLOTS, 2 * cores))


def preset_text(models: dict[str, Path]) -> str:
    """The router's `--models-preset` file: one section per model, named as clients ask for it, loaded at start."""
    sections = [f"[{name}]\nmodel = {path}\nload-on-startup = true\n" for name, path in models.items()]
    return "version = 1\n\n" + "\n".join(sections)


def server_command(
    binary: Path, preset: Path, *, port: int, threads: int, slots: int, slot_context: int, host: str = "127.0.0.1"
) -> list[str]:
    """The router's command line; every model's instance inherits its settings."""
    return [
        str(binary),
        *("--models-preset", str(preset), "--host", host, "--port", str(port)),
        *("--threads", str(threads), "--threads-batch", str(threads), "--parallel", str(slots)),
        # Each slot its own `slot_context` tokens (not one pool that a long prompt could take from the others).
        *("--ctx-size", str(slots * slot_context), "--no-kv-unified"),
        # Prompts of idle slots kept in RAM for reuse: llama-server's default (8 GiB per model) is most of a small
        # machine's memory; this holds dozens of game prompts.
        *("--cache-ram", str(PROMPT_CACHE_MIB)),
        "--metrics",
    ]


def server_root(base_url: str) -> str:
    """`http://host:port` of an OpenAI-style base URL (`…/v1`): where llama-server's own endpoints are."""
    parts = urllib.parse.urlsplit(base_url)
    return f"{parts.scheme}://{parts.netloc}"


def _get(url: str, timeout_s: float) -> bytes | None:
    try:
        with urllib.request.urlopen(url, timeout=timeout_s) as response:
            return response.read() if response.status == 200 else None
    except (urllib.error.URLError, OSError, ValueError):
        return None


def server_alive(base_url: str, timeout_s: float = 0.5) -> bool:
    """True when the server answers `/health` over HTTP: llama-server's router answers it itself, at once, however
    many completions its models are computing. Any HTTP answer counts (another server on loopback may have no
    such endpoint); a refused connection or silence does not."""
    try:
        with urllib.request.urlopen(f"{server_root(base_url)}/health", timeout=timeout_s):
            return True
    except urllib.error.HTTPError:
        return True
    except (urllib.error.URLError, OSError, ValueError):
        return False


class Queue(NamedTuple):
    """One model instance's completions: those decoding in a slot and those waiting for one."""

    decoding: int
    waiting: int


def server_queue(base_url: str, model: str, timeout_s: float = 1.0) -> Queue | None:
    """`model`'s completions now, read off its instance's `/metrics`; None if they cannot be read."""
    query = urllib.parse.urlencode({"model": model})
    text = _get(f"{server_root(base_url)}/metrics?{query}", timeout_s)
    gauges = dict(QUEUE_GAUGES.findall(text.decode(errors="replace"))) if text is not None else {}
    if len(gauges) < 2:
        return None
    return Queue(decoding=round(float(gauges["processing"])), waiting=round(float(gauges["deferred"])))
