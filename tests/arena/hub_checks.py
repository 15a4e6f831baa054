"""What a process's hub must do, whichever channel layer carries it (in memory here, Redis in tests/scaleout).

Each check is given `layers`, which makes the channel layer of a new hub (the in-memory one: the same object;
Redis: a connection of its own, as another process has), and builds hubs with it, two of them standing for two
processes. Nothing waits for a time: a page that hears a marker published after an event has heard everything
published before it (one loop here; Redis keeps the order of what one client sends it), so "exactly once" is
asserted exactly.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from arena.play.hub import Inbox, MatchHub, match_group

Layers = Callable[[], object]
#: `subscribers(group, expected)`: how many subscriptions the layer holds for the group (a hub's channel makes one),
#: once it holds `expected` (Redis confirms a subscription after it answers the client that asked for it).
Subscribers = Callable[[str, int], Awaitable[int]]


def hub_on(layers: Layers) -> MatchHub:
    hub = MatchHub()
    hub.layer = layers()
    return hub


def update(match_id: int, ply: int) -> dict:
    return {"type": "match.updated", "match_id": match_id, "ply": ply, "status": "running"}


async def heard_until_marker(inbox: Inbox, marker_ply: int) -> list[int]:
    """The plies an inbox got, up to and including the marker's."""
    plies = []
    while not plies or plies[-1] != marker_ply:
        plies.append((await asyncio.wait_for(inbox.get(), 10))["ply"])
    return plies


async def pages_of_two_processes_hear_each_update_once(layers: Layers, subscribers: Subscribers) -> None:
    first, second, marker = hub_on(layers), hub_on(layers), hub_on(layers)
    here, there, also_here = Inbox(), Inbox(), Inbox()
    await first.join(7, here)
    await first.join(7, also_here)
    await second.join(7, there)
    assert await subscribers(match_group(7), 2) == 2  # three pages, two processes: two subscriptions
    await first.publish(update(7, 1))
    await second.publish(update(7, 2))
    await marker.publish(update(7, 99))
    # Each page hears each update once; a process hears its own at once and the other's when Redis brings it,
    # so 2 may come before 1 (a page shows only newer plies: `shown_key`).
    assert sorted(await heard_until_marker(here, 99)) == [1, 2, 99]
    assert sorted(await heard_until_marker(also_here, 99)) == [1, 2, 99]
    assert sorted(await heard_until_marker(there, 99)) == [1, 2, 99]
    for hub, inbox in ((first, here), (first, also_here), (second, there)):
        await hub.leave(7, inbox)


async def a_local_update_reaches_local_pages_in_the_process(layers: Layers, subscribers: Subscribers) -> None:
    hub, marker = hub_on(layers), hub_on(layers)
    inbox, elsewhere = Inbox(), Inbox()
    await hub.join(3, inbox)
    await hub.join(4, elsewhere)
    await subscribers(match_group(3), 1)
    event = update(3, 5)
    await hub.publish(event)
    assert inbox.get_nowait() is event  # this very dict: handed over in the process (the layer copies or serializes)
    await marker.publish(update(3, 6))
    assert await heard_until_marker(inbox, 6) == [6]  # and its echo from the layer was ignored
    assert elsewhere.empty()  # another match's page heard nothing
    await hub.leave(3, inbox)
    await hub.leave(4, elsewhere)


async def the_group_is_left_when_the_last_page_goes(layers: Layers, subscribers: Subscribers) -> None:
    hub, publisher = hub_on(layers), hub_on(layers)
    pages = [Inbox() for _ in range(5)]
    await asyncio.gather(*(hub.join(11, inbox) for inbox in pages))
    assert hub.registrations() == 5
    assert await subscribers(match_group(11), 1) == 1  # five pages, one subscription
    for inbox in pages[:4]:
        await hub.leave(11, inbox)
    assert hub.registrations() == 1
    assert await subscribers(match_group(11), 1) == 1
    await hub.leave(11, pages[4])
    await hub.leave(11, pages[4])  # twice (closed, then its task ended): no harm
    assert hub.registrations() == 0
    assert hub.pages == {}
    assert hub.joins == {}
    assert await subscribers(match_group(11), 0) == 0
    comeback = Inbox()  # a page of the match arriving later joins the group again
    await hub.join(11, comeback)
    await subscribers(match_group(11), 1)
    await publisher.publish(update(11, 8))
    assert await heard_until_marker(comeback, 8) == [8]
    await hub.leave(11, comeback)
