"""Reads of the match record that pages, commands and the runner need."""

from __future__ import annotations

import functools
import uuid
from datetime import datetime
from typing import Any

import numpy as np
from django.db.models import Count, Prefetch, Q, QuerySet

from arena.models import Agent, AgentVersion, Match, Seat, Tournament
from arena.record.visibility import Viewer, matches_visible_to, matches_without_secrets
from games import get_game
from games.bots import ladder
from ratings.maths import bradley_terry
from ratings.maths.ladder import Record, Standing, ladder_rating
from ratings.maths.pairwise import match_pairs


@functools.lru_cache(maxsize=4096)
def seat_versions(match_uid: uuid.UUID) -> tuple[AgentVersion, ...]:
    """Who plays a match, in seat order, with their agents: fixed when it is made (and versions are frozen once
    they play), so a process reads it once, not on every bot turn of a person's game nor again when it ends."""
    seats = Seat.objects.filter(match__uid=match_uid).select_related("agent_version__agent").order_by("index")
    return tuple(seat.agent_version for seat in seats)


def moves_arrive_by_socket(version: AgentVersion) -> bool:
    """Whether a seat's moves come through a websocket (a person's, a bot account's), not from the runner."""
    kind = version.agent.kind
    return kind == Agent.Kind.HUMAN or (kind == Agent.Kind.REMOTE and version.config.get("transport") == "websocket")


def socket_seats(match_uid: uuid.UUID) -> frozenset[int]:
    """The seats of a match whose moves come through a websocket (read once per process, as `seat_versions`)."""
    return frozenset(index for index, version in enumerate(seat_versions(match_uid)) if moves_arrive_by_socket(version))


class ReplayMismatch(Exception):
    """The stored moves do not reproduce the stored state or result."""


def match_replayed_state(match: Match) -> Any:
    """Replay the stored decisions from the seed; ReplayMismatch if they disagree with the record."""
    game = get_game(match.game)
    state = game.initial_state(seed=match.seed, **match.options)
    for decision in match.decisions.order_by("ply"):
        if game.to_json(state) != decision.state_before:
            raise ReplayMismatch(f"match {match.pk}: state before ply {decision.ply} differs from the record")
        state = game.apply(state, game.action_from_json(decision.action))
    if match.state is not None and game.to_json(state) != match.state:
        raise ReplayMismatch(f"match {match.pk}: replayed state differs from the stored state")
    outcome = game.outcome(state)
    if match.status == Match.Status.FINISHED and outcome is not None and list(outcome.scores) != match.scores:
        raise ReplayMismatch(f"match {match.pk}: replayed result {outcome.scores} differs from {match.scores}")
    return state


def match_summary(match: Match) -> dict[str, Any]:
    """The CLI's one-object description of a match."""
    seats = list(match.seats.select_related("agent_version__agent").order_by("index"))
    return {
        "match_id": match.pk,
        "game": match.game,
        "seed": match.seed,
        "status": match.status,
        "agents": [seat.agent_version.agent.slug for seat in seats],
        "scores": match.scores,
        "termination": match.termination,
        "decisions": match.decisions.count(),
    }


def seat_sides(game: str, state: dict | None, seats: int) -> list[int]:
    """Each seat's side: the seat itself in two-seat games, `Game.team_of` on the final state otherwise."""
    if seats == 2 or state is None:
        return list(range(seats))
    rules = get_game(game)
    final = rules.from_json(state)
    return [rules.team_of(final, seat) for seat in range(seats)]


def ladder_weight(game: str, final_state: dict | None, seat: int, options: dict | None = None) -> float:
    """How much a ladder match counts toward its level: 1, except where the deal picks the teams in secret and the
    candidate plays one seat of each in turn (docs/architecture.md, "Tournaments: seating and seeds"). There it is
    seats / (2 × the size of the candidate's team), so each team weighs half of a set and a candidate exactly as
    strong as the level scores 50% however uneven the teams (6 villagers, 2 wolves)."""
    rules = get_game(game)
    if not rules.teams_dealt(options or {}) or final_state is None:
        return 1.0
    final = rules.from_json(final_state)
    sides = [rules.team_of(final, other) for other in range(rules.num_players)]
    return rules.num_players / (2 * sides.count(sides[seat]))


def ladder_records(tournament: Tournament, game: str, candidate: str, *, shown: bool = False) -> list[Record]:
    """The candidate's (wins, draws, losses) per ladder level so far, bottom-up, each match by its `ladder_weight`;
    with `shown`, only matches whose set is over (what pages may show: `matches_without_secrets`)."""
    by_level: dict[int, list[float]] = {}
    matches = tournament.matches.filter(game=game, record__ladder__candidate=candidate, status=Match.Status.FINISHED)
    if shown:
        matches = matches_without_secrets(matches)
    for match in matches.prefetch_related("seats__agent_version__agent"):
        level = match.record["ladder"]["level"]
        seat = next(s for s in match.seats.all() if s.agent_version.agent.slug == candidate)
        counts = by_level.setdefault(level, [0, 0, 0])
        counts[{1.0: 0, 0.5: 1, 0.0: 2}[seat.score]] += ladder_weight(game, match.state, seat.index, match.options)
    return [Record(*by_level[level]) for level in sorted(by_level)]


def draw_rate_levels(game: str, top_level: int | None = None) -> frozenset[int]:
    """Tic-tac-toe's perfect top bot (at `top_level`, default its ladder's top) is rated by the draw-rate rule
    (BotzoneBench)."""
    top = len(ladder(game)) - 1 if top_level is None else top_level
    return frozenset({top}) if game == "tic-tac-toe" else frozenset()


def ladder_levels(tournament: Tournament, game: str) -> list[int]:
    """The levels `game`'s climb in `tournament` plays, as indexes into its bot ladder: the tournament's ladder
    profile (an evaluation protocol's, e.g. BotzoneBench's), else every level."""
    return list((tournament.config.get("ladder_levels") or {}).get(game) or range(len(ladder(game))))


def ladder_standing(tournament: Tournament, game: str, candidate: str, *, shown: bool = False) -> Standing:
    """The candidate's standing so far on `game`'s bot ladder in a ladder tournament (over its `ladder_levels`):
    records per level, rating (`shown`: as `ladder_records`)."""
    records = ladder_records(tournament, game, candidate, shown=shown)
    top = len(ladder_levels(tournament, game)) - 1
    rating = ladder_rating(records, top_level=top, draw_rate_levels=draw_rate_levels(game, top))
    return Standing(tuple(records), rating)


#: Tournaments the first run queues (`manage.py seed`) are named this prefix + the game.
FIRST_RUN_PREFIX = "first-run-"


def first_run_progress() -> dict[str, int] | None:
    """The first run's seeding matches, {"done": finished or aborted, "total": all}; None when none is left to play."""
    matches = Match.objects.filter(tournament__slug__startswith=FIRST_RUN_PREFIX)
    total = matches.count()
    done = matches.filter(status__in=[Match.Status.FINISHED, Match.Status.ABORTED]).count()
    return {"done": done, "total": total} if done < total else None


def tournament_progress(tournament: Tournament) -> dict[str, Any]:
    """Counts by status and the standings so far (ladder: level and progress; else points), counting only matches
    whose set is over: a match's result tells the deal its twins still to play share."""
    counts = dict(tournament.matches.values_list("status").annotate(n=Count("pk")).values_list("status", "n"))
    total = sum(counts.values())
    standings = []
    if tournament.format == Tournament.Format.LADDER:
        for game in tournament.config["games"]:
            for slug in tournament.config["agents"]:
                standing = ladder_standing(tournament, game, slug, shown=True)
                rating = standing.rating
                standings.append(
                    {
                        "game": game,
                        "agent": slug,
                        "level": rating.level,
                        "progress": rating.progress,
                        "topped": rating.topped,
                        "summary": str(standing),
                    }
                )
    else:
        points: dict[tuple[str, str], list[float]] = {}
        settled = matches_without_secrets(tournament.matches.all())
        seats = Seat.objects.filter(match__in=settled, score__isnull=False)
        for game, slug, score in seats.values_list("match__game", "agent_version__agent__slug", "score"):
            points.setdefault((game, slug), []).append(score)
        for (game, slug), scores in sorted(points.items(), key=lambda kv: (kv[0][0], -sum(kv[1]))):
            standings.append(
                {
                    "game": game,
                    "agent": slug,
                    "points": sum(scores),
                    "games": len(scores),
                    "summary": f"{sum(scores):g} points from {len(scores)} games",
                }
            )
    return {
        "tournament": tournament.slug,
        "format": tournament.format,
        "status": tournament.status,
        "fixed_seeds": tournament.fixed_seeds,
        "total": total,
        "done": counts.get(Match.Status.FINISHED, 0) + counts.get(Match.Status.ABORTED, 0),
        "running": counts.get(Match.Status.RUNNING, 0),
        "pending": counts.get(Match.Status.PENDING, 0),
        "aborted": counts.get(Match.Status.ABORTED, 0),
        # Running, but waiting for a model server that is not answering (arena.record.turns).
        "paused": tournament.matches.filter(status=Match.Status.RUNNING).exclude(paused_until=None).count(),
        "standings": standings,
    }


def matches_filtered(
    matches: QuerySet[Match],
    *,
    game: str = "",
    agent: str = "",
    tournament: str = "",
    status: str = "",
    since: datetime | None = None,
    until: datetime | None = None,
) -> QuerySet[Match]:
    """`matches` narrowed by each filter given (an empty one means any); `since`/`until` bound finished_at."""
    lookups = {
        "game": game,
        "seats__agent_version__agent__slug": agent,
        "tournament__slug": tournament,
        "status": status,
        "finished_at__gte": since,
        "finished_at__lt": until,
    }
    return matches.filter(**{lookup: value for lookup, value in lookups.items() if value})


def match_list(
    viewer: Viewer, *, game: str = "", agent: str = "", status: str = "", tournament: str = ""
) -> QuerySet[Match]:
    """The matches `viewer` may know of (`matches_visible_to`), newest first, filtered as the match list asks."""
    matches = Match.objects.select_related("tournament").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("agent_version__agent").order_by("index"))
    )
    matches = matches_visible_to(viewer, matches)
    return matches_filtered(matches, game=game, agent=agent, status=status, tournament=tournament).distinct()


def match_state_at(match: Match, ply: int) -> Any:
    """The game state before decision `ply` (or the current state for ply == match.ply)."""
    game = get_game(match.game)
    if ply >= match.ply:
        return game.from_json(match.state)
    return game.from_json(match.decisions.get(ply=ply).state_before)


def agent_game_records(agent: Agent) -> list[dict[str, Any]]:
    """Per game: matches, wins, draws, losses and mean decision time of `agent`, over the matches whose set is over."""
    settled = matches_without_secrets(Match.objects.filter(seats__agent_version__agent=agent))
    seats = Seat.objects.filter(agent_version__agent=agent, score__isnull=False, match__in=settled)
    rows = (
        seats.values("match__game")
        .annotate(
            # Distinct matches: an agent holding several seats of a team played one match, not several.
            matches=Count("match", distinct=True),
            wins=Count("match", filter=Q(score=1.0), distinct=True),
            draws=Count("match", filter=Q(score=0.5), distinct=True),
            losses=Count("match", filter=Q(score=0.0), distinct=True),
        )
        .order_by("match__game")
    )
    return [
        {
            "game": row["match__game"],
            "matches": row["matches"],
            "wins": row["wins"],
            "draws": row["draws"],
            "losses": row["losses"],
            "win_rate": row["wins"] / (row["wins"] + row["losses"]) if row["wins"] + row["losses"] else None,
        }
        for row in rows
    ]


def adaptive_intervals(matches, slugs: list[str], rounds: int = 200) -> dict[str, tuple[float, float, float]]:
    """Quick Bradley–Terry (rating, low, high) per agent on the Elo scale, for adaptive scheduling."""
    index = {slug: i for i, slug in enumerate(slugs)}
    rows, played = [], 0
    for match in matches.prefetch_related("seats__agent_version__agent"):
        agents = [index.get(s.agent_version.agent.slug) for s in sorted(match.seats.all(), key=lambda s: s.index)]
        sides = seat_sides(match.game, match.state, len(agents))
        pairs = [p for p in match_pairs(agents, sides, match.scores) if p.a is not None and p.b is not None]
        rows += [(p.a, p.b, p.score_a, p.weight) for p in pairs]
        played += bool(pairs)
    if not rows:
        return dict.fromkeys(slugs, (0.0, -np.inf, np.inf))
    a, b, score, weight = (np.array(column) for column in zip(*rows, strict=True))
    fit = bradley_terry.fit(a, b, score, n_agents=len(slugs), weights=weight)
    boot = bradley_terry.bootstrap(
        a, b, score, n_agents=len(slugs), rounds=rounds, rng=np.random.default_rng(0), weights=weight, draws=played
    )
    scale = bradley_terry.ELO_PER_NAT
    return {slug: (scale * fit.strengths[i], scale * boot.lower[i], scale * boot.upper[i]) for slug, i in index.items()}
