"""Websocket routes."""

from __future__ import annotations

from django.urls import path

from arena.api.bot_socket import BotConsumer
from arena.play.consumers import MatchConsumer

websocket_urlpatterns = [
    path("ws/matches/<int:match_id>/", MatchConsumer.as_asgi()),
    path("ws/bot/", BotConsumer.as_asgi()),
]
