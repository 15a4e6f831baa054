"""Leaderboard snapshots: read the match record, fit the ratings, store plain JSON (the only writer here)."""

from __future__ import annotations

import itertools
import statistics
from datetime import date, timedelta
from typing import NamedTuple
from urllib.parse import urlencode

import numpy as np
from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Case, F, JSONField, Q, Sum, Value, When
from django.utils import timezone
from openskill.models import PlackettLuce

from arena.models import Agent, Attempt, Decision, Match, Seat
from arena.record.selectors import seat_versions
from games import get_game
from games.registry import GAMES
from ratings.game_metrics import star_performance
from ratings.leaderboard import Cells, Matches, as_cells, fit_cells, sequential
from ratings.models import CountedMatch, RatingCell, RatingCount, RatingSnapshot
from ratings.pairwise import Pair, match_pairs
from ratings.plan_metrics import correlations, plan_games, process_table, radar_values, round_records

HUMAN_BASELINE = "human-baseline"
#: Match filters that change the fit (row filters such as kind and scaffold are applied by the page).
FIT_FILTERS = ("prompt", "since", "until")


def bootstrap_rounds() -> int:
    return int(getattr(settings, "ARENA_BOOTSTRAP_ROUNDS", 1000))


def filter_key(filters: dict[str, str]) -> str:
    """The canonical string for the fit-changing filters (the snapshot's key)."""
    return urlencode(sorted((k, v) for k, v in filters.items() if k in FIT_FILTERS and v))


def rating_key(game: str, options: dict) -> str:
    """The leaderboard a match counts on: its game, or "game:variant" for a variant (rated apart)."""
    variant = get_game(game).variant_of(options)
    return f"{game}:{variant}" if variant else game


def _matches(key: str, filters: dict[str, str]):
    matches = Match.objects.filter(status=Match.Status.FINISHED, scores__isnull=False)
    if key:
        matches = matches.filter(game=key.partition(":")[0])
    if filters.get("prompt"):
        matches = matches.filter(record__prompt_version=filters["prompt"])
    if filters.get("since"):
        matches = matches.filter(finished_at__date__gte=date.fromisoformat(filters["since"]))
    if filters.get("until"):
        matches = matches.filter(finished_at__date__lt=date.fromisoformat(filters["until"]))
    return matches.order_by("finished_at", "pk")


class Row(NamedTuple):
    """One pairwise result (`ratings.pairwise`) of a rated match, with what the leaderboard needs of it."""

    match: int
    a: int  # agent pk
    b: int
    score_a: float
    weight: float
    first_mover: float  # 1: a moved first (two-seat games); 0.5: no move order between the pair
    key: str  # rating key
    performance: tuple  # STAR's (winner surviving, winner total, game time, horizon), NaNs when unknown


NO_PERFORMANCE = (np.nan, np.nan, np.nan, np.nan)


def seat_sides(game: str, state: dict | None, seats: int) -> list[int]:
    """Each seat's side: the seat itself in two-seat games, `Game.team_of` on the final state otherwise."""
    if seats == 2 or state is None:
        return list(range(seats))
    rules = get_game(game)
    final = rules.from_json(state)
    return [rules.team_of(final, seat) for seat in range(seats)]


def _needs_state() -> list[str]:
    """Games whose final state the leaderboard reads: sides in multi-seat games, PWER in skirmish."""
    return [slug for slug in GAMES if get_game(slug).num_players > 2 or slug == "skirmish"]


def _final_state():
    # Final states are read only where sides or PWER need them: two-seat board games' states stay in the database.
    return Case(When(game__in=_needs_state(), then=F("state")), default=Value(None), output_field=JSONField())


class Rated(NamedTuple):
    """How one finished match counts on the leaderboards: its rating key, seats' agents and sides, pairwise results."""

    key: str
    agents: list[int]
    sides: list[int]
    pairs: list[Pair]
    first_mover: float  # 1: each pair's a moved first (two-seat games); 0.5: no move order between the pair


def match_rated(game: str, options: dict, state: dict | None, scores: list, by_seat: dict[int, int]) -> Rated | None:
    """The match's pairwise results (`ratings.pairwise`), or None when it is not rated (missing seats, self-play)."""
    if len(by_seat) < 2 or len(by_seat) != len(scores):
        return None
    agents = [by_seat[seat] for seat in range(len(by_seat))]
    sides = seat_sides(game, state, len(agents))
    pairs = match_pairs(agents, sides, scores)
    if not pairs:
        return None  # self-play says nothing about strength
    return Rated(rating_key(game, options), agents, sides, pairs, 1.0 if len(agents) == 2 else 0.5)


def _rated(key: str, matches, seat_agents: dict[int, dict[int, int]]) -> tuple[list[Row], list[tuple]]:
    """The rated matches of scope `key` as pairwise rows, and each match's (match, agent, side, score, one_side)
    results, one per agent and side; one_side is False for an agent on two sides (a bot filling seats on both).
    """
    rows: list[Row] = []
    results: list[tuple[int, int, int, float, bool]] = []
    fields = ("pk", "scores", "game", "options", "final")
    for pk, scores, game, options, state in matches.annotate(final=_final_state()).values_list(*fields).iterator(2_000):
        if key and rating_key(game, options) != key:
            continue
        rated = match_rated(game, options, state, scores, seat_agents.get(pk, {}))
        if rated is None:
            continue
        agents, sides = rated.agents, rated.sides
        star = star_performance(state) if game == "skirmish" and state else None
        performance = NO_PERFORMANCE if star is None else tuple(float(x) for x in star)
        rows += [Row(pk, p.a, p.b, p.score_a, p.weight, rated.first_mover, rated.key, performance) for p in rated.pairs]
        side_of: dict[int, set[int]] = {}
        for agent, side in zip(agents, sides, strict=True):
            side_of.setdefault(agent, set()).add(side)
        seen: set[tuple[int, int]] = set()
        for seat, agent in enumerate(agents):
            if (agent, sides[seat]) not in seen:
                seen.add((agent, sides[seat]))
                results.append((pk, agent, sides[seat], float(scores[seat]), len(side_of[agent]) == 1))
    return rows, results


def _agent_stats(results: list[tuple], seat_agents: dict[int, dict[int, int]], matches) -> dict:
    """Per agent over the rated matches: W/D/L, share of its model tries that were invalid, decision time, cost."""
    stats: dict[int, dict] = {}

    def row_of(agent_id: int) -> dict:
        return stats.setdefault(
            agent_id, {"wins": 0, "draws": 0, "losses": 0, "times": [], "cost": 0.0, "attempts": 0, "invalid": 0}
        )

    for _, agent, _, score, one_side in results:
        if not one_side:
            continue  # no result of its own in a match it played on both sides of
        row_of(agent)["wins" if score > 0.5 else "draws" if score == 0.5 else "losses"] += 1
    rated = {r[0] for r in results if r[4]}
    decisions = Decision.objects.filter(match__in=matches).values_list("match_id", "seat", "elapsed_ms", "cost")
    for match_id, seat, elapsed, cost in decisions.iterator(chunk_size=20_000):
        if match_id in rated:
            row = row_of(seat_agents[match_id][seat])
            row["times"].append(elapsed)
            row["cost"] += cost
    attempts = Attempt.objects.filter(match__in=matches, transient=False).values_list("match_id", "seat", "verdict")
    for match_id, seat, verdict in attempts.iterator(chunk_size=20_000):
        if match_id in rated:
            row = row_of(seat_agents[match_id][seat])
            row["attempts"] += 1
            row["invalid"] += verdict in (Attempt.Verdict.UNPARSEABLE, Attempt.Verdict.ILLEGAL)
    return stats


def _arrays(rows: list[Row], index: dict[int, int]) -> Matches:
    performance = np.array([r.performance for r in rows], dtype=float).reshape(len(rows), 4)
    return Matches(
        first=np.array([index[r.a] for r in rows], dtype=np.int64),
        second=np.array([index[r.b] for r in rows], dtype=np.int64),
        score_first=np.array([r.score_a for r in rows], dtype=float),
        weight=np.array([r.weight for r in rows], dtype=float),
        first_mover=np.array([r.first_mover for r in rows], dtype=float),
        match=np.array([r.match for r in rows], dtype=np.int64),
        game=np.array([r.key for r in rows], dtype=object),
        winner_surviving=performance[:, 0],
        winner_total=performance[:, 1],
        game_time=performance[:, 2],
        game_time_max=performance[:, 3],
    )


def _agent_row(agent: Agent) -> dict:
    return {
        "slug": agent.slug,
        "name": agent.name,
        "kind": agent.kind,
        "game": agent.game,
        "scaffold": agent.current_version().config.get("scaffold", "") if agent.kind == Agent.Kind.LLM else "",
        "consent": agent.baseline_consent,
    }


def _anchors(agents: dict[int, Agent], index: dict[int, int]) -> list[int]:
    """The Lv0 bots, whose mean rating is 1000 on every leaderboard."""
    return [i for pk, i in index.items() if agents[pk].kind == Agent.Kind.BOT and agents[pk].slug.endswith("-lv0")]


# Bradley–Terry from the cells: a refit reads one row per (pair, first mover, score, rating key, filter keys).


def _scoped(rows, game: str, filters: dict[str, str]):
    """Cells or counts of the scope ("" all, a game, or game:variant) under the fit-changing filters."""
    if game:
        rows = rows.filter(key=game)
    if filters.get("prompt"):
        rows = rows.filter(prompt=filters["prompt"])
    if filters.get("since"):
        rows = rows.filter(day__gte=date.fromisoformat(filters["since"]))
    if filters.get("until"):
        rows = rows.filter(day__lt=date.fromisoformat(filters["until"]))
    return rows


def scope_cells(*, game: str, filters: dict[str, str]) -> tuple[Cells, list[int], int]:
    """The scope's cells as Bradley–Terry input (agent indices into the returned agent pks, ascending), each
    weighted by N / (G · its game's matches) so every game counts equally, and N, the number of rated matches."""
    counts = dict(_scoped(RatingCount.objects, game, filters).values_list("key").annotate(n=Sum("matches")))
    counts = {key: n for key, n in counts.items() if n}
    grouped = _scoped(RatingCell.objects, game, filters).values_list("key", "a", "b", "first_mover", "score")
    cells = list(grouped.annotate(weight=Sum("weight")).order_by())
    total = sum(counts.values())
    order = sorted({c[1] for c in cells} | {c[2] for c in cells})
    index = {pk: i for i, pk in enumerate(order)}
    game_weight = {key: total / (len(counts) * n) for key, n in counts.items()}
    arrays = Cells(
        first=np.array([index[c[1]] for c in cells], dtype=np.int64),
        second=np.array([index[c[2]] for c in cells], dtype=np.int64),
        score_first=np.array([c[4] for c in cells], dtype=float),
        weight=np.array([c[5] * game_weight[c[0]] for c in cells], dtype=float),
        first_mover=np.array([c[3] for c in cells], dtype=float),
    )
    return arrays, order, total


def fit_compute(*, game: str = "", filters: dict[str, str] | None = None) -> dict:
    """The Bradley–Terry part of a scope's leaderboard from the rating cells: per agent its rating, interval,
    rank range and provisional flag (sorted best first), the first-move term and the number of rated matches.
    Every game counts equally on the all-games board: a cell's weight is scaled by N / (G · its game's matches).
    """
    arrays, order, total = scope_cells(game=game, filters=filters or {})
    agents = Agent.objects.in_bulk(order)
    index = {pk: i for i, pk in enumerate(order)}
    anchors = _anchors(agents, index)
    rounds = bootstrap_rounds()
    fitted = fit_cells(arrays, n_agents=len(order), anchors=anchors, rounds=rounds, draws=total) if order else None
    table = []
    for pk in order:
        i = index[pk]
        table.append(_agent_row(agents[pk]) | {column: fitted[column][i] for column in FIT_COLUMNS})
    table.sort(key=lambda r: -(r["rating"] if r["rating"] is not None else -1e9))
    return {
        "rows": table,
        "first_move_advantage": fitted and fitted["first_move_advantage"],
        "first_move_interval": fitted and fitted["first_move_interval"],
        "matches": total,
    }


#: The per-agent columns the Bradley–Terry refit writes (the others come from the replay of the record).
FIT_COLUMNS = ("rating", "lower", "upper", "rank", "provisional")


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
    once, however often asked: the handler may run twice); returns how many were counted now."""
    rated = Match.objects.filter(pk__in=match_ids, status=Match.Status.FINISHED, scores__isnull=False)
    fresh = rated.exclude(pk__in=CountedMatch.objects.filter(match_id__in=match_ids).values("match_id"))
    fields = ("pk", "scores", "game", "options", "final", "record", "finished_at")
    matches = list(fresh.annotate(final=_final_state()).values_list(*fields))
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
    table, column = connection.ops.quote_name(CountedMatch._meta.db_table), CountedMatch._meta.pk.column
    claimed = set()
    with connection.cursor() as cursor:
        for start in range(0, len(match_ids), ADD_UP_BATCH):
            batch = match_ids[start : start + ADD_UP_BATCH]
            cursor.execute(
                f"INSERT INTO {table} ({connection.ops.quote_name(column)}) VALUES {', '.join(['(%s)'] * len(batch))} "
                f"ON CONFLICT DO NOTHING RETURNING {connection.ops.quote_name(column)}",
                batch,
            )
            claimed.update(row[0] for row in cursor.fetchall())
    return claimed


def cells_add_finished(*, match: Match) -> bool:
    """Count one match that has just ended into the rating cells, from the closed row the record announced and
    its seats as this process already knows them (`seat_versions`, read when the runner loaded the match); True
    when counted now. Each match once: its marker's insert fails for a match counted before, and the cells'
    additions commit with the marker or not at all. A transaction of one insert when the match is not rated
    (self-play), of three (marker, count, cells) when it is."""
    if match.status != Match.Status.FINISHED or match.scores is None:
        return False
    by_seat = {index: version.agent_id for index, version in enumerate(seat_versions(match.uid))}
    fields = (match.pk, match.scores, match.game, match.options, match.state, match.record, match.finished_at)
    try:
        with transaction.atomic():
            CountedMatch.objects.create(match_id=match.pk)
            _count([fields], {match.pk: by_seat})
    except IntegrityError:  # counted already: the receiver ran twice, or a catch-up got there first
        return False
    return True


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
    names = ", ".join(quote(column.column) for column in columns)
    keys = ", ".join(quote(column.column) for column in columns[:-1])
    # One order for every writer (receivers and catch-ups add to the same rows at once): no deadlock between them.
    items, row = sorted(amounts.items(), key=lambda item: repr(item[0])), f"({', '.join(['%s'] * len(columns))})"
    with connection.cursor() as cursor:
        for start in range(0, len(items), ADD_UP_BATCH):
            batch = items[start : start + ADD_UP_BATCH]
            cursor.execute(
                f"INSERT INTO {table} ({names}) VALUES {', '.join([row] * len(batch))} "
                f"ON CONFLICT ({keys}) DO UPDATE SET {added} = {table}.{added} + EXCLUDED.{added}",
                [
                    column.get_db_prep_value(value, connection)
                    for values, amount in batch
                    for column, value in zip(columns, (*values, amount), strict=True)
                ],
            )


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


# The replay: everything that reads the matches themselves, in time order.


def replay_compute(*, game: str = "", filters: dict[str, str] | None = None) -> dict:
    """The parts of a scope's leaderboard read from the record itself: per agent (by slug) sequential Elo, its
    order spread, PWER, Elo history, W/D/L, invalid-try rate, decision time and cost; the people's openskill
    ratings, the pooled human baseline and the plan-game process tables."""
    filters = filters or {}
    matches = _matches(game, filters)
    seat_agents: dict[int, dict[int, int]] = {}
    seats = Seat.objects.filter(match__in=matches).values_list("match_id", "index", "agent_version__agent_id")
    for match_id, index, agent_id in seats.iterator(chunk_size=20_000):
        seat_agents.setdefault(match_id, {})[index] = agent_id
    rows, results = _rated(game, matches, seat_agents)
    agents = {a.pk: a for a in Agent.objects.filter(pk__in={r.a for r in rows} | {r.b for r in rows})}
    order = sorted(agents)
    index = {pk: i for i, pk in enumerate(order)}
    rounds = bootstrap_rounds()
    serial = sequential(_arrays(rows, index), n_agents=len(order), rounds=rounds) if rows else None
    stats = _agent_stats(results, seat_agents, matches)
    columns = {}
    for pk in order:
        i, row = index[pk], stats.get(pk, {})
        played = row.get("wins", 0) + row.get("draws", 0) + row.get("losses", 0)
        columns[agents[pk].slug] = {
            "elo": serial["elo"][i],
            "elo_spread": serial["elo_spread"][i],
            "pwer": serial["pwer"][i],
            "history": serial["elo_history"][i],
            "matches": played,
            "wins": row.get("wins", 0),
            "draws": row.get("draws", 0),
            "losses": row.get("losses", 0),
            "win_rate": row["wins"] / played if played else None,
            "invalid_rate": row["invalid"] / row["attempts"] if row.get("attempts") else None,
            "latency_ms_p50": statistics.median(row["times"]) if row.get("times") else None,
            "cost_per_match": row["cost"] / played if played else None,
        }
    process = process_table(round_records()) if not game or game in plan_games() else []
    return {
        "agents": columns,
        "process": process,
        "correlations": correlations(process),
        "radar": radar_values(process),
        "people": _people_ratings(results, agents) if game else [],
        "baseline": _human_baseline(rows, agents, _anchors(agents, index), index, rounds),
    }


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
        "matches": fit["matches"],
    }


def _fit_part(data: dict) -> dict | None:
    """The refit's part of a stored snapshot's data (None before the first refit)."""
    if "rows" not in data:
        return None
    rows = [{k: v for k, v in row.items() if k not in NOT_REPLAYED} for row in data["rows"]]
    return {"rows": rows, **{k: data[k] for k in ("first_move_advantage", "first_move_interval", "matches")}}


def snapshot_compute(*, game: str = "", filters: dict[str, str] | None = None) -> dict:
    """The whole leaderboard data for a scope ("" all, a game, or game:variant), the cells brought up to date first."""
    cells_catch_up()
    return snapshot_compose(fit_compute(game=game, filters=filters), replay_compute(game=game, filters=filters))


def _people_ratings(results: list[tuple], agents: dict[int, Agent]) -> list[dict]:
    """Each person's openskill (Plackett–Luce) rating on one game, updated match by match in time order.

    Each side of a match is a team, so a person among bots in Werewolf or Codenames counts too; a bot
    filling seats on both sides plays on each as a copy and keeps the mean of its copies' ratings.
    Opponents are rated along with them, so beating a strong bot counts for more than beating Lv0.
    """
    model = PlackettLuce()
    current: dict[int, object] = {}
    history: dict[int, list[float]] = {}
    for _, match_results in itertools.groupby(results, key=lambda r: r[0]):
        sides: dict[int, list[tuple[int, float]]] = {}
        for _, agent, side, score, _ in match_results:
            sides.setdefault(side, []).append((agent, score))
        if len(sides) < 2:
            continue
        teams = [[current.get(agent, model.rating()) for agent, _ in members] for members in sides.values()]
        rated = model.rate(teams, scores=[members[0][1] for members in sides.values()])
        copies: dict[int, list] = {}
        for members, team in zip(sides.values(), rated, strict=True):
            for (pk, _), rating in zip(members, team, strict=True):
                copies.setdefault(pk, []).append(rating)
        for pk, ratings in copies.items():
            mu, sigma = statistics.fmean(r.mu for r in ratings), statistics.fmean(r.sigma for r in ratings)
            current[pk] = model.rating(mu=mu, sigma=sigma)
            if pk in agents and agents[pk].kind == Agent.Kind.HUMAN:
                history.setdefault(pk, []).append(round(current[pk].ordinal(), 2))
    people = [
        {
            "slug": agents[pk].slug,
            "name": agents[pk].name,
            "mu": round(current[pk].mu, 2),
            "sigma": round(current[pk].sigma, 2),
            "conservative": round(current[pk].ordinal(), 2),
            "matches": len(history[pk]),
            "history": history[pk],
            "consent": agents[pk].baseline_consent,
        }
        for pk in history
    ]
    return sorted(people, key=lambda p: -p["conservative"])


#: Percentiles of individual consenting people drawn as bands on rating charts (middle 80% and 50%, median).
BASELINE_PERCENTILES = (10, 25, 50, 75, 90)
#: Fewer people than this and the bands would describe a handful of individuals, not a population.
MIN_PEOPLE_FOR_BANDS = 5


def people_percentiles(table: list[dict]) -> dict[str, float | int] | None:
    """Where individual consenting people stand on the shared scale: P10…P90 of their ratings."""
    ratings = [r["rating"] for r in table if r["kind"] == "human" and r["consent"] and r["rating"] is not None]
    if len(ratings) < MIN_PEOPLE_FOR_BANDS:
        return None
    values = np.percentile(ratings, BASELINE_PERCENTILES)
    return {"people": len(ratings), **{f"p{q}": float(v) for q, v in zip(BASELINE_PERCENTILES, values, strict=True)}}


def _human_baseline(rows, agents, anchors, index, rounds) -> dict | None:
    """All consenting people pooled into one entry, fitted on the same scale as everyone else (the percentile
    bands of the individual people who make it up are added from the refit's ratings, `snapshot_compose`)."""
    consenting = {pk for pk, a in agents.items() if a.kind == Agent.Kind.HUMAN and a.baseline_consent}
    if not any(r.a in consenting or r.b in consenting for r in rows):
        return None
    merged = len(index)  # one new index for the pooled people
    pooled = {pk: (merged if pk in consenting else i) for pk, i in index.items()}
    kept = [r for r in rows if pooled[r.a] != pooled[r.b]]
    arrays = _arrays(kept, pooled)
    draws = np.unique(arrays.match).size
    result = fit_cells(as_cells(arrays), n_agents=merged + 1, anchors=anchors, rounds=rounds, draws=draws)
    people_rows = [r for r in kept if merged in (pooled[r.a], pooled[r.b])]
    score = [r.score_a if pooled[r.a] == merged else 1 - r.score_a for r in people_rows]
    return {
        "slug": HUMAN_BASELINE,
        "name": "Human baseline",
        "kind": "human",
        "people": len(consenting),
        "rating": result["rating"][merged],
        "lower": result["lower"][merged],
        "upper": result["upper"][merged],
        "provisional": result["provisional"][merged],
        "matches": len({r.match for r in people_rows}),
        "win_rate": sum(1 for s in score if s == 1.0) / len(score) if score else None,
    }


def snapshot_refresh(*, game: str = "", filters: dict[str, str] | None = None) -> RatingSnapshot:
    """Bring the cells up to date, refit and replay a scope now (the command and tests; the worker runs them apart)."""
    cells_catch_up()
    snapshot_refit(game=game, filters=filters)
    return snapshot_replay(game=game, filters=filters)


def snapshot_refit(*, game: str = "", filters: dict[str, str] | None = None) -> RatingSnapshot:
    """Refit a scope's Bradley–Terry ratings from the cells and store them with its last replay; the reads and
    the fit run outside any transaction, so the database's write lock is held only for the one-row store."""
    filters = {k: v for k, v in (filters or {}).items() if k in FIT_FILTERS and v}
    key = filter_key(filters)
    # Matches that finish while this runs mark the snapshot stale again and queue the next refit.
    RatingSnapshot.objects.filter(game=game, filters=key).update(stale=False)
    return _snapshot_store(game=game, key=key, fit=fit_compute(game=game, filters=filters))


def snapshot_replay(*, game: str = "", filters: dict[str, str] | None = None) -> RatingSnapshot:
    """Replay a scope's record for its order-dependent and per-match columns and store them with its last refit;
    reads in autocommit, like the refit."""
    filters = {k: v for k, v in (filters or {}).items() if k in FIT_FILTERS and v}
    key = filter_key(filters)
    RatingSnapshot.objects.filter(game=game, filters=key).update(replay_stale=False)
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


@transaction.atomic
def snapshot_fail(*, game: str, filters: str, error: str) -> None:
    """Record why the scope's refit or replay failed and that none is pending (pages show the error, stop waiting)."""
    RatingSnapshot.objects.filter(game=game, filters=filters).update(
        stale=False, replay_stale=False, error=error[:2000]
    )
