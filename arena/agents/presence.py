"""Which bot accounts are connected now: each bot websocket marks its person in Django's cache.

The cache is shared by every web process when REDIS_URL is set (one process's memory otherwise, which is
the embedded mode's single daphne). A mark lasts PRESENT_S and a connection renews it every turn lookup.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.cache import cache

#: Seconds a connection counts as present after its last mark (it marks twice a second).
PRESENT_S = 5


def _key(user_id: int) -> str:
    return f"arena:bot-online:{user_id}"


async def bot_presence_mark(user_id: int) -> None:
    """Note that a bot account of `user_id` is connected (for PRESENT_S seconds)."""
    await cache.aset(_key(user_id), True, timeout=PRESENT_S)


async def bot_presence_clear(user_id: int) -> None:
    """Forget the mark when a connection closes (another open connection renews it within half a second)."""
    await cache.adelete(_key(user_id))


def bot_owners_online(user_ids: Iterable[int]) -> set[int]:
    """Those of `user_ids` with a bot websocket connected now."""
    keys = {_key(pk): pk for pk in user_ids}
    return {keys[key] for key in cache.get_many(list(keys))}
