"""A leaderboard refit never holds the database's write lock while it reads and fits."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from django.db import connection
from django.test import override_settings

from arena.record.agents import bots_ensure
from arena.tournaments.run import run_tournament
from arena.tournaments.services import tournament_create
from ratings.record.models import RatingSnapshot
from ratings.record.services import snapshot_refresh

# transaction=True: each statement runs as in production (autocommit), so an open transaction shows.
pytestmark = pytest.mark.django_db(transaction=True)


def test_the_refit_reads_outside_any_transaction_and_writes_in_a_short_one():
    bots = bots_ensure(game="tic-tac-toe")[:3]
    tournament = tournament_create(
        slug="t", name="t", format="round_robin", games=["tic-tac-toe"], agents=bots, games_per_seat=2, first_seed=0
    )
    async_to_sync(run_tournament)(tournament.pk)
    statements: list[tuple[bool, str]] = []

    def record(execute, sql, params, many, context):
        statements.append((connection.in_atomic_block, sql))
        return execute(sql, params, many, context)

    with override_settings(ARENA_BOOTSTRAP_ROUNDS=20), connection.execute_wrapper(record):
        snapshot = snapshot_refresh(game="tic-tac-toe")
    assert snapshot.matches == 12
    in_transaction = [sql for atomic, sql in statements if atomic]
    # On SQLite (transaction_mode IMMEDIATE) a transaction holds the write lock: only the snapshot's own
    # one-row store may run inside one, never the reads of matches, seats and decisions the fit needs.
    assert in_transaction, "the snapshot is stored atomically"
    assert all(
        '"ratings_ratingsnapshot"' in sql or sql.startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))
        for sql in in_transaction
    )
    assert any('"arena_match"' in sql for atomic, sql in statements if not atomic)
    assert RatingSnapshot.objects.get(game="tic-tac-toe", filters="").data["matches"] == 12
