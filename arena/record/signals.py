"""Events the record announces, so rooms built on it (tournaments, ratings) need not be imported by it.

`match_finished` is sent by `arena.record.services` once per match, when the transaction that ended it
(its last move, a resignation or an abort) has committed; a rolled-back ending sends nothing. Receivers get
`sender=Match` and `match`, the closed row: `status` is finished or aborted, `scores` is None when aborted,
and `uid`, `tournament_id`, `game`, `options`, `state` (the final one), `record` and `finished_at` are as
stored (the ratings receiver counts the match from these without reading it again). They run synchronously,
in the writer's thread, in the order they were connected (apps' `ready()`); an exception propagates to the
writer's caller, with the record already committed.

`agents_merged` is sent by `arena.record.people.guest_merge` inside its transaction, after a guest's seats
moved to an account and before the guest is deleted: `sender=Agent`, `source` (the guest), `target` (the
account) and `match_ids` (the guest's matches). Receivers move what they keep by agent (the ratings' cells).

`match_updated` is sent (`asend`, on the event loop) by the runner after it recorded a change to a match
(started, a move, ended): `sender=Match`, `match` as recorded and, when the change recorded moves, `decisions`,
their rows in ply order (`arena.record.services.Recorded`). Live play's receiver tells the match's pages
(`arena.play.broadcast`); receivers are async and must not block. They run one after another in the sender's task
(`InOrderSignal`), in the order they were connected.

`decision_due` is sent (`send`, synchronously) by the runner before a seat whose agent is not a bot decides, with
`sender=Match`, `match` and `seat`. A receiver returns why the match must not go on now (a spending cap reached:
`arena.evaluate.services.evaluation_hold_on_budget`) or "": on a reason the runner adjourns the match
(`arena.record.turns.match_adjourn`) instead of asking the agent. A receiver may also note that the decision begins: a
study's void rule queues its check then (`arena.studies.tasks.void_check_on_decision_due`).

`match_seating` is sent (`send`, synchronously) by `arena.record.services.seating_refusal` before a match or a
tournament seats agents (`match_create`, `tournament_create`), with `sender=Match`, `game` (the rules), `state`
(the opening state under the chosen variant and options) and `agents`. A receiver returns why those agents cannot
play those rules (a Botzone program outside the games Botzone's requests cover: `arena.agents.botzone`) or "": on
a reason nothing is created and the caller gets a ServiceError saying it.

`match_paused` is sent by `arena.record.turns` when the transaction that paused a match (its model server not
answering) has committed, with `sender=Match`, `match_id` and `until`, the instant it may be taken up again.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import Signal


class InOrderSignal(Signal):
    """A signal whose async receivers `asend` awaits one after another in the sender's own task.

    Django's `asend` runs them side by side in a task group, a task each: for `match_updated`, sent at every move
    to one quick receiver, the group and its task cost twice the receiver's own work. With a sync receiver
    connected, Django's `asend` runs as it is."""

    async def asend(self, sender: Any, **named: Any) -> list[tuple[Any, Any]]:
        if not self.receivers:
            return []
        sync_receivers, async_receivers = self._live_receivers(sender)
        if sync_receivers:
            return await super().asend(sender, **named)
        return [(receiver, await receiver(signal=self, sender=sender, **named)) for receiver in async_receivers]


match_finished = Signal()
agents_merged = Signal()
match_updated = InOrderSignal()
match_paused = Signal()
decision_due = Signal()
match_seating = Signal()
