"""The peer for bench/ws_play.py: the same websocket protocol on the same daphne, with no Django work.

It answers like the match consumer (a fragment with the legal moves on connect; after a move, the
person's move shown, then the bot's reply) from a fixed fragment of the same size as a connect-four
live panel, so ws_play measures what daphne, the websocket and JSON cost on their own: the floor
that Arena's moves are compared with. Served by `daphne bench.ws_floor_asgi:application`.
"""

from __future__ import annotations

import json

#: About the size of a connect-four live panel (board SVG, players, move list).
PADDING = "x" * 9000
LEGAL = json.dumps([{"text": column, "cells": [column]} for column in "abcdefg"])


def fragment(ply: int, your_move: bool) -> str:
    status = "<strong>Your move.</strong>" if your_move else "Lv0 is thinking…"
    html = (
        f'<div data-ply="{ply}">{status}<script id="match-1-legal" type="application/json">{LEGAL}</script>'
        f"<!-- {PADDING} --></div>"
    )
    return json.dumps({"type": "fragment", "ply": ply, "html": html})


async def application(scope, receive, send) -> None:
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    if scope["type"] == "http":  # the health check the bench waits for
        await receive()
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b"ok"})
        return
    while True:
        event = await receive()
        if event["type"] == "websocket.connect":
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": fragment(0, True)})
        elif event["type"] == "websocket.receive":
            ply = json.loads(event["text"])["ply"]
            await send({"type": "websocket.send", "text": fragment(ply + 1, False)})
            await send({"type": "websocket.send", "text": fragment(ply + 2, True)})
        else:
            return
