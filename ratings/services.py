"""Leaderboard snapshots: read the match record, fit the ratings, store plain JSON (the only writer here)."""

from __future__ import annotations

import statistics
from datetime import date, timedelta
from urllib.parse import urlencode

import numpy as np
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from openskill.models import PlackettLuce

from arena.models import Agent, Attempt, Decision, Match, Seat
from ratings.leaderboard import Matches, compute
from ratings.models import RatingSnapshot
from ratings.plan_metrics import correlations, plan_games, process_table, radar_values, round_records

HUMAN_BASELINE = "human-baseline"
#: Match filters that change the fit (row filters such as kind and scaffold are applied by the page).
FIT_FILTERS = ("prompt", "since", "until")


def bootstrap_rounds() -> int:
    return int(getattr(settings, "ARENA_BOOTSTRAP_ROUNDS", 1000))


def filter_key(filters: dict[str, str]) -> str:
    """The canonical string for the fit-changing filters (the snapshot's key)."""
    return urlencode(sorted((k, v) for k, v in filters.items() if k in FIT_FILTERS and v))


def _matches(game: str, filters: dict[str, str]):
    matches = Match.objects.filter(status=Match.Status.FINISHED, scores__isnull=False)
    if game:
        matches = matches.filter(game=game)
    if filters.get("prompt"):
        matches = matches.filter(record__prompt_version=filters["prompt"])
    if filters.get("since"):
        matches = matches.filter(finished_at__date__gte=date.fromisoformat(filters["since"]))
    if filters.get("until"):
        matches = matches.filter(finished_at__date__lt=date.fromisoformat(filters["until"]))
    return matches.order_by("finished_at", "pk")


def _agent_stats(rows: list[tuple], seat_agents: dict[int, dict[int, int]], matches) -> dict[int, dict]:
    """Per agent over the rated matches: W/D/L, share of its model tries that were invalid, decision time, cost."""
    stats: dict[int, dict] = {}

    def row_of(agent_id: int) -> dict:
        return stats.setdefault(
            agent_id, {"wins": 0, "draws": 0, "losses": 0, "times": [], "cost": 0.0, "attempts": 0, "invalid": 0}
        )

    for _, first, second, score_first, _, _ in rows:
        for agent_id, score in ((first, score_first), (second, 1 - score_first)):
            row_of(agent_id)[{1.0: "wins", 0.5: "draws", 0.0: "losses"}[score]] += 1
    rated = {r[0] for r in rows}
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


def _arrays(rows: list[tuple], index: dict[int, int]) -> Matches:
    return Matches(
        first=np.array([index[r[1]] for r in rows], dtype=np.int64),
        second=np.array([index[r[2]] for r in rows], dtype=np.int64),
        score_first=np.array([r[3] for r in rows], dtype=float),
        game=np.array([r[4] for r in rows], dtype=object),
        duration_s=np.array([r[5] for r in rows], dtype=float),
    )


def snapshot_compute(*, game: str = "", filters: dict[str, str] | None = None) -> dict:
    """The leaderboard data for a scope: rows per agent, the human baseline, the first-move term."""
    filters = filters or {}
    matches = _matches(game, filters)
    seat_agents: dict[int, dict[int, int]] = {}
    seats = Seat.objects.filter(match__in=matches).values_list("match_id", "index", "agent_version__agent_id")
    for match_id, index, agent_id in seats.iterator(chunk_size=20_000):
        seat_agents.setdefault(match_id, {})[index] = agent_id
    rows = []
    for pk, scores, match_game, started, finished in matches.values_list(
        "pk", "scores", "game", "started_at", "finished_at"
    ).iterator(chunk_size=20_000):
        agents_by_seat = seat_agents.get(pk, {})
        if len(agents_by_seat) != 2:
            continue  # Bradley–Terry here is pairwise; multi-seat games get their own tables
        first, second = agents_by_seat[0], agents_by_seat[1]
        if first == second:
            continue  # self-play says nothing about strength
        duration = (finished - started).total_seconds() if started and finished else 0.0
        rows.append((pk, first, second, scores[0], match_game, duration))
    agents = {a.pk: a for a in Agent.objects.filter(pk__in={r[1] for r in rows} | {r[2] for r in rows})}
    order = sorted(agents)
    index = {pk: i for i, pk in enumerate(order)}
    anchors = [index[pk] for pk in order if agents[pk].kind == Agent.Kind.BOT and agents[pk].slug.endswith("-lv0")]
    rounds = bootstrap_rounds()
    result = compute(_arrays(rows, index), n_agents=len(order), anchors=anchors, rounds=rounds) if rows else None
    stats = _agent_stats(rows, seat_agents, matches)
    table = []
    for pk in order:
        agent, i, row = agents[pk], index[pk], stats.get(pk, {})
        played = row.get("wins", 0) + row.get("draws", 0) + row.get("losses", 0)
        table.append(
            {
                "slug": agent.slug,
                "name": agent.name,
                "kind": agent.kind,
                "game": agent.game,
                "scaffold": agent.current_version().config.get("scaffold", "") if agent.kind == Agent.Kind.LLM else "",
                "consent": agent.baseline_consent,
                "rating": result["rating"][i],
                "lower": result["lower"][i],
                "upper": result["upper"][i],
                "rank": result["rank"][i],
                "provisional": result["provisional"][i],
                "elo": result["elo"][i],
                "pwer": result["pwer"][i],
                "history": result["elo_history"][i],
                "matches": played,
                "wins": row.get("wins", 0),
                "draws": row.get("draws", 0),
                "losses": row.get("losses", 0),
                "win_rate": row["wins"] / played if played else None,
                "invalid_rate": row["invalid"] / row["attempts"] if row.get("attempts") else None,
                "latency_ms_p50": statistics.median(row["times"]) if row.get("times") else None,
                "cost_per_match": row["cost"] / played if played else None,
            }
        )
    table.sort(key=lambda r: -(r["rating"] if r["rating"] is not None else -1e9))
    process = process_table(round_records()) if not game or game in plan_games() else []
    return {
        "rows": table,
        "process": process,
        "correlations": correlations(process),
        "radar": radar_values(process),
        "people": _people_ratings(rows, agents) if game else [],
        "baseline": _human_baseline(rows, agents, anchors, index, rounds, table),
        "first_move_advantage": result and result["first_move_advantage"],
        "first_move_interval": result and result["first_move_interval"],
        "matches": len(rows),
    }


def _people_ratings(rows: list[tuple], agents: dict[int, Agent]) -> list[dict]:
    """Each person's openskill (Plackett–Luce) rating on one game, updated match by match in time order.

    Opponents are rated along with them, so beating a strong bot counts for more than beating Lv0.
    """
    model = PlackettLuce()
    current: dict[int, object] = {}
    history: dict[int, list[float]] = {}
    for _, first, second, score_first, _, _ in rows:
        a, b = current.get(first, model.rating()), current.get(second, model.rating())
        [[a], [b]] = model.rate([[a], [b]], scores=[score_first, 1 - score_first])
        current[first], current[second] = a, b
        for pk, rating in ((first, a), (second, b)):
            if agents[pk].kind == Agent.Kind.HUMAN:
                history.setdefault(pk, []).append(round(rating.ordinal(), 2))
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


def _human_baseline(rows, agents, anchors, index, rounds, table) -> dict | None:
    """All consenting people pooled into one entry, fitted on the same scale as everyone else, with the
    spread of the individual people who make it up (percentile bands for the charts)."""
    consenting = {pk for pk, a in agents.items() if a.kind == Agent.Kind.HUMAN and a.baseline_consent}
    if not any(r[1] in consenting or r[2] in consenting for r in rows):
        return None
    merged = len(index)  # one new index for the pooled people
    pooled = {pk: (merged if pk in consenting else i) for pk, i in index.items()}
    kept = [r for r in rows if pooled[r[1]] != pooled[r[2]]]
    result = compute(_arrays(kept, pooled), n_agents=merged + 1, anchors=anchors, rounds=rounds)
    people_rows = [r for r in kept if merged in (pooled[r[1]], pooled[r[2]])]
    score = [r[3] if pooled[r[1]] == merged else 1 - r[3] for r in people_rows]
    return {
        "slug": HUMAN_BASELINE,
        "name": "Human baseline",
        "kind": "human",
        "people": len(consenting),
        "rating": result["rating"][merged],
        "lower": result["lower"][merged],
        "upper": result["upper"][merged],
        "provisional": result["provisional"][merged],
        "matches": len(people_rows),
        "win_rate": sum(1 for s in score if s == 1.0) / len(score) if score else None,
        "percentiles": people_percentiles(table),
    }


@transaction.atomic
def snapshot_refresh(*, game: str = "", filters: dict[str, str] | None = None) -> RatingSnapshot:
    """Recompute and store the snapshot for a scope (called by the refresh task and the command)."""
    filters = {k: v for k, v in (filters or {}).items() if k in FIT_FILTERS and v}
    # Matches that finish while this runs mark the snapshot stale again and queue the next refresh.
    RatingSnapshot.objects.filter(game=game, filters=filter_key(filters)).update(stale=False)
    data = snapshot_compute(game=game, filters=filters)
    snapshot, _ = RatingSnapshot.objects.update_or_create(
        game=game,
        filters=filter_key(filters),
        defaults={"data": data, "matches": data["matches"], "bootstrap_rounds": bootstrap_rounds(), "error": ""},
    )
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
        game=game, filters=key, defaults={"stale": True, "used_at": timezone.now()}
    )


def snapshot_touch(*, snapshot: RatingSnapshot) -> None:
    """Record that a page read the snapshot; one UPDATE (atomic by itself), skipped when recorded recently."""
    now = timezone.now()
    if snapshot.filters and (snapshot.used_at is None or now - snapshot.used_at > TOUCH_INTERVAL):
        RatingSnapshot.objects.filter(pk=snapshot.pk).update(used_at=now)


@transaction.atomic
def snapshot_mark_stale(*, game: str, filters: str) -> bool:
    """Mark the scope (`filters` is its key) as awaiting a refit; False when one is already pending."""
    snapshot, created = RatingSnapshot.objects.get_or_create(game=game, filters=filters, defaults={"stale": True})
    return created or RatingSnapshot.objects.filter(pk=snapshot.pk, stale=False).update(stale=True) == 1


@transaction.atomic
def snapshot_fail(*, game: str, filters: str, error: str) -> None:
    """Record why the scope's refit failed and that none is pending (pages show the error and stop waiting)."""
    RatingSnapshot.objects.filter(game=game, filters=filters).update(stale=False, error=error[:2000])
