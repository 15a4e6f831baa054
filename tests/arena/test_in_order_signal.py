"""`match_updated`'s async receivers run one after another in the sender's task, in the order connected."""

from __future__ import annotations

import asyncio

from arena.record.signals import InOrderSignal


async def test_async_receivers_run_in_order_in_the_senders_task():
    signal = InOrderSignal()
    heard = []

    async def first(sender, **named):
        await asyncio.sleep(0.01)  # were they side by side, the second would be heard first
        heard.append(("first", named["match"], asyncio.current_task()))
        return 1

    async def second(sender, **named):
        heard.append(("second", named["match"], asyncio.current_task()))
        return 2

    signal.connect(first, weak=False)
    signal.connect(second, weak=False)
    responses = await signal.asend(sender=object, match=7)
    assert [name for name, _match, _task in heard] == ["first", "second"]
    assert {task for _name, _match, task in heard} == {asyncio.current_task()}
    assert [(receiver, response) for receiver, response in responses] == [(first, 1), (second, 2)]


async def test_with_a_sync_receiver_every_receiver_still_hears_it():
    signal = InOrderSignal()
    heard = []
    signal.connect(lambda sender, **named: heard.append("sync") or "s", weak=False)

    async def later(sender, **named):
        heard.append("async")
        return "a"

    signal.connect(later, weak=False)
    responses = await signal.asend(sender=object)
    assert heard == ["sync", "async"]
    assert [response for _receiver, response in responses] == ["s", "a"]


async def test_no_receivers_no_responses():
    assert await InOrderSignal().asend(sender=object) == []
