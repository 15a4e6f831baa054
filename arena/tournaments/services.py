"""Tournament formats: who plays whom, with which seeds, and what happens after each match.

Writes go through `arena.record.services`; this module decides the schedule.
"""

from __future__ import annotations

import itertools
from typing import Any

from django.db import transaction
from django.utils import timezone

from arena.models import Agent, Match, Tournament
from arena.record.errors import checked_field
from arena.record.selectors import FIRST_RUN_PREFIX, adaptive_intervals, ladder_levels, ladder_standing
from arena.record.services import (
    SEED_RANGE,
    ServiceError,
    match_create,
    new_seed,
    seating_refusal,
    secret_seeds,
    variant_options,
)
from arena.runner.tasks import enqueue_matches
from arena.tournaments import first_run
from arena.tournaments.first_run import FIRST_RUN_LEVELS
from games import get_game
from games.bots import ladder

#: BotzoneBench §4.1: 16 games per seat per level for perfect information, 32 where chance is involved.
LADDER_GAMES_PER_SEAT = {False: 16, True: 32}
#: Transient failures (provider down) re-run a match at most this many times.
MAX_RERUNS = 2


def seatings(
    game: str, options: dict[str, Any], a: Agent, b: Agent, partner: Agent | None, *, one_way: bool = False
) -> list[list]:
    """The seat orders of one duplicate set, a function of public facts only (game, options, agents), never of a deal.

    Where sides follow from seats (two-seat games, Codenames, Fight the Landlord, GameBench Pit), `a` plays each side
    in turn and `b` the other: without a partner `a` fills every seat of its side; with one, `a` takes each seat of
    its side in turn and the partner fills the rest, so seat and role luck balance out. Where the deal picks the
    teams in secret (`Game.hidden_teams`), `a` takes each seat in turn, alone, with `b` in every other seat, and then
    (unless `one_way`: a ladder, where only the candidate's results count) `b` alone the same way: over the set each
    holds every role of the deal once, and who sits where says nothing about who is on which team.
    """
    rules = get_game(game)
    seats = range(rules.num_players)
    if rules.teams_dealt(options):
        pairs = [(a, b)] if one_way else [(a, b), (b, a)]
        return [[alone if seat == mine else rest for seat in seats] for alone, rest in pairs for mine in seats]
    start = rules.initial_state(seed=0, **options)  # sides do not depend on the deal here (`teams_dealt` is False)
    sides = [rules.team_of(start, seat) for seat in seats]
    orders = []
    for side in sorted(set(sides)):
        mine = [seat for seat in seats if sides[seat] == side]
        for seat_of_a in mine if partner else mine[:1]:
            orders.append([(a if seat == seat_of_a else partner or a) if sides[seat] == side else b for seat in seats])
    return orders


def remembers_deals(agent: Agent) -> bool:
    """Whether an agent may carry what it saw in one match into another: a person, or an outside agent (a remote
    one, or any registered through the API). Such agents never play both halves of a duplicate pair."""
    return agent.kind in (Agent.Kind.HUMAN, Agent.Kind.REMOTE) or agent.owner_id is not None


def _duplicate_sets(
    tournament: Tournament,
    game: str,
    a: Agent,
    b: Agent,
    sets: int,
    extra: dict[str, Any],
    offset: int = 0,
    matches: int | None = None,
) -> list[int]:
    """`sets` duplicate sets of `a` against `b` (and the partner) over sides and seats (`seatings`): each set's
    matches share a seed and are linked to its first as its duplicates. When an agent remembers deals
    (`remembers_deals`) every match gets a fresh seed of its own instead, so no match replays a deal it has seen.
    `matches` instead plays that many, set after set, the last set cut short where the seat orders do not divide
    it (its first orders then play once more than the others), and at least one whole set. Returns their ids."""
    config = tournament.config
    options = config.get("options", {})
    partner = Agent.objects.get(slug=config["partner"]) if config.get("partner") else None
    orders = seatings(game, options, a, b, partner, one_way=tournament.format == Tournament.Format.LADDER)
    if matches is not None:
        matches = max(matches, len(orders))
        sets = -(-matches // len(orders))
    twins = not any(remembers_deals(agent) for agent in (a, b, partner) if agent)
    seeds = _set_seeds(tournament, sets, offset) if twins else [new_seed() for _ in range(sets * len(orders))]
    fixed = {"fixed_seeds": True} if tournament.fixed_seeds else {}
    created = []
    for number in range(sets):
        first = None
        for index, agents in enumerate(orders):
            if matches is not None and number * len(orders) + index >= matches:
                return created
            match = match_create(
                game=game,
                agents=agents,
                seed=seeds[number] if twins else seeds[number * len(orders) + index],
                options=options,
                tournament=tournament,
                policies=config.get("policies", {}),
                duplicate_of=first,
                extra_record={**config.get("record", {}), **extra, **fixed},
            )
            first = (first or match) if twins else None
            created.append(match.pk)
    return created


@transaction.atomic
def tournament_create(
    *,
    slug: str,
    name: str,
    format: str,
    games: list[str],
    agents: list[Agent],
    games_per_seat: int | None = None,
    first_seed: int | None = None,
    policies: dict[str, Any] | None = None,
    opponents: list[Agent] = (),
    budget: int = 200,
    target_width: float = 100.0,
    variant: str = "",
    options: dict[str, Any] | None = None,
    partner: Agent | None = None,
    record: dict[str, Any] | None = None,
    seed_set: str = "",
    level_matches: tuple[int, int] | None = None,
    ladder_levels: dict[str, list[int]] | None = None,
    pairing_matches: dict[str, int] | None = None,
) -> Tournament:
    """A tournament and its first matches, every one under the same variant and options.

    round_robin: every pair of agents on every game, each seed played in both seat orders.
    ladder: each agent climbs each game's bot ladder from Lv0 (BotzoneBench §4.5).
    adversarial: each agent against each of a fixed set of `opponents`, both orders (AdvGameBench §3.1).
    adaptive: one seat-swapped pair per pairing, then more pairs where they most narrow the
    Bradley–Terry intervals, until every interval is under `target_width` or `budget` matches.
    Games of more than two seats play each pairing as sides (`seatings`), with `partner` filling
    the seats of the agent's side it does not hold (not in games that deal their teams in secret).
    Every duplicate set takes a fresh random seed, unless `first_seed` asks for consecutive seeds from it to
    reproduce a run: the tournament and its matches are then marked `fixed_seeds` (anyone who knows the seeds
    knows the deals), and only agents that cannot remember deals (`remembers_deals`) may play it. `seed_set`
    instead takes the duplicate sets' seeds from the site's secret seed set of that name
    (`arena.record.services.secret_seeds`): every tournament naming it deals the same hands, unknown to the players
    (an agent that remembers deals still gets fresh seeds). `level_matches` (ladder): the matches of each level,
    (at Lv0, at each level above), pooled over the seatings of a duplicate set, instead of `games_per_seat` sets.
    `ladder_levels` (ladder): per game, the bot ladder's levels its climb plays (a profile; default all of them).
    `pairing_matches` (adversarial): per opponent slug, the matches of each candidate's pairing with it per game,
    pooled over the seatings (DSGBench's 10 per scenario, GameBench's 5 against random), instead of
    `games_per_seat` sets; never fewer than one set, so every seat is held.
    `record` is added to every match's record (an evaluation's protocol label, so its results say under which
    protocol they were played).
    """
    slug, name = checked_field(Tournament, "slug", slug), checked_field(Tournament, "name", name)
    if Tournament.objects.filter(slug=slug).exists():
        raise ServiceError(f"A tournament called {slug!r} already exists.")
    if format not in Tournament.Format.values:
        raise ServiceError(f"Unknown format {format!r}; use one of {', '.join(Tournament.Format.values)}.")
    chosen = {**(variant_options(games[0], variant) if games and variant else {}), **(options or {})}
    everyone = [*agents, *opponents, *([partner] if partner else [])]
    for game in games:
        rules = get_game(game)
        if variant and variant not in rules.variants:
            raise ServiceError(f"{rules.name} has no variant {variant!r}.")
        try:
            opening = rules.initial_state(seed=first_seed or 0, **chosen)
        except (TypeError, ValueError) as error:
            raise ServiceError(f"Invalid options for {game}: {error}") from None
        if why := seating_refusal(rules, opening, everyone):  # a ladder's or adaptive run's later matches too
            raise ServiceError(why)
        if partner and rules.teams_dealt(chosen):
            raise ServiceError(f"{rules.name} deals its teams in secret: each entrant plays one seat, with no partner.")
    if first_seed is not None and not 0 <= first_seed < SEED_RANGE:
        raise ServiceError(f"A fixed first seed is a whole number from 0 to {SEED_RANGE - 1}.")
    if first_seed is not None and any(remembers_deals(agent) for agent in everyone):
        raise ServiceError("Fixed seeds are for reproducing runs; people and outside agents always get fresh seeds.")
    if format == Tournament.Format.ROUND_ROBIN and len(agents) < 2:
        raise ServiceError("A round robin needs at least two agents.")
    if format == Tournament.Format.LADDER and not agents:
        raise ServiceError("A ladder evaluation needs at least one candidate.")
    if format == Tournament.Format.ADVERSARIAL and not (agents and opponents):
        raise ServiceError("An adversarial matrix needs candidates and a fixed set of opponents.")
    config = {
        "games": games,
        "games_per_seat": games_per_seat,
        "first_seed": first_seed,
        "policies": policies or {},
        "agents": [a.slug for a in agents],
        "opponents": [a.slug for a in opponents],
        "budget": budget,
        "target_width": target_width,
        "variant": variant,
        "options": chosen,
        "partner": partner.slug if partner else "",
        "record": record or {},
        "seed_set": seed_set,
        "level_matches": list(level_matches) if level_matches else None,
        "pairing_matches": pairing_matches,
        "ladder_levels": {game: list(levels) for game, levels in (ladder_levels or {}).items()},
    }
    tournament = Tournament.objects.create(slug=slug, name=name, format=format, config=config)
    tournament.entrants.set([a.current_version() for a in agents])
    if format in (Tournament.Format.ROUND_ROBIN, Tournament.Format.ADAPTIVE):
        seeds = 1 if format == Tournament.Format.ADAPTIVE else (games_per_seat or 2)
        for game, (a, b) in itertools.product(games, itertools.combinations(agents, 2)):
            _duplicate_sets(tournament, game, a, b, seeds, {})
    elif format == Tournament.Format.ADVERSARIAL:
        for game, a, b in itertools.product(games, agents, opponents):
            matches = (pairing_matches or {}).get(b.slug)
            _duplicate_sets(tournament, game, a, b, games_per_seat or 1, {}, matches=matches)
    else:
        for game, candidate in itertools.product(games, agents):
            _schedule_ladder_level(tournament, game, candidate, level=0)
    return tournament


def first_duplicate_sets(*, format: str, games: list[str], agents: int, games_per_seat: int | None) -> int:
    """How many duplicate sets (one seed's seat-swapped matches) `tournament_create` makes at once: what a form
    bounds, since they are all written in its one transaction. A ladder counts its first level only."""
    pairs = agents * (agents - 1) // 2
    if format == Tournament.Format.ROUND_ROBIN:
        return len(games) * pairs * (games_per_seat or 2)
    if format == Tournament.Format.ADAPTIVE:
        return len(games) * pairs
    if format == Tournament.Format.LADDER:
        return sum(agents * (games_per_seat or LADDER_GAMES_PER_SEAT[get_game(game).chance]) for game in games)
    return 0


def _set_seeds(tournament: Tournament, count: int, offset: int = 0) -> list[int]:
    """`count` seeds of duplicate sets: consecutive from a fixed `first_seed`, else from the tournament's
    `seed_set` (both after `offset`), else fresh random ones."""
    config = tournament.config
    if config["first_seed"] is not None:
        return list(range(config["first_seed"] + offset, config["first_seed"] + offset + count))
    if config.get("seed_set"):
        return secret_seeds(config["seed_set"], offset, count)
    return [new_seed() for _ in range(count)]


def _ladder_games_per_seat(tournament: Tournament, game: str) -> int:
    return tournament.config.get("games_per_seat") or LADDER_GAMES_PER_SEAT[get_game(game).chance]


def _schedule_ladder_level(tournament: Tournament, game: str, candidate: Agent, level: int) -> list[int]:
    bot = Agent.objects.get(slug=ladder(game)[ladder_levels(tournament, game)[level]].slug)
    extra = {"ladder": {"candidate": candidate.slug, "level": level}}
    sets = _ladder_games_per_seat(tournament, game)
    if level_matches := tournament.config.get("level_matches"):
        config = tournament.config
        partner = Agent.objects.get(slug=config["partner"]) if config.get("partner") else None
        orders = seatings(game, config.get("options", {}), candidate, bot, partner, one_way=True)
        sets = max(1, level_matches[min(level, 1)] // len(orders))
    return _duplicate_sets(tournament, game, candidate, bot, sets, extra)


def _rerun_transient_failures(tournament: Tournament) -> list[int]:
    """Matches aborted by provider trouble are played again, at most MAX_RERUNS times each; the new matches' ids."""
    created = []
    failed = tournament.matches.filter(status=Match.Status.ABORTED, record__transient_failure=True)
    for match in failed.prefetch_related("seats__agent_version__agent"):
        reruns = match.record.get("rerun", 0)
        if reruns >= MAX_RERUNS or tournament.matches.filter(record__rerun_of=match.pk).exists():
            continue
        kept = ("ladder", "fixed_seeds", *tournament.config.get("record", {}))
        keep = {k: match.record[k] for k in kept if k in match.record}
        agents = [seat.agent_version.agent for seat in match.seats.order_by("index")]
        fresh = any(remembers_deals(agent) for agent in agents)  # it has seen this deal: a new one
        rerun = match_create(
            game=match.game,
            agents=agents,
            seed=new_seed() if fresh else match.seed,
            options=match.options,
            tournament=tournament,
            policies=match.record.get("policies"),
            duplicate_of=None if fresh else match.duplicate_of,
            extra_record={**keep, "rerun_of": match.pk, "rerun": reruns + 1},
        )
        created.append(rerun.pk)
    return created


def _schedule_most_informative(tournament: Tournament) -> list[int]:
    """Adaptive: add a seat-swapped pair where it narrows the widest Bradley–Terry interval most; its ids."""
    played = tournament.matches.filter(status=Match.Status.FINISHED)
    if tournament.matches.count() + 2 > tournament.config["budget"]:
        return []
    widest = None
    for game in tournament.config["games"]:
        intervals = adaptive_intervals(played.filter(game=game), tournament.config["agents"])
        for slug, (rating, low, high) in intervals.items():
            width = high - low
            if width > tournament.config["target_width"] and (widest is None or width > widest[0]):
                widest = (width, game, slug, rating, intervals)
    if widest is None:
        return []  # every interval is narrow enough
    _, game, slug, rating, intervals = widest
    # The most informative opponent is the one closest in strength (p(1 − p) is largest near ½).
    partner = min((s for s in intervals if s != slug), key=lambda s: abs(intervals[s][0] - rating))
    found = {a.slug: a for a in Agent.objects.filter(slug__in=[slug, partner])}
    offset = tournament.matches.filter(game=game).count()
    return _duplicate_sets(tournament, game, found[slug], found[partner], 1, {"adaptive": True}, offset=offset)


@transaction.atomic
def tournament_advance(*, tournament: Tournament) -> list[int]:
    """After matches finish: schedule what comes next, or close the tournament.

    Returns the ids of newly created matches (for the caller to run or enqueue).
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        return []
    open_statuses = (Match.Status.PENDING, Match.Status.RUNNING)
    created = _rerun_transient_failures(tournament)
    if tournament.format == Tournament.Format.LADDER:
        for game, slug in itertools.product(tournament.config["games"], tournament.config["agents"]):
            mine = tournament.matches.filter(game=game, record__ladder__candidate=slug)
            if mine.filter(status__in=open_statuses).exists():
                continue
            level = ladder_standing(tournament, game, slug).level_to_play
            if level is not None:
                created += _schedule_ladder_level(tournament, game, Agent.objects.get(slug=slug), level)
    if tournament.format == Tournament.Format.ADAPTIVE and not tournament.matches.filter(status__in=open_statuses):
        created += _schedule_most_informative(tournament)
    if created and tournament.config.get("queued"):
        priority = tournament.config.get("priority", 0)
        transaction.on_commit(lambda: enqueue_matches(created, priority=priority))
    if not created and not tournament.matches.filter(status__in=open_statuses).exists():
        tournament.status = Tournament.Status.FINISHED
        tournament.finished_at = timezone.now()
        tournament.save(update_fields=["status", "finished_at"])
    elif tournament.status == Tournament.Status.CREATED:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return created


def tournament_advance_on_match_finished(sender: type[Match], *, match: Match, **kwargs: Any) -> None:
    """`match_finished` receiver: a tournament's match ended, so schedule what follows or close the tournament."""
    if match.tournament_id:  # `tournament_advance` locks and reads it: its key is all it needs
        tournament_advance(tournament=Tournament(pk=match.tournament_id))


@transaction.atomic
def tournament_queue(*, tournament: Tournament, priority: int = 0) -> list[int]:
    """Hand the tournament to workers: its pending matches are queued, and so will be those it schedules later,
    all at `priority` (below 0: after every other queued match, as the first-run seeding is)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    tournament.config = {**tournament.config, "queued": True, "priority": priority}
    tournament.save(update_fields=["config"])
    tournament_advance(tournament=tournament)
    pending = list(tournament.matches.filter(status=Match.Status.PENDING).values_list("pk", flat=True))
    transaction.on_commit(lambda: enqueue_matches(pending, priority=priority))
    return pending


#: The first run's record: tournaments named FIRST_RUN_PREFIX + game, levels Lv0..FIRST_RUN_LEVELS-1 of each
#: two-seat ladder in a round robin (sized in `first_run`), queued below everything else so a person's game never
#: waits on them.
FIRST_RUN_PRIORITY = -50


@transaction.atomic
def first_run_tournaments_create(*, games: list[str], matches: int, first_seed: int | None = None) -> list[Tournament]:
    """Queue at most `matches` bot-vs-bot matches over `games`' two-seat ladders, each game's round robin sized by
    `first_run.games_per_seat` (idempotent: a game that has its first-run tournament is skipped), on random seeds
    unless `first_seed` fixes them (`tournament_create`). Returns the tournaments created."""
    created = []
    for game, seeds in first_run.games_per_seat(games, matches).items():
        slug = f"{FIRST_RUN_PREFIX}{game}"
        if Tournament.objects.filter(slug=slug).exists():
            continue
        levels = list(Agent.objects.filter(slug__in=[f"{game}-lv{n}" for n in range(FIRST_RUN_LEVELS)]))
        tournament = tournament_create(
            slug=slug,
            name=f"First run: {get_game(game).name} levels 0–{FIRST_RUN_LEVELS - 1}",
            format=Tournament.Format.ROUND_ROBIN,
            games=[game],
            agents=sorted(levels, key=lambda a: a.slug),
            games_per_seat=seeds,
            first_seed=first_seed,
        )
        tournament_queue(tournament=tournament, priority=FIRST_RUN_PRIORITY)
        created.append(tournament)
    return created


@transaction.atomic
def tournament_cancel(*, tournament: Tournament) -> Tournament:
    """Stop scheduling; pending matches are aborted, running ones finish."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    tournament.matches.filter(status=Match.Status.PENDING).update(
        status=Match.Status.ABORTED, termination="tournament cancelled", finished_at=timezone.now()
    )
    tournament.status = Tournament.Status.CANCELLED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    return tournament
