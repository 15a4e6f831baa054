"""HTTP views. Reads go through selectors, writes through services."""

from __future__ import annotations

import asyncio

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from arena.rendering import board_html
from games import UnknownGame, all_games, get_game
from games.bots import UnknownBot, ladder


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "arena/home.html", {"games": all_games()})


def _database_status() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


async def _channel_layer_status() -> str:
    layer = get_channel_layer()
    channel = await layer.new_channel("healthz")
    await layer.send(channel, {"type": "healthz.ping"})
    message = await asyncio.wait_for(layer.receive(channel), timeout=2)
    return "ok" if message.get("type") == "healthz.ping" else "unexpected reply"


async def healthz(request: HttpRequest) -> JsonResponse:
    """Database and channel-layer status: 200 when both answer, 503 otherwise."""
    checks = {}
    for name, check in (("database", sync_to_async(_database_status)), ("channel_layer", _channel_layer_status)):
        try:
            checks[name] = await check()
        except Exception as error:  # any failure is a health result, not a crash
            checks[name] = f"error: {type(error).__name__}: {error}"
    healthy = all(value == "ok" for value in checks.values())
    return JsonResponse({"status": "ok" if healthy else "degraded", **checks}, status=200 if healthy else 503)


def game_list(request: HttpRequest) -> HttpResponse:
    return render(request, "arena/game_list.html", {"games": all_games()})


def game_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """Rules, the starting position and the bot ladder of one game."""
    try:
        game = get_game(slug)
    except UnknownGame:
        raise Http404(f"No game called {slug!r}.") from None
    try:
        bots = ladder(slug)
    except UnknownBot:
        bots = []
    state = game.initial_state(seed=0)
    return render(
        request,
        "arena/game_detail.html",
        {"game": game, "board": board_html(game, state, None), "bots": bots},
    )
