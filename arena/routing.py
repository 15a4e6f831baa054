"""Websocket routes."""

from __future__ import annotations

websocket_urlpatterns: list = []
