"""Websocket routes."""

from __future__ import annotations

from django.urls import path

from arena.play.consumers import MatchConsumer

websocket_urlpatterns = [path("ws/matches/<int:match_id>/", MatchConsumer.as_asgi())]
