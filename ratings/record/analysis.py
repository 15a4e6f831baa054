"""The analysis page's reads of finished matches, computed once per state of the record rather than per request.

Each table reads every finished match (or every one of a game), so a page view cost a pass over the whole record.
They are kept in Django's cache (shared by every process when REDIS_URL is set) under a key that changes when a
match finishes or a tournament is made, for at most ANALYSIS_CACHE_S (what else they read, such as an agent's
name or a guest's games merged into an account, shows within that time); requests in one process that miss the
cache together wait for one computation.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Max

from arena.models import Match, Tournament
from ratings.record.game_metrics import star_error_rates, werewolf_social
from ratings.record.selectors import first_mover_table, head_to_head, ladder_table

#: Longest a computed table is served after it was computed, in seconds.
ANALYSIS_CACHE_S = 600
_computing = threading.Lock()


def record_state() -> str:
    """A short name of the finished record's state: it changes when a match finishes or a tournament is made."""
    finished = Match.objects.filter(status=Match.Status.FINISHED).aggregate(
        n=Count("pk"), newest=Max("pk"), last=Max("finished_at")
    )
    tournaments = Tournament.objects.aggregate(n=Count("pk"), newest=Max("pk"))
    text = repr((sorted(finished.items()), sorted(tournaments.items())))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _once(name: str, compute: Callable[[], Any]) -> Any:
    key = f"arena:analysis:{record_state()}:{hashlib.sha256(name.encode()).hexdigest()[:24]}"
    found = cache.get(key)
    if found is not None:
        return found
    with _computing:  # one computation at a time; those who waited find its result
        found = cache.get(key)
        if found is None:
            found = compute()
            cache.set(key, found, ANALYSIS_CACHE_S)
    return found


def analysis_tables() -> dict[str, Any]:
    """The tables that do not depend on the game shown: first-mover, ladder, STAR errors, Werewolf's IRP/KSR."""
    return _once(
        "tables",
        lambda: {
            "first_mover": first_mover_table(),
            "ladder": ladder_table(),
            "star_errors": star_error_rates(),
            "werewolf": werewolf_social(),
        },
    )


def head_to_head_table(rating_key: str) -> dict:
    """`head_to_head(rating_key)`, once per state of the record."""
    return _once(f"head-to-head:{rating_key}", lambda: head_to_head(rating_key))
