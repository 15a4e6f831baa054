"""ASGI entry point: HTTP through Django, websockets through Channels."""

from __future__ import annotations

import os
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")

from arena.config import ConfigError, from_env

try:
    from_env()
except ConfigError as error:
    sys.exit(f"arena: configuration error: {error}")

from django.core.asgi import get_asgi_application

django_asgi_app = get_asgi_application()

import pprint  # noqa: E402

import txaio  # noqa: E402
from autobahn.websocket import protocol as autobahn_protocol  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from arena.play.ws_auth import viewer_middleware_stack  # noqa: E402
from arena.play.ws_origin import SameOriginValidator  # noqa: E402
from arena.routing import websocket_urlpatterns  # noqa: E402


def _pformat_when_debugging(obj: object, *args: object, **kwargs: object) -> str:
    """autobahn pretty-prints its 29 settings on every websocket connection, for a debug line its logger then drops
    (about 0.5 ms, a twentieth of daphne's CPU per watcher's connect): formatted only when that line is kept."""
    if txaio.get_global_log_level() in ("debug", "trace"):
        return pprint.pformat(obj, *args, **kwargs)
    return "(not formatted: autobahn's log level is above debug)"


autobahn_protocol.pformat = _pformat_when_debugging

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(viewer_middleware_stack(URLRouter(websocket_urlpatterns))),
    }
)
