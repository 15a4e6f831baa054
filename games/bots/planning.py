"""Game-independent planning helpers for the plan-game bots (search over candidate plans).

Bots see what their seat may see: the resolved legs, never the other seat's sealed plan.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from games.plan_game import KEEP, PlanGame, PlanState, canonical, role_of

Plan = dict[str, Any]
Generator = Callable[[int, dict[str, int], random.Random], Plan]


def situation(game: PlanGame, state: PlanState) -> tuple[int, int, dict[str, int]]:
    """(seat to move, its role, options)."""
    seat = game.current_player(state)
    assert seat is not None  # bots are only asked while the match runs
    return seat, role_of(seat, len(state.legs)), dict(state.options)


def opponent_plans(state: PlanState, seat: int, role: int) -> list[Plan]:
    """The opponent's valid plans in the role facing `role`, most recent first (public once resolved)."""
    plans = []
    for index in range(len(state.legs) - 1, -1, -1):
        leg = state.legs[index]
        other = 1 - seat
        if role_of(other, index) == 1 - role and leg.sealed[other].plan:
            plans.append(json.loads(leg.sealed[other].plan))
    return plans


def own_last(state: PlanState, seat: int) -> tuple[Plan | None, bool]:
    """This seat's previous plan for the current role and whether it won that leg."""
    index = len(state.legs)
    if index < 2:
        return None, False
    leg = state.legs[index - 2]
    plan = leg.sealed[seat].plan
    return (json.loads(plan) if plan else None), leg.winner == seat


def score(game: PlanGame, plan: Plan, role: int, opponents: list[tuple[Plan, float]], options: dict[str, int]) -> float:
    """Weighted mean over opponent plans of (win 1 / loss 0) + a small share of the state value V."""
    total = weight = 0.0
    for other, w in opponents:
        attack, defend = (plan, other) if role == 0 else (other, plan)
        battle = game.simulate(attack, defend, options)
        won = battle.attacker_won if role == 0 else not battle.attacker_won
        total += w * (won + 0.25 * battle.values[role])
        weight += w
    return total / weight if weight else 0.0


def best_plan(
    game: PlanGame,
    role: int,
    options: dict[str, int],
    rng: random.Random,
    *,
    mine: Generator,
    theirs: Generator,
    candidates: int,
    samples: int,
    known: list[Plan] = (),
    known_weight: float = 0.0,
    extra: list[Plan] = (),
) -> Plan:
    """The candidate that scores best against sampled opponent plans (and the opponent's known ones)."""
    opponents = [(theirs(1 - role, options, rng), 1.0) for _ in range(samples)]
    opponents += [(p, known_weight * (0.6**i)) for i, p in enumerate(known)]
    pool = [*extra, *(mine(role, options, rng) for _ in range(candidates))]
    return max(pool, key=lambda p: score(game, p, role, opponents, options))


def text(plan: Plan | None) -> str:
    return KEEP if plan is None else canonical(plan)


def sometimes(share: float, heuristic: Generator) -> Callable[[PlanGame, PlanState, random.Random], str]:
    """A heuristic plan `share` of the time, else a random one; never keeps."""

    def choose(game: PlanGame, state: PlanState, rng: random.Random) -> str:
        _seat, role, options = situation(game, state)
        plan = heuristic(role, options, rng) if rng.random() < share else game.random_plan(role, options, rng)
        return text(plan)

    return choose


def formation(heuristic: Generator) -> Callable[[PlanGame, PlanState, random.Random], str]:
    """Lv1: keep a plan that won; otherwise a fresh heuristic plan."""

    def choose(game: PlanGame, state: PlanState, rng: random.Random) -> str:
        seat, role, options = situation(game, state)
        plan, won = own_last(state, seat)
        return text(None) if plan is not None and won else text(heuristic(role, options, rng))

    return choose


def planner(
    heuristic: Generator,
    candidates: int,
    samples: int,
    known_weight: float,
    fast: Callable[[dict[str, int]], dict[str, int]] = dict,
) -> Callable[[PlanGame, PlanState, random.Random], str]:
    """Search: the best of `candidates` heuristic plans (and the previous one) against `samples`
    heuristic opponents plus, when `known_weight` > 0, the opponent's revealed plans for the facing
    role; keeps the previous plan when it is still the best. `fast` may coarsen the options for speed."""

    def choose(game: PlanGame, state: PlanState, rng: random.Random) -> str:
        seat, role, options = situation(game, state)
        known = opponent_plans(state, seat, role)[:3] if known_weight else []
        plan, _won = own_last(state, seat)
        extra = [plan] if plan is not None else []
        best = best_plan(
            game,
            role,
            fast(options),
            rng,
            mine=heuristic,
            theirs=heuristic,
            candidates=candidates,
            samples=samples,
            known=known,
            known_weight=known_weight,
            extra=extra,
        )
        return text(None) if plan is not None and best is plan else text(best)

    return choose
