"""The sandbox: a hostile Botzone program and a hostile UCI engine try every escape, and each one fails."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import uuid
from pathlib import Path

import pytest
from django.conf import settings

from arena.agents import sandbox
from arena.agents.program import ProgramAgent
from arena.agents.sandbox import isolation_available
from arena.agents.uci import UCIAgent
from games import get_game
from tests.arena.agents import bots

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.skipif(not isolation_available(), reason="the walls need root, unshare and setpriv"),
]
TICTACTOE = get_game("tic-tac-toe")
CHESS = get_game("chess")
ENV_SECRET = "sandbox-test-secret-value"

#: One script, two faces: a Botzone program (prints what each probe reached) or a UCI engine (one probe;
#: bestmove e2e4 when it was contained, a2a3 when it escaped). A probe returns what it got, "" for nothing.
HOSTILE = r"""
import json, os, signal, socket, subprocess, sys

VAR, PORT, MARK = sys.argv[2], int(sys.argv[3]), sys.argv[4]

def read(name):
    try:
        with open(os.path.join(VAR, name), "rb") as handle:
            return handle.read(64).decode(errors="replace") or "(empty but readable)"
    except OSError:
        return ""

def network():
    try:
        socket.create_connection(("127.0.0.1", PORT), timeout=2).close()
        return "reached"
    except OSError:
        return ""

def sleeper():
    subprocess.Popen(["setsid", "sleep", MARK], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, start_new_session=True)
    return ""  # judged by the test: no such process may be left

def outside():
    left = []
    for directory in ("/tmp", "/var/tmp", "/dev/shm", os.path.dirname(os.getcwd()), VAR):
        try:
            with open(os.path.join(directory, "arena-escape-" + MARK), "w") as handle:
                handle.write("x")
            left.append(directory)
        except OSError:
            pass
    return " ".join(left)

def huge_file():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    written = 0
    try:
        with open("huge", "wb") as handle:
            for _ in range(64):
                written += handle.write(b"x" * (1 << 20))
                handle.flush()
    except OSError:
        pass
    return str(written) if written > 16 << 20 else ""

def many_files():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    written = 0
    try:
        for index in range(16):
            with open(f"part{index}", "wb") as handle:
                for _ in range(15):
                    written += handle.write(b"x" * (1 << 20))
                    handle.flush()
    except OSError:
        pass
    return str(written) if written > 64 << 20 else ""

def environment():
    return " ".join(key for key, value in os.environ.items() if "secret" in value or key in (
        "DATABASE_URL", "DJANGO_SECRET_KEY", "REDIS_URL"))

def root():
    return "root" if os.getuid() == 0 or os.geteuid() == 0 else ""

PROBES = {
    "database": lambda: read("arena.sqlite3"), "secret_key": lambda: read("secret_key"),
    "planted": lambda: read("planted"), "network": network, "sleeper": sleeper, "outside": outside,
    "huge_file": huge_file, "many_files": many_files, "environment": environment, "root": root,
}

if sys.argv[1] == "program":
    sys.stdin.readline()
    found = {name: probe() for name, probe in PROBES.items()}
    print(json.dumps({"response": {"found": found, "cwd": os.getcwd(), "tmpdir": os.environ.get("TMPDIR")}}))
else:
    probe = PROBES[sys.argv[5]]
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            print("id name hostile\nuciok", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            print("bestmove " + ("a2a3" if probe() else "e2e4"), flush=True)
        elif words[0] == "quit":
            break
"""
PROBES = (
    "database", "secret_key", "planted", "network", "sleeper", "outside",
    "huge_file", "many_files", "environment", "root",
)  # fmt: skip


@pytest.fixture
def walls(monkeypatch):
    """The hostile script's command prefix: a planted world-readable file in var/, a loopback server,
    a secret in Arena's environment, and a mark naming what the script may leave behind."""
    var = Path(settings.VAR_DIR)
    planted = var / "planted"
    planted.write_text("planted-secret")
    planted.chmod(0o644)  # readable by anyone: only the mount hides it
    monkeypatch.setenv("DATABASE_URL", f"postgres://arena:{ENV_SECRET}@db/arena")
    monkeypatch.setenv("ARENA_TEST_TOKEN", ENV_SECRET)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.setblocking(False)
    mark = f"3599.{uuid.uuid4().int % 10**6}"
    script = bots.python_bot(bots.program_dir(), "hostile", HOSTILE)
    yield {"command": f"{script} {{mode}} {var} {server.getsockname()[1]} {mark}", "mark": mark, "server": server}
    server.close()
    planted.unlink()
    for directory in ("/tmp", "/var/tmp", "/dev/shm", str(var)):
        leftover = Path(directory) / f"arena-escape-{mark}"
        assert not leftover.exists(), leftover
    assert not _sleepers(mark)


def _sleepers(mark: str) -> list[str]:
    ps = subprocess.run(["ps", "-eo", "args="], capture_output=True, text=True).stdout.splitlines()
    return [line for line in ps if f"sleep {mark}" in line]


def _accepted(server: socket.socket) -> bool:
    try:
        server.accept()[0].close()
        return True
    except BlockingIOError:
        return False


async def test_a_hostile_program_reaches_nothing_and_leaves_nothing(walls):
    command = walls["command"].format(mode="program")
    agent = ProgramAgent({"command": command, "limits": {"time_s": 20, "file_mb": 16, "disk_mb": 64}})
    result = await agent.decide(TICTACTOE, TICTACTOE.initial_state(seed=1), 0, 1)
    attempt = result.attempts[0]
    assert attempt.verdict == "unparseable", (attempt.message, attempt.reasoning_text)
    answer = json.loads(attempt.raw_text)["response"]
    assert answer["found"] == dict.fromkeys(PROBES, "")
    assert answer["tmpdir"] == answer["cwd"]
    assert not Path(answer["cwd"]).exists()  # noqa: ASYNC240 - its directory went with the run
    assert not _accepted(walls["server"])
    await asyncio.sleep(0.3)
    assert not _sleepers(walls["mark"])


@pytest.mark.parametrize("probe", PROBES)
async def test_a_hostile_uci_engine_is_walled_in_like_a_program(walls, probe):
    command = walls["command"].format(mode="uci") + f" {probe}"
    engine = UCIAgent({"command": command, "time_s": 20, "limits": {"file_mb": 16, "disk_mb": 64}})
    try:
        result = await engine.decide(CHESS, CHESS.initial_state(seed=1), 0, 1)
    finally:
        await engine.close()
    assert result.attempts[0].verdict == "ok", result.attempts[0].message
    assert result.action == "e2e4"  # a2a3 would say the probe got through
    assert not _accepted(walls["server"])
    await asyncio.sleep(0.3)
    assert not _sleepers(walls["mark"])


@pytest.mark.filterwarnings("ignore:Overriding setting DATABASES")
async def test_an_sqlite_database_kept_outside_var_reads_as_empty(settings):
    directory = bots.program_dir()
    database = directory / "elsewhere.sqlite3"
    database.write_text("sessions-and-tokens")
    database.chmod(0o644)  # readable by anyone: only the mount hides it
    settings.DATABASES = {
        **settings.DATABASES,
        "default": {**settings.DATABASES["default"], "NAME": str(database)},
    }
    reader = bots.python_bot(directory, "reader", bots.READ_FILE.format(path=str(database)))
    result = await ProgramAgent({"command": reader, "limits": {"time_s": 5}}).decide(
        TICTACTOE, TICTACTOE.initial_state(seed=1), 0, 1
    )
    assert json.loads(result.attempts[0].raw_text) == {"response": ""}


async def test_without_root_a_user_namespace_keeps_every_wall_but_the_change_of_user(walls, monkeypatch):
    """What a host where Arena is not root gets (forced here, where Arena is root): the program is the user
    namespace's root, Arena's own user outside it, and has no capability to undo the mounts."""
    monkeypatch.setattr(sandbox, "isolation_mode", lambda: "userns")
    command = walls["command"].format(mode="program")
    agent = ProgramAgent({"command": command, "limits": {"time_s": 20, "file_mb": 16, "disk_mb": 64}})
    result = await agent.decide(TICTACTOE, TICTACTOE.initial_state(seed=1), 0, 1)
    attempt = result.attempts[0]
    assert attempt.verdict == "unparseable", (attempt.message, attempt.reasoning_text)
    assert sandbox.MISSING_WALLS["userns"] in attempt.message
    found = json.loads(attempt.raw_text)["response"]["found"]
    assert found == {**dict.fromkeys(PROBES, ""), "root": "root"}  # root of its namespace only
    assert not _accepted(walls["server"])
