"""Who opens a websocket: channels' session and auth middleware, without a database trip for a socket
that has no session.

Channels looks up each socket's user on Django's database thread, a trip that queues behind every
game's moves. A socket that sends no session cookie (an anonymous spectator, or a browser that never
signed in or played) has no user, which is known without it.
"""

from __future__ import annotations

from channels.auth import AuthMiddleware
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.contrib.auth.models import AnonymousUser


class SessionlessAuthMiddleware(AuthMiddleware):
    """channels' AuthMiddleware, answering "anonymous" itself when the socket sent no session key."""

    async def resolve_scope(self, scope) -> None:
        if scope["session"].session_key is None:
            scope["user"]._wrapped = AnonymousUser()
            return
        await super().resolve_scope(scope)


def viewer_middleware_stack(application):
    """channels' AuthMiddlewareStack (cookies, session, user), with the user resolved as above."""
    return CookieMiddleware(SessionMiddleware(SessionlessAuthMiddleware(application)))
