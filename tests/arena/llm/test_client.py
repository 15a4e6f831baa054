"""The provider limiter and the per-loop client: shared across loops and threads, released on cancel."""

from __future__ import annotations

import asyncio
import json
import ssl
import threading

from arena.agents.llm import client as llm_client
from arena.agents.llm.client import ProviderLimiter, read_reply
from tests.arena.llm.scripted_server import Reply, ScriptedServer, slow


async def test_a_cancelled_waiter_does_not_lose_the_slot():
    limiter = ProviderLimiter(1)
    holder_in, holder_out = asyncio.Event(), asyncio.Event()

    async def hold():
        async with limiter:
            holder_in.set()
            await holder_out.wait()

    holding = asyncio.create_task(hold())
    await holder_in.wait()
    waiting = asyncio.create_task(limiter.__aenter__())
    await asyncio.sleep(0)
    waiting.cancel()
    holder_out.set()
    await holding
    async with asyncio.timeout(2):
        async with limiter:
            assert limiter.active == 1
    assert limiter.active == 0


def test_the_limit_holds_across_event_loops_in_threads():
    limiter = ProviderLimiter(2)
    seen = []
    lock = threading.Lock()

    async def use():
        for _ in range(20):
            async with limiter:
                with lock:
                    seen.append(limiter.active)
                await asyncio.sleep(0.001)

    threads = [threading.Thread(target=asyncio.run, args=(use(),)) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(seen) == 80
    assert max(seen) <= 2
    assert limiter.active == 0


def test_each_loop_gets_its_own_client_closed_with_the_loop():
    async def get():
        first = await llm_client.shared_client("http://127.0.0.1:9/v1")
        assert await llm_client.shared_client("http://127.0.0.1:9/v1") is first
        return first

    one, two = asyncio.run(get()), asyncio.run(get())
    assert one is not two
    assert one.is_closed()
    assert two.is_closed()
    assert not any(url == "http://127.0.0.1:9/v1" for _, url in llm_client._clients)


def test_matches_side_by_side_on_one_loop_share_one_open_client(monkeypatch):
    """The first calls of matches running together on one loop (an evaluation's slots) ask for the client at
    once, the TLS context still to be made: all get the same client, and it stays open for them."""
    monkeypatch.setattr(llm_client, "_ssl_context", None)

    async def together():
        clients = await asyncio.gather(*(llm_client.shared_client("http://127.0.0.1:9/v1") for _ in range(8)))
        await asyncio.sleep(0)
        import gc

        gc.collect()  # a dropped keeper would be finalized here, closing its client
        await asyncio.sleep(0)
        return clients

    clients = asyncio.run(together())
    assert len({id(client) for client in clients}) == 1
    assert clients[0].is_closed()  # with its loop, at the end of asyncio.run


def test_matches_asking_together_load_the_ca_bundle_once(monkeypatch):
    """A worker's runners start their matches together: the TLS context (tens of milliseconds of CPU to load the CA
    bundle) is made once for all of them, not once each."""
    monkeypatch.setattr(llm_client, "_ssl_context", None)
    made = []
    create = ssl.create_default_context
    monkeypatch.setattr(ssl, "create_default_context", lambda: made.append(1) or create())

    async def together():
        await asyncio.gather(*(llm_client.shared_client("http://127.0.0.1:9/v1") for _ in range(16)))

    asyncio.run(together())
    assert len(made) == 1


def test_a_shared_client_is_not_closed_while_its_loop_runs(monkeypatch):
    monkeypatch.setattr(llm_client, "_ssl_context", None)

    async def together():
        clients = await asyncio.gather(*(llm_client.shared_client("http://127.0.0.1:9/v1") for _ in range(8)))
        import gc

        gc.collect()
        await asyncio.sleep(0.01)
        return [client.is_closed() for client in clients]

    assert asyncio.run(together()) == [False] * 8


def test_replies_that_are_not_chat_completions_are_transient_api_errors():
    for body in (b"", b"<html>Bad gateway</html>", b'{"choices": []}', b'{"choices": [null]}', b"[1, 2]"):
        completion = read_reply(body, latency_ms=3)
        assert (completion.ok, completion.verdict, completion.transient) == (False, "api_error", True), body
    odd = read_reply(b'{"choices": [{"message": {"content": [{"type": "text", "text": "Answer: b2"}]}}]}', 1)
    assert (odd.ok, odd.content, odd.prompt_tokens, odd.model) == (True, "Answer: b2", 0, "")


def test_the_first_tokens_log_probabilities_and_every_choice_are_read():
    body = Reply(content="Yes", top_logprobs=[("Yes", -0.25), (" no", -1.5)], more=["no", "yes"]).body()
    completion = read_reply(body, latency_ms=1)
    assert completion.top_logprobs == [("Yes", -0.25), (" no", -1.5)]
    assert completion.choices == ["Yes", "no", "yes"]
    plain = read_reply(Reply(content="Yes").body(), latency_ms=1)  # a server that sends `"logprobs": null`
    assert (plain.top_logprobs, plain.choices) == (None, ["Yes"])


async def test_a_connection_the_server_closed_while_idle_is_not_sent_on_again():
    """The pool asks each idle connection whether the server is closing it (`PolledStream`): one the server closed
    after its reply is dropped, and the next call goes out on a fresh connection instead of failing."""
    reply = json.dumps({"choices": [{"message": {"content": "Answer: a1"}, "finish_reason": "stop"}]}).encode()
    accepted = []

    async def answer_once_then_close(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.append(writer)
        head = await reader.readuntil(b"\r\n\r\n")
        length = next(
            int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")
        )
        await reader.readexactly(length)
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(reply), reply)
        )
        await writer.drain()
        writer.close()  # keep-alive was offered; the server closes the connection anyway, as an idle timeout would

    server = await asyncio.start_server(answer_once_then_close, "127.0.0.1", 0)
    base_url = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/v1"
    client = llm_client.open_client(base_url)
    limiter = ProviderLimiter(4)
    try:
        for _ in range(2):
            completion = await llm_client.complete(
                client, {"model": "m", "messages": []}, limiter=limiter, timeout_s=5, api_key=None
            )
            assert completion.ok, completion.message
            assert completion.content == "Answer: a1"
            await asyncio.sleep(0.05)  # the server's close reaches the idle connection
    finally:
        await client.close()
        server.close()
    assert len(accepted) == 2


async def test_a_polled_stream_is_readable_once_the_server_closes_it():
    closed = asyncio.Event()

    async def close_at_once(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.close()
        closed.set()

    server = await asyncio.start_server(close_at_once, "127.0.0.1", 0)
    stream = await llm_client.PolledBackend().connect_tcp("127.0.0.1", server.sockets[0].getsockname()[1])
    try:
        await closed.wait()
        await asyncio.sleep(0.05)
        assert stream.get_extra_info("is_readable")
        assert stream.get_extra_info("socket") is stream.socket
    finally:
        await stream.aclose()
        server.close()
    assert stream.get_extra_info("is_readable")  # a closed socket: the pool drops it


async def _call(client) -> llm_client.Completion:
    return await llm_client.complete(
        client, {"model": "m", "messages": []}, limiter=ProviderLimiter(64), timeout_s=5, api_key=None
    )


def _pools(client) -> list[int]:
    """Connections open in each of the client's pools."""
    return [len(transport._pool.connections) for transport in client._client._transport.transports]


async def test_calls_one_at_a_time_keep_to_the_first_pool():
    with ScriptedServer(lambda body: Reply()) as server:
        client = llm_client.open_client(server.base_url)
        try:
            for _ in range(3):
                assert (await _call(client)).ok
            assert _pools(client) == [1] + [0] * (llm_client.POOLS - 1)  # one connection, reused
            assert client._client._transport.in_flight == [0] * llm_client.POOLS
        finally:
            await client.close()


async def test_calls_at_once_spread_over_the_pools_and_each_is_released():
    with ScriptedServer(lambda body: slow(0.1)) as server:
        client = llm_client.open_client(server.base_url)
        try:
            replies = await asyncio.gather(*(_call(client) for _ in range(2 * llm_client.POOLS)))
            assert all(reply.ok for reply in replies)
            assert _pools(client) == [2] * llm_client.POOLS
            assert client._client._transport.in_flight == [0] * llm_client.POOLS
        finally:
            await client.close()


async def test_a_call_that_fails_releases_its_pool():
    client = llm_client.open_client("http://127.0.0.1:9/v1")  # nothing listens there
    with ScriptedServer(lambda body: Reply(status=500, raw_body=b'{"error": {"message": "down"}}')) as server:
        failing = llm_client.open_client(server.base_url)
        try:
            assert (await _call(client)).verdict == "api_error"
            assert (await _call(failing)).message.startswith("HTTP 500")
            assert client._client._transport.in_flight == [0] * llm_client.POOLS
            assert failing._client._transport.in_flight == [0] * llm_client.POOLS
        finally:
            await client.close()
            await failing.close()
