"""Reads for the rating and analysis pages: snapshots, and cheap aggregates of the record."""

from __future__ import annotations

import math
from collections import defaultdict

from django.conf import settings
from django.db.models import Count

from arena.agents.llm import PROMPT_VERSION
from arena.models import Agent, Match, Seat, Tournament
from arena.record.selectors import ladder_standing, seat_sides
from ratings.maths.bradley_terry import rank_ranges
from ratings.maths.metrics import wilson_interval
from ratings.maths.pairwise import match_pairs
from ratings.record.charts import KIND_NAMES
from ratings.record.models import RatingSnapshot
from ratings.record.rated_matches import filter_key, rating_key

#: Every agent kind, as the leaderboard's filter lists them.
KINDS = tuple(KIND_NAMES)
LEADERBOARD_COLUMNS = [
    "rank_best",
    "rank_worst",
    "slug",
    "name",
    "kind",
    "rating",
    "lower",
    "upper",
    "provisional",
    "ranked",
    "elo",
    "elo_spread",
    "pwer",
    "matches",
    "wins",
    "draws",
    "losses",
    "win_rate",
    "invalid_rate",
    "latency_ms_p50",
    "cost_per_match",
]


def snapshot_for(*, game: str, filters: dict[str, str]) -> RatingSnapshot | None:
    """The scope's snapshot as pages read it: `data` (the replay's own copy, already merged into it, is left out)."""
    return RatingSnapshot.objects.filter(game=game, filters=filter_key(filters)).defer("replay").first()


def prompt_versions() -> list[str]:
    """The prompt versions finished matches recorded, and the current one: what the prompt filter accepts."""
    recorded = Match.objects.filter(status=Match.Status.FINISHED).values_list("record__prompt_version", flat=True)
    return sorted({PROMPT_VERSION, *(str(v) for v in recorded.distinct() if v is not None)})


def leaderboard_rows(snapshot: RatingSnapshot, *, kinds: set[str], scaffold: str = "") -> list[dict]:
    """The snapshot's rows a page shows: kinds chosen, models with the scaffold chosen; ranked rows first.

    A row is `ranked` once its agent has ARENA_RANK_MIN_GAMES rated games and a 95% interval (`is_ranked`);
    rank ranges are drawn among the ranked rows of its component only (agents the record links by chains
    of matches, `ratings.record.refit.components`): an agent with two games would otherwise widen everyone's range, and
    agents that never met, directly or through others, have no order. Unranked rows carry no rank.
    """
    rows = [{**row, "ranked": is_ranked(row)} for row in snapshot.data.get("rows", [])]
    ranked = [row for row in rows if row["ranked"]]
    scopes = {row.get("component", 0) for row in ranked}
    for row in ranked:  # where the board holds several components, a rank says which one it is in
        row["rank_scope"] = row.get("component_label", "") if len(scopes) > 1 else ""
    for component in scopes:
        members = [row for row in ranked if row.get("component", 0) == component]
        lower = [-math.inf if row["lower"] is None else row["lower"] for row in members]
        upper = [math.inf if row["upper"] is None else row["upper"] for row in members]
        for row, (best, worst) in zip(members, rank_ranges(lower, upper), strict=True):
            row["rank_best"], row["rank_worst"] = best, worst
    shown = []
    for row in ranked + [row for row in rows if not row["ranked"]]:
        if row["kind"] not in kinds or (scaffold and row["kind"] == "llm" and row["scaffold"] != scaffold):
            continue
        row = {key: value for key, value in row.items() if key != "rank"}  # the snapshot's range among all agents
        shown.append({"rank_best": None, "rank_worst": None, **row})
    # Names as they are now, not as the snapshot was fitted: a guest who signs up shows the account's name at once.
    names = dict(Agent.objects.filter(slug__in=[row["slug"] for row in shown]).values_list("slug", "name"))
    return [{**row, "name": names.get(row["slug"], row["name"])} for row in shown]


def grouped(rows: list[dict]) -> list[dict]:
    """The rows in board order with a `heading` on the first row of each component's ranked rows and on the first
    unranked row, where ranked rows come from several components: the heading, not each rank, says which group a
    rank holds in. Rows sorted by another column keep their inline `rank_scope` instead."""
    if len({row.get("component", 0) for row in rows if row["ranked"]}) < 2:
        return rows
    out, previous = [], None
    for row in rows:
        group = row.get("component", 0) if row["ranked"] else None
        label = f"{row.get('component_label') or 'no game'} — ranked among themselves" if row["ranked"] else ""
        heading = (label or "Not ranked yet") if group != previous else None
        out.append({**row, "rank_scope": "", "heading": heading})
        previous = group
    return out


def is_ranked(row: dict) -> bool:
    """A rating shown with a rank: enough rated games, and a 95% interval bounded on at least one side (an agent
    that never lost has no upper bound, one that never scored no lower one; with neither it has no interval)."""
    return (
        row.get("rating") is not None
        and row.get("matches", 0) >= settings.ARENA_RANK_MIN_GAMES
        and (row.get("lower") is not None or row.get("upper") is not None)
    )


#: A kind's name in a pairing, in the order a pairing names them ("model vs bot", "program vs bot").
PAIRING_NAMES = {"llm": "model", "program": "program", "uci": "UCI engine", "remote": "remote agent", "bot": "bot"}


def pairing_of(kinds: frozenset[str]) -> str:
    """The pairing a match belongs to, by its seats' agent kinds (order and repeats do not matter)."""
    if "human" in kinds:
        return "person vs other"
    names = [PAIRING_NAMES[kind] for kind in PAIRING_NAMES if kind in kinds]
    return " vs ".join(names * 2 if len(names) == 1 else names)


def first_mover_table() -> list[dict]:
    """Per rating key (game or game:variant) and pairing type: seat 0's wins, draws, losses with 95% Wilson intervals.

    In multi-seat games seat 0's result is its side's result.
    """
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    seats = Seat.objects.filter(match__status=Match.Status.FINISHED, match__scores__isnull=False).order_by(
        "match", "index"
    )
    by_match: dict[int, list] = defaultdict(list)
    for match_id, game, options, kind, score in seats.values_list(
        "match_id", "match__game", "match__options", "agent_version__agent__kind", "score"
    ):
        by_match[match_id].append((rating_key(game, options), kind, score))
    for entries in by_match.values():
        key, _, first_score = entries[0]
        kinds = frozenset(kind for _, kind, _ in entries)
        for cell in ((key, "all"), (key, pairing_of(kinds))):
            counts[cell][0 if first_score > 0.5 else 1 if first_score == 0.5 else 2] += 1
    rows = []
    for (game, pairing), (wins, draws, losses) in sorted(counts.items()):
        n = wins + draws + losses
        low, high = wilson_interval(wins, n)
        rows.append(
            {
                "game": game,
                "pairing": pairing,
                "n": n,
                "win": wins / n,
                "draw": draws / n,
                "loss": losses / n,
                "win_low": low,
                "win_high": high,
            }
        )
    return rows


def head_to_head(game: str, limit: int = 20) -> dict:
    """Score share of each agent against each other one on rating key `game`, with match counts (busiest `limit`).

    Multi-seat matches count through their pairwise results (`ratings.maths.pairwise`), one count per pair and match.
    """
    base = game.partition(":")[0]
    seats = Seat.objects.filter(match__game=base, match__status=Match.Status.FINISHED, score__isnull=False)
    busiest = [
        row["agent_version__agent__slug"]
        for row in seats.values("agent_version__agent__slug").annotate(n=Count("pk")).order_by("-n")[:limit]
    ]
    score: dict[tuple[str, str], list[float]] = defaultdict(list)
    by_match: dict[int, list[tuple[str, float]]] = defaultdict(list)
    for match_id, slug, value in seats.order_by("match", "index").values_list(
        "match_id", "agent_version__agent__slug", "score"
    ):
        by_match[match_id].append((slug, value))
    matches = Match.objects.filter(game=base, status=Match.Status.FINISHED, scores__isnull=False)
    matches = matches.values_list("pk", "options", "state")
    for match_id, options, state in matches.iterator(chunk_size=2_000):
        if rating_key(base, options) != game:
            continue
        entries = by_match.get(match_id)
        if not entries:
            continue
        sides = seat_sides(base, state, len(entries))
        for pair in match_pairs([slug for slug, _ in entries], sides, [value for _, value in entries]):
            score[(pair.a, pair.b)].append(pair.score_a)
            score[(pair.b, pair.a)].append(1 - pair.score_a)
    labels = sorted(busiest)
    fractions = [[_mean(score.get((a, b))) for b in labels] for a in labels]
    counts = [[len(score.get((a, b), [])) for b in labels] for a in labels]
    return {"labels": labels, "fractions": fractions, "counts": counts}


def _mean(values: list[float] | None) -> float | None:
    return sum(values) / len(values) if values else None


def ladder_table() -> dict:
    """BotzoneBench Table 2: each candidate's latest ladder evaluation per game as (level, progress)."""
    cells: dict[str, dict[str, str]] = defaultdict(dict)
    games: set[str] = set()
    for tournament in Tournament.objects.filter(format=Tournament.Format.LADDER).order_by("created_at"):
        for game in tournament.config["games"]:
            for slug in tournament.config["agents"]:
                standing = ladder_standing(tournament, game, slug, shown=True)
                if standing.records:
                    cells[slug][game] = str(standing.rating)
                    games.add(game)
    names = dict(Agent.objects.filter(slug__in=cells).values_list("slug", "name"))
    return {
        "games": sorted(games),
        "rows": [{"slug": s, "name": names.get(s, s), "cells": cells[s]} for s in sorted(cells)],
    }
