"""An idle worker process reads its queue about once per interval, whatever its number of runners."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from arena.management.commands.worker import QueueWatch, Runner
from arena.runner.tasks import run_match_task

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


class CountedRunner(Runner):
    """A runner that notes each read of the queue."""

    reads: list[str]

    def claim(self):
        self.reads.append(self.slot)
        return super().claim()


def runners(count: int, interval: float) -> list[CountedRunner]:
    queue, reads = QueueWatch(), []
    made = []
    for n in range(count):
        runner = CountedRunner(
            slot=f"w/{n}", queue=queue, queue_names=["matches"], excluded_queue_names=[], interval=interval,
            batch=False, backend_name="default", startup_delay=False, max_tasks=None, worker_id=f"w-{n}",
        )  # fmt: skip
        runner.reads = reads
        made.append(runner)
    return made


async def test_idle_runners_share_one_read_of_the_empty_queue_per_interval():
    first, *others = runners(4, interval=60)
    assert await first.next_task() == (None, True)
    assert [await runner.next_task() for runner in others] == [(None, True)] * 3  # they knew: none of them read it
    assert first.reads == ["w/0"]


async def test_a_queued_task_is_claimed_once_the_empty_read_is_an_interval_old_and_the_others_read_again():
    first, second, third = runners(3, interval=60)
    await first.next_task()
    await sync_to_async(run_match_task.enqueue)(1)
    assert await second.next_task() == (None, True)  # within the interval: a task waits at most that long
    first.queue.empty_at -= 60  # an interval later
    found, read = await second.next_task()
    assert read
    assert found.worker_ids == ["w-1"]
    assert await third.next_task() == (None, True)  # a claim marks nothing: the next runner reads the queue itself
    assert first.reads == ["w/0", "w/1", "w/2"]
