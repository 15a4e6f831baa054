"""Evaluations: one agent under one paper's protocol, scheduled as tournaments (one per game or mode).

An evaluation is found again by its key (agent, protocol and the options that change what is played), so
creating it twice adds nothing and creating it again after a crash adds only the parts still missing.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from arena.agents.llm_config import SCAFFOLDS, with_defaults
from arena.evaluate.protocols import (
    LADDER,
    NAMED_BY_RESEARCHER,
    PROTOCOLS,
    TOP_BOT,
    Part,
    Protocol,
)
from arena.evaluate.selectors import evaluation_spend, evaluation_tournaments
from arena.models import Agent, Match, Seat, Tournament
from arena.record.agents import agent_ensure, bots_ensure, companion_slug
from arena.record.services import ServiceError
from arena.tournaments.services import (
    LADDER_GAMES_PER_SEAT,
    tournament_cancel,
    tournament_create,
    tournament_queue,
)
from games import get_game
from games.bots import ladder


@dataclass(frozen=True)
class Plan:
    """What an evaluation plays once the options are applied: the parts, opponents, scaffold and what changed."""

    protocol: Protocol
    parts: tuple[Part, ...]
    opponents: tuple[str, ...]
    scaffold: str
    games_per_seat: int | None
    changed: tuple[str, ...]
    #: The models evaluated before this one in its cohort: its opponents too (`Protocol.cohort`).
    cohort: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """The protocol's name as results show it: "BotzoneBench protocol (changed: games)"."""
        changed = f" (changed: {', '.join(self.changed)})" if self.changed else ""
        return f"{self.protocol.paper} protocol{changed}"


def evaluation_plan(
    protocol: str,
    *,
    games: list[str] | None = None,
    opponents: list[str] | None = None,
    scaffold: str | None = None,
    games_per_seat: int | None = None,
    cohort: list[str] | None = None,
) -> Plan:
    """The protocol narrowed or changed by the options; ServiceError when an option cannot apply."""
    if protocol not in PROTOCOLS:
        raise ServiceError(f"Unknown protocol {protocol!r}; use one of {', '.join(PROTOCOLS)}.")
    chosen = PROTOCOLS[protocol]
    changed = []
    parts = chosen.parts
    if games:
        unknown = [g for g in games if g not in chosen.games]
        if unknown:
            raise ServiceError(
                f"{chosen.paper}'s protocol has no {', '.join(unknown)}; its games: {', '.join(chosen.games)}."
            )
        parts = tuple(p for p in chosen.parts if p.game in games)
        if set(games) != set(chosen.games):
            changed.append("games")
    if opponents:
        if chosen.opponents != NAMED_BY_RESEARCHER:
            changed.append("opponents")
    elif chosen.opponents == NAMED_BY_RESEARCHER and not cohort:
        raise ServiceError(
            f"{chosen.paper}'s protocol plays other models ({chosen.sources['opponents']}); "
            "evaluate them together (evaluate A B C) or name the agents to stand in for them with --opponents."
        )
    if cohort and not chosen.cohort:
        raise ServiceError(f"{chosen.paper}'s protocol does not play the evaluated models against each other.")
    scaffold = scaffold or chosen.scaffolds[0]
    if scaffold not in SCAFFOLDS:
        raise ServiceError(f"Unknown scaffold {scaffold!r}; use one of {', '.join(SCAFFOLDS)}.")
    if scaffold not in chosen.scaffolds:
        changed.append("scaffold")
    if games_per_seat is not None:
        if games_per_seat < 1:
            raise ServiceError("--games-per-seat must be at least 1.")
        if games_per_seat != chosen.games_per_seat:
            changed.append("games per seat")
    return Plan(chosen, parts, tuple(opponents or ()), scaffold, games_per_seat, tuple(changed), tuple(cohort or ()))


def evaluation_key(agent: Agent, plan: Plan, first_seed: int | None = None) -> str:
    """The evaluation's identity: the agent, the protocol and everything that changes what is played (fixed seeds
    asked for to reproduce a run make another evaluation; otherwise every part deals from the site's secret seed
    set of its protocol and game, `secret_seeds`, the same for every agent evaluated on it)."""
    identity = {
        "agent": agent.slug,
        "protocol": plan.protocol.key,
        "parts": [[p.game, p.variant] for p in plan.parts],
        "opponents": sorted(plan.opponents),
        "scaffold": plan.scaffold,
        "games_per_seat": plan.games_per_seat,
        "first_seed": first_seed,
        **({"cohort": sorted(plan.cohort)} if plan.cohort else {}),
    }
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:10]


def seat_agent(agent: Agent, plan: Plan, *, owner=None) -> Agent:
    """The agent as the protocol seats it: an LLM under the protocol's scaffold, retries, temperature and time for
    one decision.

    When its config already says so, the agent itself; otherwise a companion agent `<slug>--<protocol>-<scaffold>`
    (a slug nobody may register) owned by the evaluation's `owner` and holding the changed config, so the agent's
    own config (and its other games) stay as they are. A companion of another owner is refused, never taken over."""
    if agent.kind != Agent.Kind.LLM:
        return agent
    protocol = plan.protocol
    overlay: dict[str, Any] = {"scaffold": plan.scaffold}
    if protocol.retries is not None:
        overlay["retries"] = protocol.retries
    if protocol.temperature is not None:
        overlay["temperature"] = protocol.temperature
    if protocol.decision_s is not None:
        overlay["decision_budget_s"] = protocol.decision_s
    config = agent.current_version().config
    if all(with_defaults(config).get(k) == v for k, v in overlay.items()):
        return agent
    return agent_ensure(
        slug=companion_slug(agent, f"{protocol.key}-{plan.scaffold}"),
        name=f"{agent.name} ({protocol.paper} protocol, {plan.scaffold})"[:120],
        kind=Agent.Kind.LLM,
        config={**config, **overlay},
        description=f"{agent.slug} as {protocol.paper}'s protocol seats it (docs/evaluate.md).",
        owner=owner,
    )


def _part_opponents(plan: Plan, part: Part, owner) -> list[Agent]:
    """The protocol's opponents (a bot, or the named agents) and the cohort's earlier models, as it seats them."""
    kind = plan.protocol.opponents if not plan.opponents else NAMED_BY_RESEARCHER
    if kind == LADDER:
        return []
    bots = ladder(part.game)
    base = (
        [Agent.objects.get(slug=(bots[-1] if kind == TOP_BOT else bots[0]).slug)] if kind != NAMED_BY_RESEARCHER else []
    )
    slugs = [s for s in (*plan.opponents, *plan.cohort) if s not in {b.slug for b in base}]
    found = {a.slug: a for a in Agent.objects.filter(slug__in=slugs)}
    missing = [s for s in slugs if s not in found]
    if missing:
        raise ServiceError(f"Unknown agent(s): {', '.join(missing)}.")
    return [*base, *(seat_agent(found[s], plan, owner=owner) for s in dict.fromkeys(slugs))]


def _part_slug(key: str, part: Part) -> str:
    return f"eval-{key}-{part.game}" + (f"-{part.variant}" if part.variant else "")


def _pairing_matches(plan: Plan, part: Part, opponents: list[Agent]) -> dict[str, int] | None:
    """Matches per game with each opponent where the paper counts matches, not seats (`Protocol.pairing_matches`,
    `Part.matches`): the protocol's bot and the models it plays. None when `--games-per-seat` replaces them."""
    counts = dict(plan.protocol.pairing_matches or {})
    if part.matches is not None:
        counts["bot"] = part.matches
    if not counts or plan.games_per_seat:
        return None
    bots = {b.slug for b in ladder(part.game)}
    found = {o.slug: counts.get("bot" if o.slug in bots else "model") for o in opponents}
    return {slug: n for slug, n in found.items() if n is not None} or None


def _opponents_round_robin(key: str, plan: Plan, part: Part, first_seed: int | None, owner) -> Tournament | None:
    """The named opponents' round robin in one part (`Protocol.opponents_round_robin`): found or created. Played
    once per cohort, by its first evaluation (the later ones' plans list the earlier agents)."""
    if not plan.protocol.opponents_round_robin or plan.cohort or len(set(plan.opponents)) < 2:
        return None
    slug = _part_slug(key, part) + "-opponents"
    if tournament := Tournament.objects.filter(slug=slug).first():
        return tournament
    players = _part_opponents(plan, part, owner)
    mode = f" ({part.label})" if part.label else ""
    return tournament_create(
        slug=slug,
        name=f"{plan.label}: opponents' round robin — {get_game(part.game).name}{mode}"[:160],
        format="round_robin",
        games=[part.game],
        agents=players,
        games_per_seat=plan.games_per_seat or plan.protocol.games_per_seat,
        first_seed=first_seed,
        policies={"fallback": plan.protocol.fallback},
        variant=part.variant,
        options=dict(part.options),
        record={"evaluation": {"key": key, "protocol": plan.protocol.key, "label": plan.label}},
        seed_set="" if first_seed is not None else f"evaluate/{plan.protocol.key}/{part.game}/{part.variant}",
    )


@transaction.atomic
def evaluation_create(
    *,
    agent: Agent,
    protocol: str,
    games: list[str] | None = None,
    opponents: list[str] | None = None,
    scaffold: str | None = None,
    games_per_seat: int | None = None,
    budget_usd: float | None = None,
    budget_tokens: int | None = None,
    first_seed: int | None = None,
    cohort: list[str] | None = None,
    owner=None,
) -> tuple[str, list[Tournament]]:
    """The evaluation's key and tournaments: found when it exists, its missing parts created (idempotent).
    `owner` (the staff member who asked; None from the command line) owns the companion agents it seats. `cohort`:
    the models evaluated before this one together with it (`Protocol.cohort`), its opponents too.

    The budget is not part of its identity: asking again with another budget changes the budget only, and
    asking again without one keeps it."""
    plan = evaluation_plan(
        protocol, games=games, opponents=opponents, scaffold=scaffold, games_per_seat=games_per_seat, cohort=cohort
    )
    if agent.kind != Agent.Kind.LLM and scaffold:
        raise ServiceError(f"{agent.slug} is not a model; --scaffold applies to models only.")
    key = evaluation_key(agent, plan, first_seed)
    seated = seat_agent(agent, plan, owner=owner)
    protocol_obj = plan.protocol
    tournaments = []
    for index, part in enumerate(plan.parts):
        slug = _part_slug(key, part)
        record = {
            "key": key,
            "agent": agent.slug,
            "seated": seated.slug,
            "protocol": protocol_obj.key,
            "label": plan.label,
            "changed": list(plan.changed),
            "part": index,
            "scaffold": plan.scaffold,
            "opponents": list(plan.opponents),
            "cohort": list(plan.cohort),
            "budget_usd": budget_usd,
            "budget_tokens": budget_tokens,
        }
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is not None:  # a budget not given again stays as it was
            before = tournament.config.get("evaluation", {})
            for name, given in (("budget_usd", budget_usd), ("budget_tokens", budget_tokens)):
                record[name] = before.get(name) if given is None else given
        if tournament is None:
            bots_ensure(game=part.game)
            gps = plan.games_per_seat or protocol_obj.games_per_seat
            opponents = _part_opponents(plan, part, owner)
            format = protocol_obj.format
            if format == "ladder" and plan.opponents:  # named opponents instead of the ladder: a fixed matrix
                format = "adversarial"
                gps = gps or LADDER_GAMES_PER_SEAT[get_game(part.game).chance]
            mode = f" ({part.label})" if part.label else ""
            paper_counts = protocol_obj.level_matches and not plan.games_per_seat and format == "ladder"
            level_matches = protocol_obj.level_matches[get_game(part.game).chance] if paper_counts else None
            tournament = tournament_create(
                slug=slug,
                name=f"{plan.label}: {seated.slug} — {get_game(part.game).name}{mode}"[:160],
                format=format,
                games=[part.game],
                agents=[seated],
                opponents=opponents,
                games_per_seat=gps,
                first_seed=first_seed,
                policies={"fallback": protocol_obj.fallback},
                variant=part.variant,
                options=dict(part.options),
                record={"evaluation": {"key": key, "protocol": protocol_obj.key, "label": plan.label}},
                seed_set="" if first_seed is not None else f"evaluate/{protocol_obj.key}/{part.game}/{part.variant}",
                level_matches=level_matches,
                ladder_levels=(
                    {part.game: list(protocol_obj.ladder_levels[part.game])}
                    if protocol_obj.ladder_levels and not plan.opponents and part.game in protocol_obj.ladder_levels
                    else None
                ),
                pairing_matches=_pairing_matches(plan, part, opponents) if format == "adversarial" else None,
            )
        if tournament.config.get("evaluation") != record:
            tournament.config = {**tournament.config, "evaluation": record}
            tournament.save(update_fields=["config"])
        tournaments.append(tournament)
    for part in plan.parts:
        if round_robin := _opponents_round_robin(key, plan, part, first_seed, owner):
            if round_robin.config.get("evaluation") != {**record, "part": None}:
                round_robin.config = {**round_robin.config, "evaluation": {**record, "part": None}}
                round_robin.save(update_fields=["config"])
            tournaments.append(round_robin)
    return key, tournaments


def budget_reached(tournaments: list[Tournament], *, running: int = 0, spend: dict | None = None) -> str:
    """Why no new match may start ("" when one may): one more match, beside the `running` ones still to be paid
    for, at the mean spend so far would pass the budget."""
    evaluation = tournaments[0].config["evaluation"]
    limits = {"cost": evaluation.get("budget_usd"), "tokens": evaluation.get("budget_tokens")}
    if all(v is None for v in limits.values()):
        return ""
    spend = spend or evaluation_spend(tournaments)
    for what, limit in limits.items():
        if limit is None:
            continue
        spent = spend[what]
        projected = spent + (running + 1) * (spent / spend["finished"] if spend["finished"] else 0.0)
        if spent >= limit or projected > limit:
            unit = "US$" if what == "cost" else "tokens"
            return (
                f"budget reached: {spent:,.4g} {unit} spent over {spend['finished']} matches; "
                f"one more would pass the budget of {limit:,.4g} {unit}"
            )
    return ""


@transaction.atomic
def evaluation_queue(*, tournaments: list[Tournament]) -> list[int]:
    """Hand the evaluation to workers (unless its budget is reached). Returns the match ids newly queued.

    A tournament already handed over is left alone: its matches are in the queue, and its ladder queues what it
    schedules (a worker that died is `manage.py resume_matches`'s to recover)."""
    if budget_reached(tournaments):
        return []
    queued = []
    for tournament in tournaments:
        tournament.refresh_from_db()
        if tournament.config.get("queued"):
            continue
        if tournament.status not in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            queued += tournament_queue(tournament=tournament)
    return queued


def evaluation_hold_on_budget(sender: type[Match], *, match: Match, seat: int, **kwargs: Any) -> str:
    """`decision_due` receiver: the budget is a cap. Once the evaluated agent has spent it, its next decision is not
    asked for: the match is adjourned (the reason returned) and resumes when the budget is raised. So an
    evaluation spends at most its budget plus one decision per match in flight."""
    if not match.tournament_id or "evaluation" not in match.record:  # every match of an evaluation says so
        return ""  # asked before every model's decision: other tournaments' matches read nothing
    config = Tournament.objects.filter(pk=match.tournament_id).values_list("config", flat=True).first() or {}
    evaluation = config.get("evaluation")
    if not evaluation or (evaluation.get("budget_usd") is None and evaluation.get("budget_tokens") is None):
        return ""
    if not Seat.objects.filter(match_id=match.pk, index=seat, agent_version__agent__slug=evaluation["seated"]).exists():
        return ""
    spend = evaluation_spend(list(evaluation_tournaments(evaluation["key"])))
    for what, name, unit in (("cost", "budget_usd", "US$"), ("tokens", "budget_tokens", "tokens")):
        limit = evaluation.get(name)
        if limit is not None and spend[what] >= limit:
            return (
                f"budget reached: {spend[what]:,.4g} {unit} spent of {limit:,.4g}; "
                "the match resumes when the budget is raised"
            )
    return ""


def evaluation_stop_on_budget(sender: type[Match], *, match: Match, **kwargs: Any) -> None:
    """`match_finished` receiver: when a queued evaluation reaches its budget, its pending matches are cancelled."""
    if not match.tournament_id or "evaluation" not in match.record:  # every match of an evaluation says so
        return  # other tournaments' matches read nothing
    tournament = Tournament.objects.get(pk=match.tournament_id)
    evaluation = tournament.config.get("evaluation")
    if not evaluation or (evaluation.get("budget_usd") is None and evaluation.get("budget_tokens") is None):
        return
    tournaments = list(evaluation_tournaments(evaluation["key"]))
    if reason := budget_reached(tournaments):
        for each in tournaments:
            if each.config.get("queued") and each.status != Tournament.Status.CANCELLED:
                tournament_cancel(tournament=each)
                each.config = {**each.config, "stopped": reason}
                each.save(update_fields=["config"])
