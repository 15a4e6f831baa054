"""The ratings' writers: the rating cells (the refit's input) and the leaderboard snapshots (plain JSON)."""

from __future__ import annotations

from datetime import date, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from arena.models import Agent, Match, Seat
from arena.record.compiled import ByPrimaryKey
from arena.record.selectors import seat_versions
from arena.record.visibility import LIVE_STATUSES, matches_without_secrets, twins
from ratings.record.models import CountedMatch, RatingCell, RatingCount, RatingSnapshot
from ratings.record.rated_matches import FIT_FILTERS, filter_key, final_state, match_rated
from ratings.record.refit import bootstrap_rounds, fit_compute
from ratings.record.replay import people_percentiles, replay_compute


def _cell_day(finished_at) -> date | None:
    """The day a match counts on for since/until, as the `finished_at__date` lookup sees it (current time zone)."""
    return timezone.localtime(finished_at).date() if finished_at else None


def _cell_prompt(record: dict) -> str:
    """The prompt version the `prompt` filter matches: the record's value when it is a string, else none."""
    value = (record or {}).get("prompt_version")
    return value if isinstance(value, str) else ""


@transaction.atomic
def cells_add(*, match_ids: list[int]) -> int:
    """Count the finished, scored matches among `match_ids` not counted yet into the rating cells (each match
    once, however often asked: the handler may run twice; none while a twin on its deal is still to play);
    returns how many were counted now."""
    rated = Match.objects.filter(pk__in=match_ids, status=Match.Status.FINISHED, scores__isnull=False)
    rated = matches_without_secrets(rated)
    fresh = rated.exclude(pk__in=CountedMatch.objects.filter(match_id__in=match_ids).values("match_id"))
    fields = ("pk", "scores", "game", "options", "final", "record", "finished_at")
    matches = list(fresh.annotate(final=final_state()).values_list(*fields))
    if not matches:
        return 0
    # A receiver may count one of them between the read above and here: only the markers inserted now count.
    claimed = _markers_claim(sorted(m[0] for m in matches))
    matches = [m for m in matches if m[0] in claimed]
    seat_agents: dict[int, dict[int, int]] = {}
    seats = Seat.objects.filter(match__in=[m[0] for m in matches])
    for match_id, index, agent_id in seats.values_list("match_id", "index", "agent_version__agent_id"):
        seat_agents.setdefault(match_id, {})[index] = agent_id
    _count(matches, seat_agents)
    return len(matches)


def _markers_claim(match_ids: list[int]) -> set[int]:
    """Insert the counted-match markers that do not exist yet; the ids inserted now (a concurrent insert of the
    same marker waits for the other transaction, then inserts nothing)."""
    column = CountedMatch._meta.pk.column
    returning = f"ON CONFLICT DO NOTHING RETURNING {connection.ops.quote_name(column)}"
    return {pk for (pk,) in _insert_rows(CountedMatch._meta.db_table, [column], [[pk] for pk in match_ids], returning)}


#: A finished, scored match that keeps no secrets, by its key: what `cells_add` would count of a finished match's
#: twin, built and compiled once (building and compiling its secrets check cost twenty times running it).
SETTLED_READ = ByPrimaryKey(
    matches_without_secrets(Match.objects.filter(status=Match.Status.FINISHED, scores__isnull=False))
)


def cells_add_finished(*, match: Match) -> bool:
    """Count one match that has just ended into the rating cells, from the closed row the record announced and
    its seats as this process already knows them (`seat_versions`, read when the runner loaded the match); True
    when counted now. Each match once: its marker is claimed like the catch-up's (nothing is claimed for a match
    counted before: the receiver ran twice, or a catch-up got there first), and the cells' additions commit with
    the marker or not at all. A transaction of one insert when the match is not rated (self-play), of three
    (marker, count, cells) when it is.

    A match with twins still to play on its deal (a duplicate pair, a tournament's seed) is not counted yet: its
    result would tell their players the deal. The last of its set to finish counts them all, in its transaction:
    each twin that `cells_add` would count (scored, and on no deal still in play)."""
    if match.status != Match.Status.FINISHED or match.scores is None:
        return False
    others = list(twins(match).values_list("pk", "status"))
    if any(status in LIVE_STATUSES for _pk, status in others):
        return False
    settled = [match]
    for pk, _status in others:
        try:
            settled.append(SETTLED_READ.get(pk))
        except Match.DoesNotExist:
            continue  # aborted, or tied to a live match of its own
    with transaction.atomic():
        claimed = _markers_claim(sorted(m.pk for m in settled))
        counted = [m for m in settled if m.pk in claimed]
        seat_agents = {m.pk: {i: version.agent_id for i, version in enumerate(seat_versions(m.uid))} for m in counted}
        _count([(m.pk, m.scores, m.game, m.options, m.state, m.record, m.finished_at) for m in counted], seat_agents)
    return match.pk in claimed


def _count(matches: list[tuple], seat_agents: dict[int, dict[int, int]]) -> None:
    """Add the rated ones among `matches` (pk, scores, game, options, final state, record, finished_at) to their
    cells and counts; the caller marks them counted in the same transaction."""
    weights: dict[tuple, float] = {}
    counts: dict[tuple, int] = {}
    for pk, scores, game, options, state, record, finished_at in matches:
        rated_match = match_rated(game, options, state, scores, seat_agents.get(pk, {}))
        if rated_match is None:
            continue
        scope = (rated_match.key, _cell_prompt(record), _cell_day(finished_at))
        counts[scope] = counts.get(scope, 0) + 1
        for pair in rated_match.pairs:
            cell = (*scope, pair.a, pair.b, rated_match.first_mover, pair.score_a)
            weights[cell] = weights.get(cell, 0.0) + pair.weight
    _add_up(RatingCount, ("key", "prompt", "day"), "matches", counts)
    _add_up(RatingCell, ("key", "prompt", "day", "a_id", "b_id", "first_mover", "score"), "weight", weights)


@transaction.atomic
def cells_agent_merge(*, source: Agent, target: Agent) -> None:
    """Move `source`'s pairwise results in the rating cells to `target` (a guest's games merged into an account;
    the guest's rows would otherwise go with it when it is deleted), adding to `target`'s rows where they exist.
    The counts stay: the matches are the same matches."""
    cells = RatingCell.objects.select_for_update().filter(Q(a=source) | Q(b=source))
    moved: dict[tuple, float] = {}
    for cell in cells:
        a, b = (target.pk if end == source.pk else end for end in (cell.a_id, cell.b_id))
        values = (cell.key, cell.prompt, cell.day, a, b, cell.first_mover, cell.score)
        moved[values] = moved.get(values, 0.0) + cell.weight
    cells.delete()
    _add_up(RatingCell, ("key", "prompt", "day", "a_id", "b_id", "first_mover", "score"), "weight", moved)


#: Rows written per statement when adding up cells.
ADD_UP_BATCH = 500


def _add_up(model, fields: tuple[str, ...], total: str, amounts: dict[tuple, float]) -> None:
    """Add `amounts` (keyed by the values of `fields`, "day" third) to the rows' `total`, creating missing rows.
    Dated rows: one INSERT … ON CONFLICT DO UPDATE per ADD_UP_BATCH rows (SQLite and PostgreSQL add up a row
    atomically, whoever else writes it). Undated rows, whose NULL day never conflicts in the unique index (only
    imported matches without a finishing time have one): locked, read and written."""
    _upsert_add(model, fields, total, {k: v for k, v in amounts.items() if k[2] is not None})
    undated = {k: v for k, v in amounts.items() if k[2] is None}
    if not undated:
        return
    scope = Q(day__isnull=True)
    for i, field in enumerate(fields):
        if field != "day":  # one match's rows are found exactly, a batch's among a superset
            scope &= Q(**{f"{field}__in": {k[i] for k in undated}})
    existing = {tuple(getattr(row, f) for f in fields): row for row in model.objects.select_for_update().filter(scope)}
    changed, fresh = [], []
    for values, amount in undated.items():
        row = existing.get(values)
        if row is None:
            fresh.append(model(**dict(zip(fields, values, strict=True)), **{total: amount}))
        else:
            setattr(row, total, getattr(row, total) + amount)
            changed.append(row)
    model.objects.bulk_update(changed, [total], batch_size=ADD_UP_BATCH)
    model.objects.bulk_create(fresh, batch_size=ADD_UP_BATCH)


def _upsert_add(model, fields: tuple[str, ...], total: str, amounts: dict[tuple, float]) -> None:
    """INSERT the rows, or add to `total` where the unique constraint on `fields` already has the row."""
    quote, columns = connection.ops.quote_name, [model._meta.get_field(f) for f in (*fields, total)]
    table, added = quote(model._meta.db_table), quote(columns[-1].column)
    keys = ", ".join(quote(column.column) for column in columns[:-1])
    # One order for every writer (receivers and catch-ups add to the same rows at once): no deadlock between them.
    items = sorted(amounts.items(), key=lambda item: repr(item[0]))
    rows = [
        [column.get_db_prep_value(value, connection) for column, value in zip(columns, (*values, amount), strict=True)]
        for values, amount in items
    ]
    adding = f"ON CONFLICT ({keys}) DO UPDATE SET {added} = {table}.{added} + EXCLUDED.{added}"
    _insert_rows(model._meta.db_table, [column.column for column in columns], rows, adding)


def _insert_rows(table: str, columns: list[str], rows: list[list], conflict: str) -> list[tuple]:
    """INSERT `rows` into `table`'s `columns`, ADD_UP_BATCH rows per statement, each statement ending with the
    `conflict` clause; the rows its RETURNING gave, if it has one."""
    quote = connection.ops.quote_name
    head = f"INSERT INTO {quote(table)} ({', '.join(quote(column) for column in columns)}) VALUES "
    marks = f"({', '.join(['%s'] * len(columns))})"
    returned = []
    with connection.cursor() as cursor:
        for start in range(0, len(rows), ADD_UP_BATCH):
            batch = rows[start : start + ADD_UP_BATCH]
            params = [value for row in batch for value in row]
            cursor.execute(f"{head}{', '.join([marks] * len(batch))} {conflict}", params)
            if cursor.description is not None:
                returned.extend(cursor.fetchall())
    return returned


#: Matches counted into the cells per transaction when catching up.
CATCH_UP_CHUNK = 20_000


def cells_catch_up() -> int:
    """Count every finished, scored match the cells miss (matches imported from a dataset, which sends no
    match_finished, or recorded before the cells existed), in chunks of CATCH_UP_CHUNK matches; two counts when
    nothing is missing. The replay runs it (it reads every match anyway), never the refit."""
    rated = Match.objects.filter(status=Match.Status.FINISHED, scores__isnull=False)
    if rated.count() == CountedMatch.objects.count():
        return 0
    missing = list(rated.exclude(pk__in=CountedMatch.objects.values("match_id")).values_list("pk", flat=True))
    return sum(cells_add(match_ids=missing[i : i + CATCH_UP_CHUNK]) for i in range(0, len(missing), CATCH_UP_CHUNK))


#: An agent's replayed columns before the replay has seen it (it played since the last replay).
NOT_REPLAYED = {
    "elo": None,
    "elo_spread": None,
    "pwer": None,
    "history": [],
    "matches": 0,
    "wins": 0,
    "draws": 0,
    "losses": 0,
    "win_rate": None,
    "invalid_rate": None,
    "latency_ms_p50": None,
    "cost_per_match": None,
}


def snapshot_compose(fit: dict, replay: dict) -> dict:
    """A snapshot's data from its two parts: the Bradley–Terry refit's rows with each agent's replayed columns."""
    agents = replay.get("agents", {})
    rows = [row | agents.get(row["slug"], NOT_REPLAYED) for row in fit["rows"]]
    baseline = replay.get("baseline")
    return {
        "rows": rows,
        "process": replay.get("process", []),
        "correlations": replay.get("correlations", []),
        "radar": replay.get("radar", {}),
        "people": replay.get("people", []),
        "baseline": baseline and baseline | {"percentiles": people_percentiles(rows)},
        "first_move_advantage": fit["first_move_advantage"],
        "first_move_interval": fit["first_move_interval"],
        "components": fit.get("components", []),
        "matches": fit["matches"],
    }


def _fit_part(data: dict) -> dict | None:
    """The refit's part of a stored snapshot's data (None before the first refit)."""
    if "rows" not in data:
        return None
    rows = [{k: v for k, v in row.items() if k not in NOT_REPLAYED} for row in data["rows"]]
    kept = ("first_move_advantage", "first_move_interval", "components", "matches")
    return {"rows": rows, **{k: data[k] for k in kept if k in data}}


def snapshot_compute(*, game: str = "", filters: dict[str, str] | None = None) -> dict:
    """The whole leaderboard data for a scope ("" all, a game, or game:variant), the cells brought up to date first."""
    cells_catch_up()
    return snapshot_compose(fit_compute(game=game, filters=filters), replay_compute(game=game, filters=filters))


def snapshot_refresh(*, game: str = "", filters: dict[str, str] | None = None) -> RatingSnapshot:
    """Bring the cells up to date, refit and replay a scope now (the command and tests; the worker runs them apart).
    It takes the scope's pending marks first, so a task queued for them finds nothing left to do."""
    key = filter_key({k: v for k, v in (filters or {}).items() if k in FIT_FILTERS and v})
    snapshot_claim(game=game, filters=key)
    snapshot_claim(game=game, filters=key, replay=True)
    cells_catch_up()
    snapshot_refit(game=game, filters=filters)
    return snapshot_replay(game=game, filters=filters)


def snapshot_refit(*, game: str = "", filters: dict[str, str] | None = None) -> RatingSnapshot:
    """Refit a scope's Bradley–Terry ratings from the cells and store them with its last replay; the reads and
    the fit run outside any transaction, so the database's write lock is held only for the one-row store."""
    filters = {k: v for k, v in (filters or {}).items() if k in FIT_FILTERS and v}
    # Its pending mark was taken by the task (snapshot_claim): matches finishing while this runs queue the next.
    return _snapshot_store(game=game, key=filter_key(filters), fit=fit_compute(game=game, filters=filters))


def snapshot_replay(*, game: str = "", filters: dict[str, str] | None = None) -> RatingSnapshot:
    """Replay a scope's record for its order-dependent and per-match columns and store them with its last refit;
    reads in autocommit, like the refit."""
    filters = {k: v for k, v in (filters or {}).items() if k in FIT_FILTERS and v}
    key = filter_key(filters)
    # On SQLite a transaction would take the write lock (transaction_mode IMMEDIATE) for the whole replay and every
    # move and lobby form would wait on it. A match finishing between two reads is either left out or counted
    # whole (its seats are written when it starts) and is in the next replay either way.
    return _snapshot_store(game=game, key=key, replay=replay_compute(game=game, filters=filters))


@transaction.atomic
def _snapshot_store(*, game: str, key: str, fit: dict | None = None, replay: dict | None = None) -> RatingSnapshot:
    """Store one part of a scope's snapshot and compose its data with the other part as last stored."""
    snapshot, _ = RatingSnapshot.objects.select_for_update().get_or_create(game=game, filters=key)
    if replay is not None:
        snapshot.replay = replay
    fit = fit or _fit_part(snapshot.data)
    if fit is not None:
        snapshot.data = snapshot_compose(fit, snapshot.replay)
        snapshot.matches = fit["matches"]
        snapshot.bootstrap_rounds = bootstrap_rounds()
    snapshot.error = ""
    snapshot.save()
    return snapshot


# Refits that pages and finished matches ask for: one pending refit per scope, a bounded number of filtered scopes.

#: A page's read is recorded at most this often per snapshot (the recency that eviction orders by).
TOUCH_INTERVAL = timedelta(minutes=1)


def max_filtered_snapshots() -> int:
    return int(getattr(settings, "ARENA_MAX_FILTERED_SNAPSHOTS", 20))


class SnapshotsBusy(Exception):
    """Every filtered snapshot the site keeps is still waiting for its refit; nothing can be evicted yet."""


@transaction.atomic
def snapshot_open(*, game: str, filters: dict[str, str]) -> tuple[RatingSnapshot, bool]:
    """The scope's snapshot, created pending (True) when missing, evicting the least recently used filtered
    snapshots beyond ARENA_MAX_FILTERED_SNAPSHOTS; SnapshotsBusy when all of those are pending."""
    key = filter_key(filters)
    existing = RatingSnapshot.objects.filter(game=game, filters=key).first()
    if existing is not None:
        return existing, False
    if key:
        filtered = RatingSnapshot.objects.exclude(filters="")
        excess = filtered.count() + 1 - max_filtered_snapshots()
        if excess > 0:
            idle = filtered.filter(stale=False).order_by(F("used_at").asc(nulls_first=True), "computed_at")
            victims = list(idle.values_list("pk", flat=True)[:excess])
            if len(victims) < excess:
                raise SnapshotsBusy(
                    "Other filtered leaderboards are still being computed; try these filters again in a minute."
                )
            RatingSnapshot.objects.filter(pk__in=victims).delete()
    return RatingSnapshot.objects.get_or_create(
        game=game, filters=key, defaults={"stale": True, "replay_stale": True, "used_at": timezone.now()}
    )


def snapshot_touch(*, snapshot: RatingSnapshot) -> None:
    """Record that a page read the snapshot; one UPDATE (atomic by itself), skipped when recorded recently."""
    now = timezone.now()
    if snapshot.filters and (snapshot.used_at is None or now - snapshot.used_at > TOUCH_INTERVAL):
        RatingSnapshot.objects.filter(pk=snapshot.pk).update(used_at=now)


@transaction.atomic
def snapshot_mark_stale(*, game: str, filters: str) -> tuple[bool, bool]:
    """Mark the scope (`filters` is its key) as awaiting a refit and a replay; for each, False when already pending."""
    pending = {"stale": True, "replay_stale": True}
    snapshot, created = RatingSnapshot.objects.get_or_create(game=game, filters=filters, defaults=pending)
    if created:
        return True, True
    scope = RatingSnapshot.objects.filter(pk=snapshot.pk)
    return scope.filter(stale=False).update(stale=True) == 1, scope.filter(replay_stale=False).update(
        replay_stale=True
    ) == 1


def snapshot_claim(*, game: str, filters: str, replay: bool = False) -> bool:
    """Take the scope's pending refit (or replay) for the task starting it: one conditional UPDATE, so exactly one
    task gets each pending mark and any other (a duplicate, or a scope evicted while queued) gets False."""
    flag = "replay_stale" if replay else "stale"
    return RatingSnapshot.objects.filter(game=game, filters=filters, **{flag: True}).update(**{flag: False}) == 1


def snapshot_fail(*, game: str, filters: str, error: str) -> None:
    """Record why the scope's refit or replay failed. Its pending mark was taken when it started; another part's
    mark, or one set since by newer results, stays: its task is still queued, and clearing the mark would let
    the next result queue a second one."""
    RatingSnapshot.objects.filter(game=game, filters=filters).update(error=error[:2000])
