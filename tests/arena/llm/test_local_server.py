"""The embedded model server on any machine of Arena's kind: no AMX code, ready only once it answers, restarted
after a crash (a few times), and a site that goes on when it is down."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from arena.agents.llm.llama_server import server_alive, server_binary, server_slots
from arena.agents.llm.local import (
    SMOLLM2,
    completion_check,
    endpoint_is_local,
    local_base_url,
    server_status,
    state_path,
    state_write,
)
from tests.arena.llm.scripted_server import Reply, ScriptedServer, hang_up, slow
from tests.arena.llm.test_local_model import free_port

ROOT = Path(__file__).resolve().parents[3]
#: Every AMX tile instruction (the mnemonics objdump prints for AMX-TILE, AMX-INT8, AMX-BF16 and AMX-FP16).
AMX = re.compile(r"\s(ldtilecfg|sttilecfg|tileloadd|tileloaddt1|tilestored|tilezero|tilerelease|tdp\w+)\s")
needs_llama = pytest.mark.skipif(
    importlib.util.find_spec("llama_cpp") is None, reason="llama-cpp-python is not installed"
)
#: The tests that run llama-server itself: without it they would wait out their deadlines, not fail or pass.
needs_llama_server = pytest.mark.skipif(
    server_binary() is None, reason="llama-server is not built (make install: scripts/build-llama-server)"
)


def _amx_instructions(binary: Path) -> list[str]:
    listing = subprocess.run(
        ["objdump", "-d", "--no-show-raw-insn", str(binary)], capture_output=True, text=True, check=True
    ).stdout
    assert "ret" in listing  # a real disassembly, not an empty one
    return AMX.findall(listing)


needs_objdump = pytest.mark.skipif(shutil.which("objdump") is None, reason="binutils' objdump is not installed")


@pytest.mark.slow  # reads every library whole: a check of the build, which changes rarely
@needs_llama
@needs_objdump
def test_the_llama_libraries_hold_no_amx_instruction():
    """A CPU may advertise AMX that its OS never granted the process: any AMX code could run there and fault, so
    none is built (scripts/build-llama). Read off the libraries themselves, whatever CPU this test runs on."""
    libraries = sorted((Path(importlib.util.find_spec("llama_cpp").origin).parent / "lib").glob("lib*.so"))
    assert {path.name for path in libraries} >= {"libggml-cpu.so", "libllama.so"}
    for library in libraries:
        assert _amx_instructions(library) == [], library.name


@pytest.mark.slow
@needs_llama_server
@needs_objdump
def test_llama_server_holds_no_amx_instruction():
    """The same for llama-server (scripts/build-llama-server), which links llama.cpp in whole."""
    assert _amx_instructions(server_binary()) == []


def test_a_server_is_ready_only_when_a_model_completes():
    with ScriptedServer(lambda body: Reply(content="OK")) as server:
        completion_check(server.base_url, "scripted-model")
        assert server.requests[-1].body["max_tokens"] == 1
    # One that answers its health check, then drops the connection on a completion, as a crashing llama.cpp does.
    with ScriptedServer(lambda body: hang_up()) as server:
        assert server_alive(server.base_url)
        with pytest.raises(RuntimeError, match="gave no completion"):
            completion_check(server.base_url, "scripted-model", timeout_s=5)


def test_llama_server_has_two_slots_per_core_from_4_to_8():
    assert [server_slots(cores) for cores in (1, 2, 3, 4, 16)] == [4, 4, 6, 8, 8]


def test_only_loopback_endpoints_are_local():
    assert endpoint_is_local("http://127.0.0.1:8081/v1")
    assert endpoint_is_local("http://localhost:8081/v1")
    assert endpoint_is_local("http://[::1]:9000/v1")
    assert not endpoint_is_local("https://api.openai.com/v1")
    assert not endpoint_is_local("http://10.0.0.2:8000/v1")


def _state(port: int, env: dict) -> dict:
    path = Path(env["ARENA_VAR_DIR"]) / "models" / state_path(port).name
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def _until(condition, timeout_s: float, what: str):
    deadline = time.monotonic() + timeout_s
    while not (value := condition()):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)
    return value


@pytest.mark.slow
@needs_llama_server
def test_llm_server_restarts_a_crashed_server_then_gives_up_past_its_limit(tmp_path):
    port = free_port()
    env = {**os.environ, "ARENA_VAR_DIR": str(tmp_path), "LLM_PORT": str(port)}
    command = [sys.executable, "manage.py", "llm_server", "--model", SMOLLM2, "--port", str(port), "--restarts", "1"]
    supervisor = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert "serving" in supervisor.stdout.readline()
        first = _state(port, env)
        assert first["status"] == "ready"
        os.kill(first["pid"], signal.SIGKILL)  # as the general protection fault did
        second = _until(
            lambda: (s := _state(port, env)).get("status") == "ready" and s["pid"] != first["pid"] and s, 120, "restart"
        )
        assert server_alive(local_base_url(port))
        os.kill(second["pid"], signal.SIGKILL)  # a second crash within ten minutes: past --restarts 1
        assert supervisor.wait(timeout=60) == 1
        state = _state(port, env)
        assert state["status"] == "down"
        assert "gave up after 2 failures" in state["message"]
        assert "local model server down" in supervisor.stderr.read()
    finally:
        if supervisor.poll() is None:
            supervisor.kill()


@pytest.mark.slow
@needs_llama_server
def test_the_site_stays_up_when_the_local_model_server_dies(tmp_path):
    """`make run`'s scripts/serve: the model server giving up leaves the web and workers serving, and says so."""
    port, llm_port = free_port(), free_port()
    env = {
        **os.environ,
        "ARENA_VAR_DIR": str(tmp_path),
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "LLM_PORT": str(llm_port),
        "LLM_MODELS": SMOLLM2,
        "LLM_RESTARTS": "0",
    }
    env.pop("DATABASE_URL", None)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    log = tmp_path / "serve.log"
    with open(log, "w") as out:
        serve = subprocess.Popen(
            ["scripts/serve"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )

    def health() -> dict:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
                return json.loads(response.read())
        except OSError:
            return {}

    try:
        _until(lambda: health().get("local_models") == "ok", 240, "the site and its local model to answer")
        ready = _until(lambda: (s := _state(llm_port, env)).get("status") == "ready" and s, 60, "the model's answer")
        os.kill(ready["pid"], signal.SIGKILL)
        down = _until(lambda: health().get("local_models", "").startswith("down") and health(), 60, "healthz: down")
        assert down["status"] == "ok"  # database and channel layer: the site itself is healthy
        assert "gave up" in down["local_models"]
        _until(lambda: "Arena goes on without local models" in log.read_text(), 30, "serve's word on it")
        assert serve.poll() is None
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/play/", timeout=10) as response:
            assert response.status == 200
        workers = subprocess.run(["pgrep", "-s", str(serve.pid), "-f", "manage.py worker"], capture_output=True)
        assert len(workers.stdout.split()) == 2
    finally:
        os.killpg(serve.pid, signal.SIGTERM)
        try:
            serve.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(serve.pid, signal.SIGKILL)


def test_a_busy_server_is_alive_and_healthz_says_busy_not_down(monkeypatch, tmp_path):
    monkeypatch.setenv("ARENA_VAR_DIR", str(tmp_path))
    # One slot, as a llama-server sized so: one move decodes and one waits for the slot.
    with ScriptedServer(lambda body: slow(3.0), slots=1) as server:
        state_write(server.port, "ready")
        others = [threading.Thread(target=completion_check, args=(server.base_url, "scripted-model")) for _ in range(2)]
        for other in others:
            other.start()
        server.until_busy()
        _until(lambda: server.waiting, 5, "a move waiting for the slot")
        assert server_alive(server.base_url, timeout_s=0.5)  # /health does not wait behind the completions
        assert server_status(server.port) == "busy"
        for other in others:
            other.join()
        assert server_status(server.port) == "ok"
    assert not server_alive(server.base_url)


def test_healthz_names_a_local_model_server_that_is_not_running(monkeypatch, tmp_path):
    monkeypatch.setenv("ARENA_VAR_DIR", str(tmp_path))
    assert server_status(free_port()) == "not running"
