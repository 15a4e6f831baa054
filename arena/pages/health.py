"""The health check load balancers and `make run` poll: database and channel layer."""

from __future__ import annotations

import asyncio
import contextlib

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.http import HttpRequest, JsonResponse

from arena.agents.llm.local import server_status


def _database_status() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


async def _channel_layer_status() -> str:
    layer = get_channel_layer()
    channel = await layer.new_channel("healthz")
    try:
        await layer.send(channel, {"type": "healthz.ping"})
        message = await asyncio.wait_for(layer.receive(channel), timeout=2)
    finally:
        # Redis pub/sub keeps a subscription per channel until a receive on it is cancelled (as
        # Channels does when a consumer leaves): do that, or every health check would leave one.
        leftover = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(0)
        leftover.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await leftover
    return "ok" if message.get("type") == "healthz.ping" else "unexpected reply"


async def healthz(request: HttpRequest) -> JsonResponse:
    """Database and channel-layer status: 200 when both answer, 503 otherwise. The local model server's status
    ("ok", "not running", "restarting: …", "down: …") is reported beside them: the site serves without it."""
    checks = {}
    for name, check in (("database", sync_to_async(_database_status)), ("channel_layer", _channel_layer_status)):
        try:
            checks[name] = await check()
        except Exception as error:  # any failure is a health result, not a crash
            checks[name] = f"error: {type(error).__name__}: {error}"
    healthy = all(value == "ok" for value in checks.values())
    local_models = await sync_to_async(server_status, thread_sensitive=False)()
    body = {"status": "ok" if healthy else "degraded", **checks, "local_models": local_models}
    return JsonResponse(body, status=200 if healthy else 503)
