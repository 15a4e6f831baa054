"""The replay: the parts of a leaderboard that read the matches themselves, in time order."""

from __future__ import annotations

import itertools
import statistics
from datetime import date
from typing import NamedTuple

import numpy as np
from openskill.models import PlackettLuce

from arena.models import Agent, Attempt, Decision, Match, Seat
from arena.record.visibility import matches_without_secrets
from ratings.maths.leaderboard import Matches, as_cells, fit_cells, sequential
from ratings.record.game_metrics import star_performance
from ratings.record.plan_metrics import correlations, plan_games, process_table, radar_values, round_records
from ratings.record.rated_matches import final_state, match_rated, rating_key
from ratings.record.refit import _anchors, bootstrap_rounds
from ratings.record.reports.base import MODEL_KINDS

HUMAN_BASELINE = "human-baseline"


def _matches(key: str, filters: dict[str, str]):
    """The finished, scored matches the board of `key` replays: none whose twins are still to play."""
    matches = matches_without_secrets(Match.objects.filter(status=Match.Status.FINISHED, scores__isnull=False))
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
    """One pairwise result (`ratings.maths.pairwise`) of a rated match, with what the leaderboard needs of it."""

    match: int
    a: int  # agent pk
    b: int
    score_a: float
    weight: float
    first_mover: float  # 1: a moved first (two-seat games); 0.5: no move order between the pair
    key: str  # rating key
    performance: tuple  # STAR's (winner surviving, winner total, game time, horizon), NaNs when unknown


NO_PERFORMANCE = (np.nan, np.nan, np.nan, np.nan)


def _rated(key: str, matches, seat_agents: dict[int, dict[int, int]]) -> tuple[list[Row], list[tuple]]:
    """The rated matches of scope `key` as pairwise rows, and each match's (match, agent, side, score, one_side)
    results, one per agent and side; one_side is False for an agent on two sides (a bot filling seats on both).
    """
    rows: list[Row] = []
    results: list[tuple[int, int, int, float, bool]] = []
    fields = ("pk", "scores", "game", "options", "final")
    for pk, scores, game, options, state in matches.annotate(final=final_state()).values_list(*fields).iterator(2_000):
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
        "correlations": correlations(_models_only(process)),
        "radar": radar_values(process),
        "people": _people_ratings(results, agents) if game else [],
        "baseline": _human_baseline(rows, agents, _anchors(agents, index), index, rounds),
    }


def _models_only(process: list[dict]) -> list[dict]:
    """The process rows of model agents (LLM and remote): AdvGameBench §4.4 correlates across models, and scripted
    bots (often all at OBR = 0) would make a correlation "significant" on their own (docs/metrics.md)."""
    models = set(Agent.objects.filter(kind__in=MODEL_KINDS).values_list("slug", flat=True))
    return [row for row in process if row["agent"] in models]


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
        # A handful of people is not a population: the pooled rating is shown only from MIN_PEOPLE_FOR_BANDS on.
        "thin": len(consenting) < MIN_PEOPLE_FOR_BANDS
        or result["lower"][merged] is None
        or result["upper"][merged] is None,
        "matches": len({r.match for r in people_rows}),
        "win_rate": sum(1 for s in score if s == 1.0) / len(score) if score else None,
    }
