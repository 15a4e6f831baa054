"""One call to an OpenAI-compatible chat endpoint through the `openai` SDK, never raising.

Every outcome (a reply, a 429, a dropped connection, a timeout, a body that is not JSON)
comes back as a `Completion`, so the agent can record it as an attempt. The SDK's own
retries are off: the agent retries itself so each failed call is recorded.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import select
import socket
import ssl
import threading
import time
import weakref
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any

import httpcore2
import httpx2

from arena.agents.llm.parsing import split_reasoning

if TYPE_CHECKING:
    import openai

#: Status codes worth retrying: the provider is busy or broken, not the request.
TRANSIENT_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 522, 524, 529})
#: Stand-in credential for endpoints that need none; the SDK insists on some key.
NO_KEY = "no-key"

# One INFO line per model call drowns the worker's log; the Attempt row already records each call.
logging.getLogger("httpx2").setLevel(logging.WARNING)


@dataclass
class Completion:
    """What one HTTP call produced: a reply (`ok`) or a failure with its verdict."""

    ok: bool
    content: str = ""
    reasoning: str = ""
    finish_reason: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int = 0
    model: str = ""
    latency_ms: int = 0
    #: Every choice's text when the request asked for several (`n`); the first is `content`.
    choices: list[str] = field(default_factory=list)
    #: The first reply token's alternatives as (token, log-probability), when the request asked for
    #: `logprobs` and the server returned them; None when it returned none.
    top_logprobs: list[tuple[str, float]] | None = None
    #: For failures: "api_error" or "timeout", a message, and whether to blame the provider.
    verdict: str = ""
    message: str = ""
    transient: bool = False
    retry_after_s: float | None = None
    #: HTTP 429: the provider is up and asks us to wait; not counted as a failure (see `rate_limit_wait_s`).
    rate_limited: bool = False


class ProviderLimiter:
    """A process-wide cap on calls in flight to one provider, shared by every event loop.

    An asyncio.Semaphore belongs to one loop; the runner, daphne and `async_to_sync` each
    run their own, and the provider's limit applies to all of them together.
    """

    def __init__(self, size: int) -> None:
        self.size = max(1, size)
        self.active = 0
        self._waiters: deque[asyncio.Future] = deque()
        self._lock = threading.Lock()

    @property
    def in_flight(self) -> int:
        """Calls sent or waiting to be sent: the moves a new call would queue behind."""
        with self._lock:
            return self.active + len(self._waiters)

    async def __aenter__(self) -> None:
        with self._lock:
            if self.active < self.size and not self._waiters:
                self.active += 1
                return
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            with self._lock:
                if waiter in self._waiters:
                    self._waiters.remove(waiter)
                    raise
            if waiter.done() and not waiter.cancelled():
                self._release()  # the slot reached us just as we were cancelled: pass it on
            raise

    async def __aexit__(self, *exc: object) -> None:
        self._release()

    def _release(self) -> None:
        with self._lock:
            if self._waiters and self.active <= self.size:
                waiter = self._waiters.popleft()
                # The slot passes straight to the waiter (active stays the same), on the waiter's own loop.
                waiter.get_loop().call_soon_threadsafe(self._grant, waiter)
                return
            self.active -= 1

    def _grant(self, waiter: asyncio.Future) -> None:
        if waiter.done():  # cancelled meanwhile: hand the slot to the next in line
            self._release()
        else:
            waiter.set_result(None)


#: Idle connections a client keeps per provider: as many calls as one worker process may have in flight.
KEPT_ALIVE = 256
#: Seconds an idle connection is kept: well under the 5 s after which llama-server (cpp-httplib) and Node's servers
#: close one, so a call is never sent on a connection the server is closing ("Server disconnected without sending a
#: response"). Our clock starts when we have read the response, theirs when they sent it: on a machine busy enough to
#: hold our process back a second or two, 4 s was not enough (a local model's test failed so under a full test run).
IDLE_EXPIRY_S = 2.0
_limiters: dict[str, ProviderLimiter] = {}
_limiters_lock = threading.Lock()
_ssl_context: ssl.SSLContext | None = None
_ssl_context_lock = threading.Lock()


def tls_context() -> ssl.SSLContext:
    """The process's TLS context, made once: building one loads the CA bundle (tens of milliseconds of CPU), and
    every client shares it. Callers that ask together wait for the first one's."""
    global _ssl_context
    with _ssl_context_lock:
        if _ssl_context is None:
            _ssl_context = ssl.create_default_context()
        return _ssl_context


def provider_limiter(base_url: str, size: int) -> ProviderLimiter:
    """The limiter for `base_url`; the latest configured size wins."""
    with _limiters_lock:
        limiter = _limiters.get(base_url)
        if limiter is None:
            limiter = _limiters[base_url] = ProviderLimiter(size)
        limiter.size = max(1, size)
        return limiter


def load() -> None:
    """Load the SDK and make the TLS context now, as a worker does at its start: on its event loop, at its first
    model call, the SDK's half second of loading would hold up every match in flight."""
    import openai  # noqa: F401

    tls_context()


def socket_readable(sock: socket.socket | None) -> bool:
    """Whether reading `sock` would not block: on an idle keep-alive connection, that the server is closing it (a
    socket that is gone counts as readable, as httpcore's own check has it)."""
    fd = -1 if sock is None else sock.fileno()
    if fd < 0:
        return True
    poll = select.poll()
    poll.register(fd, select.POLLIN)
    return bool(poll.poll(0))


class PolledStream(httpcore2.AsyncNetworkStream):
    """A connection whose "is the server closing it" check polls its socket, held from the start.

    The connection pool asks it of every idle connection at every request it assigns and every response it closes;
    anyio's stream answers by building its table of socket attributes (and a getpeername call) each time, which
    with a worker's dozens of kept-alive connections cost more CPU than the rest of the call."""

    def __init__(self, stream: httpcore2.AsyncNetworkStream) -> None:
        self.stream = stream
        self.socket = stream.get_extra_info("socket")

    # The `timeout` parameters are httpcore's interface, passed on as they are.
    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:  # noqa: ASYNC109
        return await self.stream.read(max_bytes, timeout)

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:  # noqa: ASYNC109
        await self.stream.write(buffer, timeout)

    async def aclose(self) -> None:
        await self.stream.aclose()

    async def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,  # noqa: ASYNC109
    ) -> PolledStream:
        return PolledStream(await self.stream.start_tls(ssl_context, server_hostname, timeout))

    def get_extra_info(self, info: str) -> Any:
        if info == "is_readable":
            return socket_readable(self.socket)
        return self.stream.get_extra_info(info)


class PolledBackend(httpcore2.AsyncNetworkBackend):
    """anyio's network backend, its connections `PolledStream`s."""

    def __init__(self) -> None:
        self.backend = httpcore2.AnyIOBackend()

    async def connect_tcp(self, host: str, port: int, **options: Any) -> PolledStream:
        return PolledStream(await self.backend.connect_tcp(host, port, **options))

    async def connect_unix_socket(self, path: str, **options: Any) -> PolledStream:
        return PolledStream(await self.backend.connect_unix_socket(path, **options))

    async def sleep(self, seconds: float) -> None:
        await self.backend.sleep(seconds)


#: Calls in flight are bounded by the provider's limiter, not here: one client serves all of a worker's matches on its
#: loop, and every connection it opens stays alive for the next call.
POOL_LIMITS = httpx2.Limits(max_connections=None, max_keepalive_connections=KEPT_ALIVE, keepalive_expiry=IDLE_EXPIRY_S)


#: Connection pools behind one client (`SpreadTransport`).
POOLS = 4


class ReleasedStream(httpx2.AsyncByteStream):
    """A response body that calls `release` once, when it is closed (read to its end, or given up)."""

    def __init__(self, stream: httpx2.AsyncByteStream, release: Any) -> None:
        self.stream = stream
        self.release = release

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self.stream:
            yield chunk

    async def aclose(self) -> None:
        try:
            await self.stream.aclose()
        finally:
            release, self.release = self.release, None
            if release is not None:
                release()


class SpreadTransport(httpx2.AsyncBaseTransport):
    """Calls spread over several connection pools, each to the pool with the fewest calls in flight (the first of
    those, so calls one at a time keep reusing the first pool's connection).

    httpcore's pool looks over every one of its connections at each call it sends and each response it closes: a
    worker's 64 calls at once over one pool of 64 connections did that 128 times a call; over four pools of about
    16 each, a quarter of that work."""

    def __init__(self, transports: list[httpx2.AsyncBaseTransport]) -> None:
        self.transports = transports
        self.in_flight = [0] * len(transports)

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        index = self.in_flight.index(min(self.in_flight))
        self.in_flight[index] += 1
        try:
            response = await self.transports[index].handle_async_request(request)
        except BaseException:
            self.in_flight[index] -= 1
            raise
        response.stream = ReleasedStream(response.stream, lambda: self._release(index))
        return response

    def _release(self, index: int) -> None:
        self.in_flight[index] -= 1

    async def aclose(self) -> None:
        for transport in self.transports:
            await transport.aclose()


def http_transport() -> SpreadTransport:
    """The transport a client sends its calls through: `POOLS` of httpx's."""
    return SpreadTransport([pooled_transport() for _ in range(POOLS)])


def pooled_transport() -> httpx2.AsyncHTTPTransport:
    """httpx's transport, its idle connections checked cheaply (`PolledStream`)."""
    limits = POOL_LIMITS
    transport = httpx2.AsyncHTTPTransport(verify=tls_context(), limits=limits)
    # httpx builds its pool without a way to name the network backend: this one is the same pool, with ours.
    transport._pool = httpcore2.AsyncConnectionPool(
        ssl_context=tls_context(),
        max_connections=limits.max_connections,
        max_keepalive_connections=limits.max_keepalive_connections,
        keepalive_expiry=limits.keepalive_expiry,
        network_backend=PolledBackend(),
    )
    return transport


def open_client(base_url: str) -> openai.AsyncOpenAI:
    """A new SDK client (the caller closes it); cheap because the TLS context is shared."""
    import openai  # here, not at the top: the SDK takes half a second to load, which only a model's caller pays

    # `verify` and `limits` serve the proxies the environment names, if any; every other call goes through ours.
    http_client = httpx2.AsyncClient(
        verify=tls_context(), limits=POOL_LIMITS, transport=http_transport(), timeout=httpx2.Timeout(None)
    )
    return openai.AsyncOpenAI(base_url=base_url, api_key=NO_KEY, max_retries=0, http_client=http_client)


#: (id(loop), base_url) -> (the loop, weakly; its client). One client per loop keeps connections
#: (and TLS sessions) alive across decisions; a client cannot move between loops.
_clients: dict[tuple[int, str], tuple[weakref.ref, openai.AsyncOpenAI, AsyncIterator[None]]] = {}


async def shared_client(base_url: str) -> openai.AsyncOpenAI:
    """The running loop's client for `base_url`, closed when the loop shuts down."""
    if _ssl_context is None:  # loading the CA bundle takes a while: not on the event loop
        await asyncio.to_thread(tls_context)
    # No await from the look-up to the entry's creation: matches running side by side on one loop would each
    # make a client, and the one dropped from the table would be closed under its user by its keeper's finalizer.
    loop = asyncio.get_running_loop()
    key = (id(loop), base_url)
    entry = _clients.get(key)
    if entry is not None and entry[0]() is loop:
        return entry[1]
    client = open_client(base_url)
    keeper = _keep_until_loop_closes(key, client)
    _clients[key] = (weakref.ref(loop), client, keeper)
    await anext(keeper)
    return client


async def _keep_until_loop_closes(key: tuple[int, str], client: openai.AsyncOpenAI) -> AsyncIterator[None]:
    # An async generator the loop finalizes in shutdown_asyncgens (asyncio.run, async_to_sync):
    # the one hook a loop offers for closing what was opened on it.
    try:
        yield
    finally:
        if (entry := _clients.get(key)) is not None and entry[1] is client:
            del _clients[key]
        await client.close()


def _scrub(text: str, secret: str | None) -> str:
    """Never let a key reach a message, even if a server echoes it back."""
    return text.replace(secret, "[redacted]") if secret else text


def _retry_after(headers: Any) -> float | None:
    value = headers.get("retry-after-ms") if headers is not None else None
    if value is not None:
        try:
            return float(value) / 1000
        except ValueError:
            pass
    value = headers.get("retry-after") if headers is not None else None
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            seconds = parsedate_to_datetime(value).timestamp() - time.time()
        except (TypeError, ValueError):
            return None
    return max(0.0, seconds) if math.isfinite(seconds) else None


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):  # content parts: [{"type": "text", "text": "…"}]
        return "".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in value)
    return "" if value is None else str(value)


def _count(value: Any) -> int:
    try:
        return max(0, int(value or 0))
    except (TypeError, ValueError):
        return 0


def read_reply(body: bytes, latency_ms: int) -> Completion:
    """Turn a 200 response body into a Completion; a body that is not a chat completion is an api_error."""
    try:
        data = json.loads(body)
        choice = data["choices"][0]
        message = choice.get("message") or {}
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        preview = body[:200].decode("utf-8", "replace")
        return Completion(
            ok=False,
            verdict="api_error",
            message=f"The server's reply is not a chat completion: {preview!r}",
            transient=True,
            latency_ms=latency_ms,
        )
    content = _text(message.get("content"))
    reasoning = _text(message.get("reasoning_content") or message.get("reasoning"))
    content, thought = split_reasoning(content)
    choices = []
    for other in data["choices"]:
        text = _text((other.get("message") or {}).get("content")) if isinstance(other, dict) else ""
        choices.append(split_reasoning(text)[0])
    usage = data.get("usage") or {}
    details = usage.get("completion_tokens_details") or {}
    return Completion(
        ok=True,
        content=content,
        reasoning="\n\n".join(part for part in (reasoning, thought) if part),
        finish_reason=str(choice.get("finish_reason") or ""),
        prompt_tokens=_count(usage.get("prompt_tokens")),
        completion_tokens=_count(usage.get("completion_tokens")),
        reasoning_tokens=_count(details.get("reasoning_tokens") if isinstance(details, dict) else 0),
        model=str(data.get("model") or ""),
        latency_ms=latency_ms,
        choices=choices,
        top_logprobs=_first_token_logprobs(choice.get("logprobs")),
    )


def _first_token_logprobs(logprobs: Any) -> list[tuple[str, float]] | None:
    """The first content token's `top_logprobs` (OpenAI's chat format, which llama.cpp and vLLM follow)."""
    try:
        first = logprobs["content"][0]
        alternatives = first.get("top_logprobs") or [first]
        found = [(str(a["token"]), float(a["logprob"])) for a in alternatives]
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return None
    return [(token, value) for token, value in found if math.isfinite(value)] or None


async def complete(
    client: openai.AsyncOpenAI,
    request: dict[str, Any],
    *,
    limiter: ProviderLimiter,
    timeout_s: float,
    api_key: str | None,
) -> Completion:
    """POST `request` (a chat-completion body) within `timeout_s`; every failure becomes a Completion."""
    import openai  # loaded already by `open_client`, which made `client`

    options: dict[str, Any] = {"timeout": timeout_s}
    if api_key:
        options["headers"] = {"Authorization": f"Bearer {api_key}"}
    async with limiter:
        started = time.perf_counter()

        def elapsed() -> int:
            return round((time.perf_counter() - started) * 1000)

        try:
            async with asyncio.timeout(timeout_s):
                # The SDK's generic post: its base URL, auth, timeout and error types, and the raw
                # body back, so odd replies (extra fields, broken JSON) are ours to judge.
                response = await client.post(
                    "/chat/completions", cast_to=httpx2.Response, body=request, options=options
                )
                body = await response.aread()
        except (TimeoutError, openai.APITimeoutError):
            return Completion(
                ok=False,
                verdict="timeout",
                message=f"No reply within {timeout_s:g} s.",
                transient=True,
                latency_ms=elapsed(),
            )
        except openai.APIStatusError as error:
            status = error.status_code
            detail = _scrub(str(error.message)[:500], api_key)
            return Completion(
                ok=False,
                verdict="api_error",
                message=f"HTTP {status}: {detail}",
                transient=status in TRANSIENT_STATUS,
                retry_after_s=_retry_after(error.response.headers),
                rate_limited=status == 429,
                latency_ms=elapsed(),
            )
        except (openai.APIConnectionError, httpx2.HTTPError, OSError) as error:
            cause = error.__cause__ or error
            return Completion(
                ok=False,
                verdict="api_error",
                message=_scrub(f"Connection failed: {type(cause).__name__}: {cause}"[:500], api_key),
                transient=True,
                latency_ms=elapsed(),
            )
        except Exception as error:  # the SDK must never take a match down
            return Completion(
                ok=False,
                verdict="api_error",
                message=_scrub(f"Client error: {type(error).__name__}: {error}"[:500], api_key),
                transient=True,
                latency_ms=elapsed(),
            )
        return read_reply(body, elapsed())
