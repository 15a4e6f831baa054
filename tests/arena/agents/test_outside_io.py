"""The boundary for outside I/O, against real loopback servers and real processes: answers that never end,
answers too large, answers that drip, stderr floods, UCI info floods and host Unix sockets."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from arena.agents import remote, seccomp
from arena.agents.outside_io import MAX_LINE_BYTES, STDERR_KEPT, ProcessPipes
from arena.agents.program import ProgramAgent
from arena.agents.remote import MAX_ANSWER_BYTES, RemoteAgent, decision_seconds, public_address
from arena.agents.sandbox import isolation_available
from arena.agents.uci import UCIAgent
from arena.management.message_bus import embedded_bus
from games import get_game
from tests.arena.agents import bots
from tests.loopback import serving_thread, stop_serving

TICTACTOE = get_game("tic-tac-toe")
CHESS = get_game("chess")
#: What a server that sends without end stops at, so a client that never stops reading cannot fill the machine.
SERVER_STOPS_AT = 64 << 20
#: More than the kernel's socket buffers hold: a server that got this far was being read.
READ_FAR = 16 << 20
#: A test's guard against a decision that never ends (each decision here is bounded well below it).
NEVER = 60


class HostileServer:
    """A real HTTP agent on loopback that answers badly: `endless` (chunked, never ends), `huge` (a 300 MB
    body with its Content-Length) or `drip` (one byte every 2 s); counts the bytes it got to send."""

    def __init__(self, mode: str) -> None:
        self.sent = 0
        self.done = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers["Content-Length"]))
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                if mode == "endless":
                    self.send_header("Transfer-Encoding", "chunked")
                else:
                    self.send_header("Content-Length", str(300_000_000 if mode == "huge" else 1000))
                self.end_headers()
                try:
                    while server.sent < SERVER_STOPS_AT:
                        if mode == "drip":
                            self.wfile.write(b" ")
                            self.wfile.flush()
                            server.sent += 1
                            time.sleep(2)
                            continue
                        chunk = b"x" * 65536
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk) if mode == "endless" else chunk)
                        server.sent += len(chunk)
                except OSError:
                    pass  # the agent hung up: what it was sent is counted
                finally:
                    server.done.set()
                    self.close_connection = True

            def log_message(self, *args) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/move"
        serving_thread(self.httpd).start()

    def close(self) -> None:
        stop_serving(self.httpd)


@pytest.fixture
def hostile_server():
    servers: list[HostileServer] = []

    def start(mode: str) -> HostileServer:
        servers.append(HostileServer(mode))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


async def ask(config: dict):
    agent = RemoteAgent({"retries": 0, "provider_retries": 0, **config})
    return await asyncio.wait_for(agent.decide(TICTACTOE, TICTACTOE.initial_state(seed=1), 0, 1), NEVER)


@pytest.mark.parametrize("mode", ["endless", "huge"])
@pytest.mark.asyncio
async def test_an_answer_over_the_cap_is_over_budget_and_the_rest_is_never_read(hostile_server, mode):
    server = hostile_server(mode)
    result = await ask({"url": server.url, "timeout_s": 30})
    attempt = result.attempts[-1]
    assert attempt.verdict == "over_budget", attempt.message
    assert len(attempt.raw_text) <= MAX_ANSWER_BYTES
    assert await asyncio.to_thread(server.done.wait, 10)  # the agent hung up
    assert server.sent < READ_FAR  # what the socket buffers took, not the 64 MB or 300 MB on offer


@pytest.mark.asyncio
async def test_an_answer_dripping_a_byte_every_two_seconds_ends_at_the_decisions_deadline(hostile_server):
    server = hostile_server("drip")
    config = {"url": server.url, "timeout_s": 3, "provider_retries": 1}
    result = await ask(config)
    assert [attempt.verdict for attempt in result.attempts] == ["timeout", "timeout"]
    assert all(attempt.transient for attempt in result.attempts)  # the match pauses rather than forfeits
    # One deadline over every wait (6 s here), not one per read: the drip would go on for 2,000 s. The margin is
    # for a busy machine, not for the agent.
    assert result.elapsed_ms <= (decision_seconds(config) + 20) * 1000


@pytest.mark.parametrize(
    "address",
    [
        "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
        "64:ff9b::808:808",  # NAT64 of a public address: the translator sits in someone's network
        "64:ff9b:1::a00:1",  # local-use NAT64
        "::ffff:10.0.0.1",  # IPv4-mapped private
        "2002:a00:1::1",  # 6to4 of 10.0.0.1
        "2002:7f00:1::1",  # 6to4 of 127.0.0.1
        "::a9fe:a9fe",  # IPv4-compatible 169.254.169.254
    ],
)
def test_ipv6_addresses_standing_for_ipv4_ones_are_not_public(address):
    assert not public_address(address)


@pytest.mark.asyncio
async def test_a_public_only_agent_resolving_to_nat64_of_the_loopback_is_never_asked(monkeypatch):
    async def nat64(host: str, port: int) -> list[str]:
        return ["64:ff9b::7f00:1"]

    monkeypatch.setattr(remote, "resolve", nat64)
    result = await ask({"url": "http://agent.example/move", "public_only": True})
    attempt = result.attempts[-1]
    assert attempt.verdict == "api_error"
    assert (
        attempt.message
        == "agent.example resolves to 64:ff9b::7f00:1, which agents registered through the API may not reach."
    )


@pytest.mark.parametrize("address", ["8.8.8.8", "2001:4860:4860::8888", "::ffff:8.8.8.8"])
def test_public_addresses_stay_public(address):
    assert public_address(address)


@pytest.mark.asyncio
async def test_a_program_flooding_stderr_times_out_at_its_wall_time_and_leaves_nothing_running():
    flood = bots.python_bot(bots.program_dir(), "stderr_flood", STDERR_FLOOD)
    agent = ProgramAgent({"command": flood, "limits": {"time_s": 2}})
    result = await asyncio.wait_for(agent.decide(TICTACTOE, TICTACTOE.initial_state(seed=1), 0, 1), NEVER)
    attempt = result.attempts[0]
    assert attempt.verdict == "timeout", attempt.message
    assert result.action is None
    assert 0 < len(attempt.reasoning_text) <= STDERR_KEPT
    await asyncio.sleep(0.3)
    if isolation_available():
        assert bots.nobody_processes() == 0


STDERR_FLOOD = "import sys\nwhile True:\n    sys.stderr.write('e' * 65536)\n"


@pytest.mark.skipif(not seccomp.available(), reason="no seccomp filter for this machine's architecture")
@pytest.mark.asyncio
async def test_a_program_cannot_connect_to_a_unix_socket_on_the_hosts_disk():
    directory = bots.program_dir()
    path = directory / "postgres.sock"
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(path))
    os.chmod(path, 0o777)  # anyone may connect: only the sandbox stands in the way
    listener.listen()
    listener.setblocking(False)
    try:
        program = bots.python_bot(directory, "unix", UNIX_CONNECT.format(path=str(path)))
        result = await ProgramAgent({"command": program, "limits": {"time_s": 5}}).decide(
            TICTACTOE, TICTACTOE.initial_state(seed=1), 0, 1
        )
        assert json.loads(result.attempts[0].raw_text) == {"response": "PermissionError"}
        with pytest.raises(BlockingIOError):
            listener.accept()
    finally:
        listener.close()


@pytest.mark.skipif(not seccomp.available(), reason="no seccomp filter for this machine's architecture")
@pytest.mark.asyncio
async def test_a_program_cannot_reach_the_embedded_message_bus_even_where_it_sees_its_socket():
    directory = bots.program_dir()  # the bus of a var/ the program can see (Arena's own var/ is hidden from it)
    with embedded_bus(directory):
        path = directory / "bus" / "redis.sock"
        program = bots.python_bot(directory, "bus", UNIX_CONNECT.format(path=str(path)))
        result = await ProgramAgent({"command": program, "limits": {"time_s": 5}}).decide(
            TICTACTOE, TICTACTOE.initial_state(seed=1), 0, 1
        )
        assert json.loads(result.attempts[0].raw_text) == {"response": "PermissionError"}


UNIX_CONNECT = (
    "import json, socket\n"
    "try:\n"
    "    client = socket.socket(socket.AF_UNIX); client.connect({path!r}); reached = 'reached'\n"
    "except OSError as error:\n    reached = type(error).__name__\n"
    'print(json.dumps({{"response": reached}}))\n'
)

#: A UCI engine that answers the handshake, then floods `info` lines (or one endless line) instead of a move.
UCI_FLOOD = r"""
import sys
LINE = "info depth 1 score cp 0 pv " + " ".join(["e2e4 e7e5 g1f3 b8c6"] * 200) + "\n"
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "uci":
        print("id name flood\nuciok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        while True:
            sys.stdout.write("{mode}")
"""


@pytest.mark.parametrize(
    ("mode", "reason"),
    [("info lines", "bytes of output in one decision"), ("one endless line", f"longer than {MAX_LINE_BYTES}")],
)
@pytest.mark.asyncio
async def test_a_uci_engine_flooding_its_output_is_over_budget_and_killed(mode, reason):
    flood = "LINE" if mode == "info lines" else "'x' * 65536"
    source = UCI_FLOOD.replace('sys.stdout.write("{mode}")', f"sys.stdout.write({flood})")
    engine = UCIAgent(
        {
            "command": bots.python_bot(bots.program_dir(), "uci_flood", source),
            "time_s": 10,
            "limits": {"output_bytes": 2_000_000},
        }
    )
    try:
        result = await asyncio.wait_for(engine.decide(CHESS, CHESS.initial_state(seed=1), 0, 1), NEVER)
    finally:
        await engine.close()
    attempt = result.attempts[0]
    assert attempt.verdict == "over_budget", attempt.message
    assert reason in attempt.message
    await asyncio.sleep(0.3)
    if isolation_available():
        assert bots.nobody_processes() == 0


async def started_with_ready_line(script: str) -> ProcessPipes:
    """A shell running `script` whose stderr is held back until the line READY, as the sandbox's init prints it."""
    pipes = ProcessPipes(1000)
    pipes.ready_line = b"READY"
    await asyncio.get_running_loop().subprocess_exec(
        lambda: pipes, "sh", "-c", script, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    return pipes


@pytest.mark.asyncio
async def test_the_ready_line_is_awaited_and_kept_out_of_stderr():
    pipes = await started_with_ready_line("echo before >&2; echo READY >&2; echo after >&2; read line; echo $line")
    assert await asyncio.wait_for(pipes.ready(), 10)
    pipes.write(b"hi\n")
    await asyncio.wait_for(pipes.exited(), 10)
    assert (bytes(pipes.stdout), bytes(pipes.stderr)) == (b"hi\n", b"before\nafter\n")


@pytest.mark.asyncio
async def test_a_wrapper_failing_before_the_ready_line_leaves_its_complaint_in_stderr():
    pipes = await started_with_ready_line("echo 'mount: permission denied' >&2; exit 3")
    assert not await asyncio.wait_for(pipes.ready(), 10)
    assert await asyncio.wait_for(pipes.exited(), 10) == 3
    assert bytes(pipes.stderr) == b"mount: permission denied\n"
