"""A remote agent over HTTP: Arena POSTs the seat's view, legal moves and history; the agent answers a move.

Config: `url`; the signing secret from `secret_env` (the environment variable holding it, set by an
operator; read at call time, never stored) or from `secret_id` (the secret is derived from it and Arena's
SECRET_KEY, so only the id is stored; it is shown once when the agent is made), `timeout_s` (per request,
default 30: connecting, sending and the whole answer, not per read), `retries` (re-asks after an invalid
answer, default 1), `provider_retries` (re-sends after a 5xx, 429 or connection failure, default 2). One
decision has one total deadline, `timeout_s` × tries × sends (at most MAX_DECISION_S), which every request
and every wait between them counts against; the answer is read in chunks and no further than
MAX_ANSWER_BYTES (`arena.agents.outside_io`). The body is signed: header `X-Arena-Signature:
sha256=<hex HMAC-SHA256 of the raw body>`.
`public_only` (set on every agent not registered by an operator) refuses URLs whose host resolves to a
loopback, private, link-local or reserved address, or to an IPv6 address standing for such an IPv4 one
(NAT64, IPv4-mapped, 6to4, Teredo), so the API cannot be used to reach Arena's own network.
Each request of such an agent resolves the host once, checks every address, and connects to the checked
address (`PinnedTransport`; the Host header and TLS name stay the URL's), so a resolver that answers a
public address to the check and a private one to the connection (DNS rebinding) gains nothing.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import ipaddress
import json
import os
import socket
import time
from typing import Any

import httpx2 as httpx
from django.utils.crypto import salted_hmac

from arena.agents.base import AgentConfigError, AttemptData, DecisionResult
from arena.agents.history import MatchMoves
from arena.agents.outside_io import Capped, Deadline, read_capped
from games import Game, IllegalAction
from games.base import to_jsonable

DEFAULTS = {"timeout_s": 30.0, "retries": 1, "provider_retries": 2}
#: Longest wait for one answer, and for one decision's every request (timeout_s × tries × sends): a silent
#: endpoint holds a worker's match no longer than this. Checked when a config is saved (arena/agents/outside.py);
#: a request never waits longer than MAX_TIMEOUT_S whatever an older config says.
MAX_TIMEOUT_S = 60.0
MAX_DECISION_S = 300.0
SIGNATURE_HEADER = "X-Arena-Signature"
#: Longest answer body read (in chunks, while it arrives); more is over budget and is not read.
MAX_ANSWER_BYTES = 100_000
BACKOFF_S = (0.5, 2.0, 5.0)
#: A compressed answer (Arena asks for none): not decompressed, since a small body may unpack without bound.
ENCODED = Capped(b"", over=False)
ENCODED_MESSAGE = "Answer uncompressed (Content-Encoding: identity); Arena does not unpack answers."


class PrivateAddressError(httpx.ConnectError):
    """The agent's host resolved to an address an agent registered through the API may not reach."""


async def resolve(host: str, port: int) -> list[str]:
    """The addresses `host` resolves to (the system's resolver; tests put a rebinding one in its place)."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [sockaddr[0] for *_, sockaddr in infos]


class PinnedTransport(httpx.AsyncHTTPTransport):
    """Connects each request to the address its host resolved to when it was checked, never to a re-resolution."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        host = request.url.host
        try:
            addresses = await resolve(host, request.url.port or (443 if request.url.scheme == "https" else 80))
        except (OSError, UnicodeError):
            raise PrivateAddressError(f"Cannot resolve {host!r}.", request=request) from None
        for address in addresses:
            if not public_address(address):
                message = f"{host} resolves to {address}, which agents registered through the API may not reach."
                raise PrivateAddressError(message, request=request)
        if not addresses:
            raise PrivateAddressError(f"Cannot resolve {host!r}.", request=request)
        # The Host header was set from the URL's name already; TLS checks the certificate against it too.
        request.url = request.url.copy_with(host=addresses[0])
        request.extensions = {**request.extensions, "sni_hostname": host}
        return await super().handle_async_request(request)


#: IPv6 prefixes that reach IPv4 through a translator (NAT64: the well-known and the local-use prefix) or
#: that the system reads as IPv4 (IPv4-compatible): refused whatever IPv4 address they carry.
TRANSLATED = tuple(ipaddress.ip_network(prefix) for prefix in ("64:ff9b::/96", "64:ff9b:1::/48", "::/96"))


def public_address(address: str) -> bool:
    """Whether an agent registered through the API may reach `address`: a global one, and an IPv6 address
    that embeds an IPv4 one (IPv4-mapped, 6to4, Teredo) only when that IPv4 address is global too."""
    ip = ipaddress.ip_address(address.split("%")[0])
    if ip.version == 4:
        return ip.is_global
    if any(ip in prefix for prefix in TRANSLATED):
        return False
    embedded = [ip.ipv4_mapped, ip.sixtofour, *(ip.teredo or ())]
    return ip.is_global and all(inner.is_global for inner in embedded if inner is not None)


def sign(secret: str, body: bytes) -> str:
    """The signature header value for `body`: what an agent recomputes to check the request is Arena's."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def derived_secret(secret_id: str) -> str:
    """The signing secret of an agent whose config holds `secret_id`: Arena's SECRET_KEY keyed by the id."""
    return salted_hmac("arena.agents.remote.signing", secret_id, algorithm="sha256").hexdigest()


class RemoteAgent:
    """A seat played by an HTTP endpoint; every request and answer is an attempt."""

    def __init__(self, config: dict[str, Any], *, match_id: int | None = None) -> None:
        if not str(config.get("url", "")).startswith(("http://", "https://")):
            raise AgentConfigError("A remote agent needs 'url' (http:// or https://) in its config.")
        self.config = {**DEFAULTS, **{k: v for k, v in config.items() if v is not None}}
        self.match_id = match_id
        self.history = MatchMoves(match_id)

    async def decide(self, game: Game, state: Any, seat: int, match_seed: int) -> DecisionResult:
        """Ask the agent until it names a legal move or runs out of tries; `action=None` means out of tries."""
        started = time.perf_counter()
        secret_env = self.config.get("secret_env") or ""
        secret = os.environ.get(secret_env, "") if secret_env else ""
        if self.config.get("secret_id"):
            secret = derived_secret(self.config["secret_id"])
        elif secret_env and not secret:
            missing = AttemptData(verdict="api_error", message=f"Environment variable {secret_env} is not set.")
            return DecisionResult(action=None, attempts=[missing])
        moves = await self.history.read(game, seat)
        payload = {
            "match": self.match_id,
            "game": game.slug,
            "seat": seat,
            "ply": state.ply,
            "observation": to_jsonable(game.player_view(state, seat)),
            "observation_text": game.observation_text(state, seat),
            "legal_actions": [game.action_to_text(state, action) for action in game.legal_actions(state)],
            "history": [{"seat": m.who, "ply": m.ply, "action": m.text} for m in moves],
            "feedback": None,
        }
        attempts: list[AttemptData] = []
        transport = PinnedTransport() if self.config.get("public_only") else None
        deadline = Deadline(decision_seconds(self.config))
        async with httpx.AsyncClient(timeout=None, transport=transport) as client:  # the deadline bounds every wait
            for _ in range(int(self.config["retries"]) + 1):
                attempt = await self._ask(client, payload, secret, game, state, deadline)
                attempts.extend(attempt)
                last = attempt[-1]
                if last.transient or last.verdict not in ("unparseable", "illegal", "ok"):
                    break
                if last.verdict == "ok":
                    action = game.parse_action(state, last.parsed_action)
                    return DecisionResult(action=action, attempts=attempts, elapsed_ms=_ms_since(started))
                payload["feedback"] = last.message
                if not deadline.left():
                    break
        return DecisionResult(action=None, attempts=attempts, elapsed_ms=_ms_since(started))

    async def _ask(
        self,
        client: httpx.AsyncClient,
        payload: dict[str, Any],
        secret: str,
        game: Game,
        state: Any,
        deadline: Deadline,
    ) -> list[AttemptData]:
        """One question, re-sent after transient failures while the decision has time; the last attempt is judged."""
        body = json.dumps(payload).encode()
        headers = {"Content-Type": "application/json", "Accept-Encoding": "identity"}
        if secret:
            headers[SIGNATURE_HEADER] = sign(secret, body)
        records: list[AttemptData] = []
        for failures in range(int(self.config["provider_retries"]) + 1):
            attempt = await self._post(client, body, headers, game, state, deadline)
            records.append(attempt)
            if not attempt.transient or failures == int(self.config["provider_retries"]):
                break
            await asyncio.sleep(min(BACKOFF_S[min(failures, len(BACKOFF_S) - 1)], deadline.left()))
            if not deadline.left():
                break
        for attempt in records:
            attempt.messages = [{"role": "request", "content": body.decode()}]
        return records

    async def _post(
        self,
        client: httpx.AsyncClient,
        body: bytes,
        headers: dict[str, str],
        game: Game,
        state: Any,
        deadline: Deadline,
    ) -> AttemptData:
        """One request under the decision's deadline (and at most `timeout_s`), its answer read up to the cap."""
        started = time.perf_counter()
        timeout_s = min(float(self.config["timeout_s"]), MAX_TIMEOUT_S, deadline.left())
        try:
            async with (
                deadline.within(timeout_s),
                client.stream("POST", self.config["url"], content=body, headers=headers) as response,
            ):
                status, answer = response.status_code, await _answer(response)
        except PrivateAddressError as error:
            return AttemptData(verdict="api_error", latency_ms=_ms_since(started), message=str(error))
        except (TimeoutError, httpx.TimeoutException):
            return AttemptData(
                verdict="timeout", transient=True, latency_ms=_ms_since(started),
                message=f"No whole answer within {timeout_s:g} s.",
            )  # fmt: skip
        except httpx.HTTPError as error:
            return AttemptData(
                verdict="api_error", transient=True, latency_ms=_ms_since(started), message=f"{type(error).__name__}"
            )
        text = answer.data.decode(errors="replace")
        attempt = AttemptData(verdict="ok", raw_text=text, latency_ms=_ms_since(started))
        if status == 429 or status >= 500:
            attempt.verdict, attempt.transient = "api_error", True
            attempt.message = f"HTTP {status}"
        elif status != 200:
            attempt.verdict, attempt.message = "api_error", f"HTTP {status}"
        elif answer.over:
            attempt.verdict, attempt.message = "over_budget", f"The answer was over {MAX_ANSWER_BYTES} bytes."
        elif answer is ENCODED:
            attempt.verdict, attempt.message = "api_error", ENCODED_MESSAGE
        else:
            _judge(attempt, text, game, state)
        return attempt


def decision_seconds(config: dict[str, Any]) -> float:
    """One decision's total deadline: every request, re-send and re-ask of it, the waits between included."""
    merged = {**DEFAULTS, **config}
    tries, sends = int(merged["retries"]) + 1, int(merged["provider_retries"]) + 1
    return min(min(float(merged["timeout_s"]), MAX_TIMEOUT_S) * tries * sends, MAX_DECISION_S)


async def _answer(response: httpx.Response) -> Capped:
    """The answer's body, read in chunks up to MAX_ANSWER_BYTES: one declared larger is not read at all."""
    if response.headers.get("content-encoding", "identity").lower() != "identity":
        return ENCODED
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_ANSWER_BYTES:
        return Capped(b"", over=True)
    return await read_capped(response.aiter_raw(), MAX_ANSWER_BYTES)


def _judge(attempt: AttemptData, text: str, game: Game, state: Any) -> None:
    """Set the attempt's verdict from the answer: unparseable, illegal or ok."""
    try:
        answer = json.loads(text)
    except json.JSONDecodeError:
        answer = None
    if not isinstance(answer, dict) or not isinstance(answer.get("action"), str):
        attempt.verdict, attempt.message = "unparseable", 'Answer with JSON: {"action": "<move>", "reasoning": "…"}.'
        return
    attempt.reasoning_text = str(answer.get("reasoning") or "")[:MAX_ANSWER_BYTES]
    attempt.parsed_action = answer["action"]
    try:
        action = game.parse_action(state, attempt.parsed_action)
    except IllegalAction as error:
        attempt.verdict, attempt.message = "illegal", str(error)
        return
    if not game.is_legal(state, action):
        attempt.verdict, attempt.message = "illegal", f"{attempt.parsed_action} is not legal here."


def _ms_since(started: float) -> int:
    return round((time.perf_counter() - started) * 1000)
