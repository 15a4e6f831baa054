"""Events the record announces, so rooms built on it (tournaments, ratings) need not be imported by it.

`match_finished` is sent by `arena.record.services` once per match, when the transaction that ended it
(its last move, a resignation or an abort) has committed; a rolled-back ending sends nothing. Receivers get
`sender=Match` and `match`, the closed row: `status` is finished or aborted, `scores` is None when aborted,
and `uid`, `tournament_id`, `game`, `options`, `state` (the final one), `record` and `finished_at` are as
stored (the ratings receiver counts the match from these without reading it again). They run synchronously,
in the writer's thread, in the order they were connected (apps' `ready()`); an exception propagates to the
writer's caller, with the record already committed.

`match_paused` is sent by `arena.record.turns` when the transaction that paused a match (its model server not
answering) has committed, with `sender=Match`, `match_id` and `until`, the instant it may be taken up again.
"""

from __future__ import annotations

from django.dispatch import Signal

match_finished = Signal()
match_paused = Signal()
