"""The websocket test client, with the waits a loaded two-core machine needs.

Channels' communicator gives an answer one second by default; a socket's connect reads the session
and the match, which under a full test run can take longer. Waits that expect nothing keep their own
short timeouts."""

# ruff: noqa: ASYNC109 (the parameters keep the names of the methods they override)

from __future__ import annotations

from channels.testing import WebsocketCommunicator

WAIT_S = 10.0


class Socket(WebsocketCommunicator):
    async def connect(self, timeout: float = WAIT_S):
        return await super().connect(timeout)

    async def receive_from(self, timeout: float = WAIT_S):
        return await super().receive_from(timeout)

    async def receive_json_from(self, timeout: float = WAIT_S):
        return await super().receive_json_from(timeout)

    async def disconnect(self, code: int = 1000, timeout: float = WAIT_S):
        return await super().disconnect(code, timeout)
