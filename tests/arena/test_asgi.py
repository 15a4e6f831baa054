"""What arena.asgi changes in the server it runs under."""

from __future__ import annotations

import pprint

import autobahn.twisted.websocket  # noqa: F401  (chooses txaio's Twisted flavour, as daphne does)
import txaio
from autobahn.websocket import protocol

import arena.asgi  # noqa: F401


def test_autobahn_formats_its_settings_per_connection_only_for_a_debug_log_it_keeps():
    settings = [("openHandshakeTimeout", 20, "WebSocketServerFactory")]
    assert "openHandshakeTimeout" not in protocol.pformat(settings)
    txaio.set_global_log_level("debug")
    try:
        assert protocol.pformat(settings) == pprint.pformat(settings)
    finally:
        txaio.set_global_log_level("info")
