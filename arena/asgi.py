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

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from arena.play.ws_auth import viewer_middleware_stack  # noqa: E402
from arena.play.ws_origin import SameOriginValidator  # noqa: E402
from arena.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(viewer_middleware_stack(URLRouter(websocket_urlpatterns))),
    }
)
