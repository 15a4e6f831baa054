"""A real OpenAI-compatible HTTP server on loopback that plays back scripted replies and faults.

Stdlib only. Tests push `Reply`s (or callables body -> Reply) onto its queue; each
`POST /v1/chat/completions` takes the next one. Every request is recorded, headers
included, so tests can check prompts, the grammar field and where the API key went.
"""

from __future__ import annotations

import json
import re
import select
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.loopback import serving_thread, stop_serving

MODEL = "scripted-model"


@dataclass
class Reply:
    """One scripted response; the defaults make a normal chat completion."""

    content: str | None = "Answer: a1"
    reasoning_content: str | None = None
    reasoning: str | None = None
    finish_reason: str = "stop"
    prompt_tokens: int = 50
    completion_tokens: int = 5
    reasoning_tokens: int | None = None
    model: str = MODEL
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    #: Seconds to wait before answering (past the client's timeout, to test it).
    delay_s: float = 0.0
    #: Sent as the body instead of a completion (malformed JSON, error documents).
    raw_body: bytes | None = None
    #: Promise a body, send half of it, and close the connection.
    hang_up: bool = False
    #: The first token's alternatives (token, log-probability), sent in OpenAI's `logprobs` format; None sends none.
    top_logprobs: list[tuple[str, float]] | None = None
    #: More choices after the first (a request with `n` > 1).
    more: list[str] = field(default_factory=list)

    def body(self) -> bytes:
        if self.raw_body is not None:
            return self.raw_body
        message: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.reasoning_content is not None:
            message["reasoning_content"] = self.reasoning_content
        if self.reasoning is not None:
            message["reasoning"] = self.reasoning
        usage: dict[str, Any] = {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "total_tokens": self.prompt_tokens + self.completion_tokens,
        }
        if self.reasoning_tokens is not None:
            usage["completion_tokens_details"] = {"reasoning_tokens": self.reasoning_tokens}
        first: dict[str, Any] = {"index": 0, "message": message, "finish_reason": self.finish_reason, "logprobs": None}
        if self.top_logprobs is not None:
            alternatives = [{"token": t, "logprob": lp, "bytes": list(t.encode())} for t, lp in self.top_logprobs]
            first["logprobs"] = {"content": [{**alternatives[0], "top_logprobs": alternatives}]}
        others = [
            {"index": i, "message": {"role": "assistant", "content": text}, "finish_reason": "stop", "logprobs": None}
            for i, text in enumerate(self.more, start=1)
        ]
        document = {
            "id": "chatcmpl-scripted",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": self.model,
            "choices": [first, *others],
            "usage": usage,
        }
        return json.dumps(document).encode()


def answer(move: str, **fields: Any) -> Reply:
    """A reply ending `Answer: <move>`."""
    return Reply(content=f"Answer: {move}", **fields)


def rate_limited(retry_after: str = "0") -> Reply:
    return Reply(
        status=429,
        headers={"Retry-After": retry_after},
        raw_body=b'{"error": {"message": "Rate limit reached", "type": "rate_limit"}}',
    )


def server_error(status: int = 500) -> Reply:
    return Reply(status=status, raw_body=b'{"error": {"message": "The server had an error"}}')


def malformed_json() -> Reply:
    return Reply(raw_body=b'{"choices": [{"message": {"content": "Answer: a')


def slow(delay_s: float, move: str = "a1") -> Reply:
    return Reply(content=f"Answer: {move}", delay_s=delay_s)


def cut_off(content: str = "Let me think about the corners and then") -> Reply:
    return Reply(content=content, finish_reason="length", completion_tokens=64)


def enormous(chars: int = 200_000, move: str = "a1") -> Reply:
    return Reply(content="blah " * (chars // 5) + f"\nAnswer: {move}", completion_tokens=chars // 4)


def hang_up() -> Reply:
    return Reply(hang_up=True)


def first_legal_move(body: dict[str, Any]) -> Reply:
    """Answer with the first move of the prompt's `Legal moves:` line (a well-behaved model), or in the
    notation of BotzoneBench's prompts (arena/agents/llm/scaffolds/botzone/) the first valid move they list."""
    prompt = next(m["content"] for m in reversed(body["messages"]) if m["role"] == "user")
    move = _botzone_first_move(prompt)
    if move is None:
        found = re.findall(r"^Legal moves: (.+)$", prompt, re.MULTILINE)
        move = found[-1].split(", ")[0] if found else "a1"
    return Reply(content=f"I will take {move}.\nAnswer: {move}")


def _botzone_first_move(prompt: str) -> str | None:
    if found := re.search(r"^The valid moves are: ([A-C])(\d)", prompt, re.MULTILINE):  # tic-tac-toe
        return f'{{"col": "{found.group(1)}", "row": {found.group(2)}}}'
    if found := re.search(r"^Valid Moves:\n(.+)$", prompt, re.MULTILINE):  # Fight the Landlord
        first = found.group(1)
        return f"{{{first}}}" if first.startswith('"cards"') else first
    if "(Check)" in prompt:  # hold'em: check or call
        return "0"
    if found := re.search(r"^\[([KQRBNP]: [a-h][1-8]-[a-h][1-8](?:-[qrbn])?)", prompt, re.MULTILINE):  # chess
        return found.group(1)
    if found := re.search(r"^Your valid actions are: (\([^)]*\)(?: -> \([^)]*\))?|None)", prompt, re.MULTILINE):
        return found.group(1)  # Reversi, Ataxx
    if "Board 15x15:" in prompt:  # Gomoku lists no moves: the first empty point
        for line in prompt.splitlines():
            if row := re.fullmatch(r"\s*(\d+) ((?:[.XO] ){14}[.XO])", line):
                cells = row.group(2).split()
                if "." in cells:
                    return f'{{"col": "{"ABCDEFGHIJKLMNO"[cells.index(".")]}", "row": {row.group(1)}}}'
    return None


class _Server(ThreadingHTTPServer):
    request_queue_size = 256  # 64 clients connecting at once must not overflow the listen backlog
    daemon_threads = True


@dataclass
class Received:
    """One request as the server saw it."""

    method: str
    path: str
    headers: dict[str, str]
    raw: bytes
    body: Any
    handling_ms: float = 0.0


class ScriptedServer:
    """Serve `/v1/chat/completions` from a queue of replies; `responder` answers when the queue is empty.

    With `slots`, as llama-server: at most that many completions at once, the others waiting for a slot (and
    leaving the wait when their client hangs up), counted on `/metrics` (`requests_processing`, `requests_deferred`);
    `/health` answers at once.
    """

    def __init__(
        self,
        responder: Callable[[dict], Reply] | None = None,
        *,
        record: bool = True,
        port: int = 0,
        slots: int | None = None,
    ) -> None:
        self.slots = threading.Semaphore(slots) if slots else None
        self.decoding = 0
        self.waiting = 0
        self.queue: deque[Reply | Callable[[dict], Reply]] = deque()
        self.responder = responder
        self.record = record
        self.requests: list[Received] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.httpd = _Server(("127.0.0.1", port), _handler_for(self))  # `port`: a closed server's, to come back
        self.thread = serving_thread(self.httpd, "scripted-llm")

    @property
    def port(self) -> int:
        return self.httpd.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def push(self, *replies: Reply | Callable[[dict], Reply]) -> ScriptedServer:
        with self.lock:
            self.queue.extend(replies)
        return self

    def until_busy(self, timeout_s: float = 10.0) -> None:
        """Wait until a request is being handled."""
        deadline = time.monotonic() + timeout_s
        while not self.in_flight:
            assert time.monotonic() < deadline, "no request reached the scripted server"
            time.sleep(0.01)

    def chat_requests(self) -> list[Received]:
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def start(self) -> ScriptedServer:
        self.thread.start()
        return self

    def close(self) -> None:
        self.stopping.set()
        stop_serving(self.httpd)

    def __enter__(self) -> ScriptedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def next_reply(self, body: Any) -> Reply:
        with self.lock:
            item = self.queue.popleft() if self.queue else self.responder
        if item is None:
            return Reply(status=500, raw_body=b'{"error": {"message": "the script ran out of replies"}}')
        return item(body) if callable(item) else item


def _handler_for(server: ScriptedServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as real providers do
        # Headers and body leave in one write, without Nagle's delay: a real server's latency, not 40 ms of TCP.
        wbufsize = 1 << 16
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            path = self.path.split("?")[0].rstrip("/")
            if path.endswith("/models"):
                body = json.dumps({"object": "list", "data": [{"id": MODEL, "object": "model"}]}).encode()
                self._send(200, body, {})
            elif path == "/health":
                self._send(200, b'{"status": "ok"}', {})
            elif path == "/metrics" and server.slots:
                gauges = f"llamacpp:requests_processing {server.decoding}\nllamacpp:requests_deferred {server.waiting}"
                self._send(200, f"{gauges}\n".encode(), {})
            else:
                self._send(404, b'{"error": {"message": "not found"}}', {})

        def do_POST(self) -> None:
            started = time.perf_counter()
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))  # first: then a hang-up reads as EOF
            if not server.slots:
                self._post(raw, started)
                return
            with server.lock:
                server.waiting += 1
            try:
                while not server.slots.acquire(timeout=0.02):
                    if self._client_gone():
                        self.close_connection = True
                        return
            finally:
                with server.lock:
                    server.waiting -= 1
            with server.lock:
                server.decoding += 1
            try:
                self._post(raw, started)
            finally:
                with server.lock:
                    server.decoding -= 1
                server.slots.release()

        def _client_gone(self) -> bool:
            readable, _, _ = select.select([self.connection], [], [], 0)
            return bool(readable) and self.connection.recv(1, socket.MSG_PEEK) == b""

        def _post(self, raw: bytes, started: float) -> None:
            try:
                body = json.loads(raw)
            except ValueError:
                body = None
            received = Received("POST", self.path, dict(self.headers.items()), raw, body)
            with server.lock:
                server.in_flight += 1
                server.max_in_flight = max(server.max_in_flight, server.in_flight)
                if server.record:
                    server.requests.append(received)
            try:
                reply = server.next_reply(body)
                if reply.delay_s:
                    server.stopping.wait(reply.delay_s)
                if reply.hang_up:
                    self._hang_up(reply.body())
                else:
                    self._send(reply.status, reply.body(), reply.headers)
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True  # the client gave up waiting (a timeout test)
            finally:
                with server.lock:
                    server.in_flight -= 1
                received.handling_ms = (time.perf_counter() - started) * 1000

        def _send(self, status: int, body: bytes, headers: dict[str, str]) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()

        def _hang_up(self, body: bytes) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)

    return Handler


def serve_in_child(conn: Any, content: str) -> None:
    """Serve `content` at once, every time, from a child process; `conn` (a Pipe end) takes commands.

    Benchmarks use it so the server's own Python does not share the harness's interpreter.
    Commands: "handling_ms" (send and clear the handling times so far), "stop".
    """
    reply = Reply(content=content)
    with ScriptedServer(lambda body: reply) as server:
        conn.send(server.base_url)
        while (command := conn.recv()) != "stop":
            if command == "handling_ms":
                with server.lock:
                    times = [received.handling_ms for received in server.requests]
                    server.requests.clear()
                conn.send(times)


if __name__ == "__main__":  # a standalone server for poking at by hand: answers every prompt's first legal move
    with ScriptedServer(first_legal_move, record=False) as standalone:
        print(standalone.base_url, flush=True)
        threading.Event().wait()
