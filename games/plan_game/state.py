"""The plan-game state: submissions, resolved legs and the match, as immutable values (see games.plan_game)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

KEEP = "keep"
OVER_BUDGET = "over_budget"
RULE = "rule"


def canonical(document: Any) -> str:
    """One text per JSON document: sorted keys, no spaces (so equal plans compare equal)."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """|a ∩ b| / |a ∪ b|, and 1.0 for two empty plans (nothing changed)."""
    union = a | b
    return 1.0 if not union else round(len(a & b) / len(union), 4)


def counted(items: list[str]) -> frozenset[str]:
    """A multiset as a set: the second copy of 'x' becomes 'x#2', so duplicates still count."""
    seen: dict[str, int] = {}
    out = []
    for item in items:
        seen[item] = seen.get(item, 0) + 1
        out.append(item if seen[item] == 1 else f"{item}#{seen[item]}")
    return frozenset(out)


@dataclass(frozen=True)
class Checked:
    """A plan read against the rules: the normalised plan (None when it breaks any rule)."""

    plan: dict[str, Any] | None
    violations: tuple[tuple[str, str], ...]
    cost: int
    items: frozenset[str]


@dataclass(frozen=True)
class Battle:
    """What a game's simulator reports about one leg; roles are 0 attacker, 1 defender."""

    attacker_won: bool
    reason: str
    values: tuple[float, float]  # V(s) of each role, in [-1, 1]
    initiative: int | None  # the role that acts first in the battle; None when both act together
    log: dict[str, Any]  # compact and JSON-able (ints and strings only)
    summary: tuple[str, str]  # one short paragraph per role, for feedback


@dataclass(frozen=True)
class Sealed:
    """One seat's submission for one leg, as recorded."""

    text: str  # the action: "keep" or the plan text (canonical JSON, or raw text that is not valid JSON)
    source: str  # the plan text fielded: the previous one's when kept
    plan: str  # canonical JSON of the normalised plan; '' when the plan breaks a rule
    violations: tuple[tuple[str, str], ...]  # (kind, message), kind "over_budget" or "rule"
    cost: int
    revised: bool  # differs from this seat's previous plan for the same role
    similarity: float | None  # Jaccard of plan items with that previous plan; None in round 1
    added: tuple[str, ...]  # plan items not in the previous plan
    removed: tuple[str, ...]  # items of the previous plan that are gone
    reacting_to: int  # index of the leg whose feedback (same role) the seat had seen; -1 none

    @property
    def over_budget(self) -> bool:
        return any(kind == OVER_BUDGET for kind, _ in self.violations)

    @property
    def rule_violation(self) -> bool:
        """Any rule broken, the budget included (AdvGameBench B.1)."""
        return bool(self.violations)


@dataclass(frozen=True)
class Leg:
    """A resolved leg: both submissions, the result, the battle log and each seat's feedback."""

    attacker: int  # the attacking seat
    sealed: tuple[Sealed, Sealed]  # by seat
    winner: int  # seat; -1 when both plans broke the rules
    reason: str
    values: tuple[float, float]  # V by seat
    initiative: int  # seat acting first in the battle; -1 when both act at once or there was no battle
    log: str  # canonical JSON of the battle log
    feedback: tuple[str, str]  # by seat


@dataclass(frozen=True)
class PlanState:
    seed: int
    ply: int
    options: tuple[tuple[str, int], ...]
    legs: tuple[Leg, ...] = ()
    pending: tuple[Sealed | None, Sealed | None] = (None, None)

    def option(self, name: str) -> int:
        return dict(self.options)[name]


def round_of(leg_index: int) -> int:
    return leg_index // 2 + 1


def role_of(seat: int, leg_index: int) -> int:
    """0 (attack) for seat 0 in leg 1 of each round and seat 1 in leg 2; else 1 (defend)."""
    return 0 if seat == leg_index % 2 else 1


def sealed_json(s: Sealed) -> dict[str, Any]:
    return {
        "text": s.text,
        "source": s.source,
        "plan": s.plan,
        "violations": [list(v) for v in s.violations],
        "cost": s.cost,
        "revised": s.revised,
        "similarity": s.similarity,
        "added": list(s.added),
        "removed": list(s.removed),
        "reacting_to": s.reacting_to,
    }


def sealed_from(d: dict[str, Any]) -> Sealed:
    return Sealed(
        text=d["text"],
        source=d["source"],
        plan=d["plan"],
        violations=tuple((str(k), str(m)) for k, m in d["violations"]),
        cost=int(d["cost"]),
        revised=bool(d["revised"]),
        similarity=None if d["similarity"] is None else float(d["similarity"]),
        added=tuple(d["added"]),
        removed=tuple(d["removed"]),
        reacting_to=int(d["reacting_to"]),
    )
