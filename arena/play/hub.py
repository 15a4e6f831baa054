"""One subscription per process: how match pages hear that their match changed.

A page registers its inbox with this process's hub instead of holding a channel of its own in the channel
layer. The hub holds ONE channel and joins a match's group once, when the first local page of that match
registers, and leaves it when the last one goes; with Redis that is one SUBSCRIBE per watched match and
process, not two per socket. An update this process broadcasts (a person's move, the runner's reply) reaches
the local pages at once, without the round trip through Redis, and is still published for the other
processes, tagged with this hub's id so that the hub ignores it when it comes back.

A hub belongs to one event loop (channels_redis's layer does too): daphne runs one, a test or a worker's
match may run others. Events are only ids and how far the match got (`match.updated`), never state.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
import weakref
from typing import Any

from channels.layers import get_channel_layer

#: A page's inbox: the hub puts each update for the page's match there, in the order heard.
Inbox = asyncio.Queue


def match_group(match_id: int) -> str:
    return f"match-{match_id}"


class MatchHub:
    """This event loop's pages by match, and its one channel in the channel layer."""

    def __init__(self) -> None:
        self.layer = get_channel_layer()
        self.origin = uuid.uuid4().hex
        self.pages: dict[int, set[Inbox]] = {}
        #: A match's group join, once per match while it has pages; every page awaits it before it reads.
        self.joins: dict[int, asyncio.Future] = {}
        self.channel: str | None = None
        self.opening: asyncio.Future | None = None  # while the channel is being made

    async def join(self, match_id: int, inbox: Inbox) -> None:
        """Register a page of `match_id`; returns once updates published anywhere reach `inbox`."""
        self.pages.setdefault(match_id, set()).add(inbox)
        joined = self.joins.get(match_id)
        if joined is None or _failed(joined):
            joined = self.joins[match_id] = asyncio.ensure_future(self._subscribe(match_id))
        await asyncio.shield(joined)  # one page closing mid-join does not cancel the others' join

    async def leave(self, match_id: int, inbox: Inbox) -> None:
        """Unregister a page; the match's group is left when its last local page goes."""
        pages = self.pages.get(match_id)
        if pages is None or inbox not in pages:
            return
        pages.discard(inbox)
        if pages:
            return
        del self.pages[match_id]
        joined = self.joins.pop(match_id, None)
        if joined is None:
            return
        with contextlib.suppress(Exception):
            await asyncio.shield(joined)
        if not _failed(joined) and match_id not in self.pages:  # nobody came back while the join finished
            await self.layer.group_discard(match_group(match_id), self.channel)

    async def publish(self, event: dict[str, Any]) -> None:
        """Deliver `event` to this loop's pages of its match now, and publish it for every other process."""
        self.deliver(event)
        await self.layer.group_send(match_group(event["match_id"]), {**event, "origin": self.origin})

    def deliver(self, event: dict[str, Any]) -> None:
        for inbox in self.pages.get(event["match_id"], ()):
            inbox.put_nowait(event)

    def registrations(self) -> int:
        """Pages registered here, over every match."""
        return sum(len(pages) for pages in self.pages.values())

    async def _subscribe(self, match_id: int) -> None:
        if self.channel is None:
            if self.opening is None or _failed(self.opening):
                self.opening = asyncio.ensure_future(self._open_channel())
            await asyncio.shield(self.opening)
        await self.layer.group_add(match_group(match_id), self.channel)

    async def _open_channel(self) -> None:
        """The hub's one channel, kept for the loop's lifetime, and the task that hands its events out."""
        channel = await self.layer.new_channel()
        listening = asyncio.ensure_future(self._listen(channel))
        _listening.add(listening)  # kept here, not on the hub: a hub must not keep its loop alive (_hubs)
        listening.add_done_callback(_listening.discard)
        self.channel, self.opening = channel, None

    async def _listen(self, channel: str) -> None:
        while True:
            event = await self.layer.receive(channel)
            if event.get("origin") != self.origin:
                self.deliver(event)


def _failed(future: asyncio.Future) -> bool:
    return future.done() and (future.cancelled() or future.exception() is not None)


#: Each event loop's hub, forgotten with its loop (a test's, a worker's match's).
_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, MatchHub] = weakref.WeakKeyDictionary()
#: The hubs' listening tasks, until their loop ends them.
_listening: set[asyncio.Task] = set()


def local_hub() -> MatchHub:
    """The running event loop's hub, made when first asked for."""
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None:
        hub = _hubs[loop] = MatchHub()
    return hub
