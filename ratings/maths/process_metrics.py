"""Process metrics over plain records: AdvGameBench's plan-revise metrics and per-attempt LLM decision metrics.

Plan games (AdvGameBench §3.3, App. B): a seat proposes a strategy each round of a match against one
opponent, the simulator resolves it, the seat sees the outcome and may revise for the next round.
One `RoundRecord` per (seat, round). "Negative feedback" after round r means the round was not won
(a loss, a draw, or a forfeit for breaking a rule); a "correction" is a revision in round r + 1 after
negative feedback in round r. Metrics take the records of one agent (see `by_agent`).

Every proportion comes with its Wilson 95% interval; other statistics with a seeded percentile
bootstrap. Undefined values (no denominator) are None rather than the paper's ε-guarded 0.
Pure numpy; no Django.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ratings.maths.metrics import Estimate, bootstrap_mean, bootstrap_quantile, pearson, percentile_interval, proportion

__all__ = [
    "AttemptRecord",
    "Estimate",
    "RoundRecord",
    "aspect_scores",
    "by_agent",
    "component",
    "constructive_rate",
    "correction_success_rate",
    "first_mover_advantage",
    "grounding_accuracy",
    "illegal_rate",
    "improvement_slope",
    "initial_win_rate",
    "jaccard",
    "latency_quantile",
    "multi_aspect_similarity",
    "multi_aspect_strategy_similarity",
    "over_budget_rate",
    "over_correction_risk_rate",
    "parse_failure_rate",
    "pearson",
    "per_decision",
    "per_match",
    "per_round_win_rates",
    "retry_success_at",
    "rule_violation_rate",
    "strategy_similarity",
    "timeout_rate",
    "verdict_rate",
    "win_rate",
]


@dataclass(frozen=True)
class RoundRecord:
    """One seat's strategy in one round of a plan game, and how it fared."""

    agent: Hashable
    match: Hashable  # the game instance: one match of several rounds against one opponent
    round: int  # 1-based
    won: bool  # a forfeit for a rule violation is a loss (AdvGameBench §3.3)
    first_mover: bool | None = None
    role: str = ""  # "attacker" / "defender" where the game has roles
    revised: bool = False  # differs from this seat's strategy in the previous round
    over_budget: bool = False  # exceeded the explicit resource budget
    rule_violation: bool = False  # broke any rule, the budget included
    value: float | None = None  # V(s): the game's evaluation, for this seat, of the state this strategy produced
    similarity: float | None = None  # SIM(previous strategy, this one) in [0, 1], for revisions
    items: frozenset[str] = frozenset()  # the plan's components ("RifleSoldier@1,2", "0:gold LavaGolem", …)
    functions: frozenset[str] = frozenset()  # the strategic functions its items field ("blocking", "healing", …)


@dataclass(frozen=True)
class AttemptRecord:
    """One try at an LLM decision (verdicts as arena.models.Attempt.Verdict)."""

    decision: Hashable  # any key naming the decision, e.g. (match_id, ply, seat)
    match: Hashable
    number: int  # 1, 2, … within the decision
    verdict: str  # ok / unparseable / illegal / timeout / api_error / over_budget
    transient: bool = False  # provider trouble, not the agent's own failure: excluded from rates
    latency_ms: float = 0.0
    tokens: int = 0
    cost: float = 0.0


def by_agent(records: Iterable[RoundRecord]) -> dict[Hashable, list[RoundRecord]]:
    """Records grouped by agent, each group in (match, round) order."""
    groups: dict[Hashable, list[RoundRecord]] = defaultdict(list)
    for record in records:
        groups[record.agent].append(record)
    return {agent: sorted(rows, key=lambda r: (str(r.match), r.round)) for agent, rows in groups.items()}


def _transitions(records: Iterable[RoundRecord]) -> list[tuple[RoundRecord, RoundRecord]]:
    """(round r, round r + 1) pairs of the same agent and match."""
    index = {(r.agent, r.match, r.round): r for r in records}
    return [(r, index[(a, m, n + 1)]) for (a, m, n), r in index.items() if (a, m, n + 1) in index]


def _corrections(records: Iterable[RoundRecord]) -> list[tuple[RoundRecord, RoundRecord]]:
    """Revisions made right after negative feedback: (failed round, revised next round)."""
    return [(before, after) for before, after in _transitions(records) if not before.won and after.revised]


# --- outcome -------------------------------------------------------------------------------------


def win_rate(records: Sequence[RoundRecord]) -> Estimate:
    """WR: rounds won / rounds played (forfeits count as played and lost)."""
    return proportion(sum(r.won for r in records), len(records))


def initial_win_rate(records: Sequence[RoundRecord]) -> Estimate:
    """Init-win (§4.2): WR in round 1, before any feedback."""
    return win_rate([r for r in records if r.round == 1])


def per_round_win_rates(records: Sequence[RoundRecord]) -> dict[int, Estimate]:
    """WR of each round number (the trajectories of AdvGameBench Fig. 3)."""
    rounds = sorted({r.round for r in records})
    return {n: win_rate([r for r in records if r.round == n]) for n in rounds}


def _slope(x: np.ndarray, y: np.ndarray) -> float | None:
    """Ordinary least-squares slope of y on x; None with fewer than two distinct x."""
    dx = x - x.mean()
    denominator = float(dx @ dx)
    return None if denominator == 0.0 else float(dx @ (y - y.mean())) / denominator


def improvement_slope(records: Sequence[RoundRecord], *, rng: np.random.Generator, rounds: int = 1000) -> Estimate:
    """β: least-squares slope of per-round WR on round number; bootstrap resamples whole matches."""
    matches = sorted({r.match for r in records}, key=str)
    numbers = sorted({r.round for r in records})
    if len(numbers) < 2:
        return Estimate(None, None, None, len(matches))
    m_index = {m: i for i, m in enumerate(matches)}
    r_index = {n: i for i, n in enumerate(numbers)}
    wins = np.zeros((len(matches), len(numbers)))
    played = np.zeros((len(matches), len(numbers)))
    for r in records:
        played[m_index[r.match], r_index[r.round]] += 1
        wins[m_index[r.match], r_index[r.round]] += r.won
    x = np.asarray(numbers, dtype=float)

    def slope(rows: np.ndarray) -> float | None:
        w, n = wins[rows].sum(axis=0), played[rows].sum(axis=0)
        seen = n > 0
        return _slope(x[seen], w[seen] / n[seen]) if seen.sum() >= 2 else None

    value = slope(np.arange(len(matches)))
    draws = rng.integers(0, len(matches), size=(rounds, len(matches)))
    low, high = percentile_interval([np.nan if (s := slope(d)) is None else s for d in draws])
    return Estimate(value, low, high, len(matches))


# --- revision behaviour --------------------------------------------------------------------------


def over_correction_risk_rate(records: Sequence[RoundRecord]) -> Estimate:
    """ORR (§3.3, §4.4): P(revise in round r + 1 | negative feedback in round r); the last round has no next."""
    failed = [(before, after) for before, after in _transitions(records) if not before.won]
    return proportion(sum(after.revised for _, after in failed), len(failed))


def correction_success_rate(records: Sequence[RoundRecord]) -> Estimate:
    """CSR (§3.3): corrections that win the next round or remove the rule violation / corrections."""
    corrections = _corrections(records)
    fixed = sum(after.won or (before.rule_violation and not after.rule_violation) for before, after in corrections)
    return proportion(fixed, len(corrections))


def constructive_rate(records: Sequence[RoundRecord]) -> Estimate:
    """CnstrR (App. B.2): corrections with V(s_{k+1}) > V(s_k) / corrections (both values known)."""
    scored = [(b, a) for b, a in _corrections(records) if b.value is not None and a.value is not None]
    return proportion(sum(a.value > b.value for b, a in scored), len(scored))


def strategy_similarity(records: Sequence[RoundRecord], *, rng: np.random.Generator, rounds: int = 1000) -> Estimate:
    """Mean SIM (App. B.3) over correction steps that carry a similarity; bootstrap interval."""
    values = [a.similarity for _, a in _corrections(records) if a.similarity is not None]
    return bootstrap_mean(values, rng=rng, rounds=rounds)


def component(item: str) -> str:
    """A plan item's kind without its place: "RifleSoldier@1,2" → "RifleSoldier", "0:gold LavaGolem" → "gold
    LavaGolem", "Fire:1:flame_splash" → "flame_splash" (what the item is, not where or in which order)."""
    kind = item.split("@", 1)[0]
    if re.fullmatch(r"\d+:.+", kind):
        return kind.split(":", 1)[1]
    if re.fullmatch(r"[^:]+:\d+:.+", kind):
        return kind.split(":", 2)[2]
    return kind


def aspect_scores(before: RoundRecord, after: RoundRecord) -> tuple[float, float, float]:
    """App. B.3's three aspects of two plans, each in [0, 1]: structural = Jaccard of the items (kind and place,
    its example); semantic = cosine of the kinds' count vectors (our deterministic stand-in for its embeddings);
    functional = Jaccard of the strategic functions fielded, |F_k ∩ F_k+1| / (|F_k ∪ F_k+1| + ε), as it defines it
    (the games' `strategic_functions` name each unit's or skill's functions)."""
    kinds_before = [component(i) for i in before.items]
    kinds_after = [component(i) for i in after.items]
    names = sorted(set(kinds_before) | set(kinds_after))
    u = np.array([kinds_before.count(n) for n in names], dtype=float)
    v = np.array([kinds_after.count(n) for n in names], dtype=float)
    norm = float(np.linalg.norm(u) * np.linalg.norm(v))
    semantic = float(u @ v) / norm if norm else 0.0
    return jaccard(before.items, after.items), semantic, jaccard(before.functions, after.functions)


def multi_aspect_strategy_similarity(
    records: Sequence[RoundRecord],
    weights: Sequence[float] | None = None,
    *,
    rng: np.random.Generator,
    rounds: int = 1000,
) -> Estimate:
    """Mean multi-aspect SIM (App. B.3 eq. 3) over correction steps whose two plans are known; bootstrap interval."""
    values = [
        multi_aspect_similarity(aspect_scores(b, a), weights) for b, a in _corrections(records) if b.items and a.items
    ]
    return bootstrap_mean(values, rng=rng, rounds=rounds)


def multi_aspect_similarity(scores: Sequence[float], weights: Sequence[float] | None = None) -> float:
    """SIM = Σ_j w_j·S_j (App. B.3, eq. 3) over aspect scores in [0, 1]; equal weights by default."""
    s = np.asarray(scores, dtype=float)
    w = np.full(s.size, 1.0 / s.size) if weights is None else np.asarray(weights, dtype=float)
    if s.size == 0 or w.shape != s.shape or np.any(w < 0) or not np.isclose(w.sum(), 1.0):
        raise ValueError("need one non-negative weight per score, summing to 1")
    return float(w @ s)


def jaccard(first: Iterable[Hashable], second: Iterable[Hashable], epsilon: float = 1e-9) -> float:
    """|A ∩ B| / (|A ∪ B| + ε) (App. B.3 structural/functional similarity); two empty sets give 0, as in the paper."""
    a, b = set(first), set(second)
    return len(a & b) / (len(a | b) + epsilon) if a | b else 0.0


# --- constraint adherence ------------------------------------------------------------------------


def over_budget_rate(records: Sequence[RoundRecord]) -> Estimate:
    """OBR (§3.3, §4.3): proposals over the resource budget / all proposals."""
    return proportion(sum(r.over_budget for r in records), len(records))


def rule_violation_rate(records: Sequence[RoundRecord], *, initial_only: bool = True) -> Estimate:
    """RVR (App. B.1): round-1 proposals breaking any rule / round-1 proposals (every round if not initial_only)."""
    pool = [r for r in records if r.round == 1] if initial_only else list(records)
    return proportion(sum(r.rule_violation for r in pool), len(pool))


# --- first-mover advantage -----------------------------------------------------------------------

FMA_METRICS: dict[str, Callable[[Sequence[RoundRecord]], Estimate]] = {
    "win_rate": win_rate,
    "over_correction_risk_rate": over_correction_risk_rate,
    "correction_success_rate": correction_success_rate,
}


def first_mover_advantage(
    records: Sequence[RoundRecord],
    metric: str | Callable[[Sequence[RoundRecord]], Estimate] = "win_rate",
    *,
    rng: np.random.Generator,
    rounds: int = 1000,
) -> Estimate:
    """FMA (App. B.4): mean per-instance metric moving first − moving second; bootstrap within each side.

    An instance is a match seen from one side of the move order; instances where the metric is
    undefined (e.g. CSR with no correction) are left out, as the paper's "applicable" counts say.
    """
    compute = FMA_METRICS[metric] if isinstance(metric, str) else metric
    instances: dict[tuple[Hashable, Hashable, bool], list[RoundRecord]] = defaultdict(list)
    for r in records:
        if r.first_mover is not None:
            instances[(r.agent, r.match, bool(r.first_mover))].append(r)
    sides: dict[bool, list[float]] = {True: [], False: []}
    for (_, _, first), rows in instances.items():
        value = compute(rows).value
        if value is not None:
            sides[first].append(value)
    n = len(sides[True]) + len(sides[False])
    if not sides[True] or not sides[False]:
        return Estimate(None, None, None, n)
    first_values, second_values = np.asarray(sides[True]), np.asarray(sides[False])
    first_means = first_values[rng.integers(0, first_values.size, (rounds, first_values.size))].mean(axis=1)
    second_means = second_values[rng.integers(0, second_values.size, (rounds, second_values.size))].mean(axis=1)
    low, high = percentile_interval(first_means - second_means)
    return Estimate(float(first_values.mean() - second_values.mean()), low, high, n)


# --- LLM attempts --------------------------------------------------------------------------------

#: Verdicts that produced a reply the parser judged: the grounding attempts of DSGBench's GA.
GROUNDING_VERDICTS = frozenset({"ok", "unparseable", "illegal"})


def _counted(attempts: Iterable[AttemptRecord]) -> list[AttemptRecord]:
    return [a for a in attempts if not a.transient]


def verdict_rate(attempts: Iterable[AttemptRecord], verdict: str) -> Estimate:
    """Share of non-transient attempts with this verdict."""
    counted = _counted(attempts)
    return proportion(sum(a.verdict == verdict for a in counted), len(counted))


def parse_failure_rate(attempts: Iterable[AttemptRecord]) -> Estimate:
    """Share of non-transient attempts whose reply held no move at all."""
    return verdict_rate(attempts, "unparseable")


def illegal_rate(attempts: Iterable[AttemptRecord]) -> Estimate:
    """Share of non-transient attempts that named an illegal move."""
    return verdict_rate(attempts, "illegal")


def timeout_rate(attempts: Iterable[AttemptRecord]) -> Estimate:
    """Share of non-transient attempts that ran out of time."""
    return verdict_rate(attempts, "timeout")


def grounding_accuracy(attempts: Iterable[AttemptRecord]) -> Estimate:
    """GA (DSGBench): legal actions / grounding attempts (non-transient replies judged ok, unparseable or illegal)."""
    judged = [a for a in _counted(attempts) if a.verdict in GROUNDING_VERDICTS]
    return proportion(sum(a.verdict == "ok" for a in judged), len(judged))


def _decisions(attempts: Iterable[AttemptRecord]) -> dict[Hashable, list[AttemptRecord]]:
    groups: dict[Hashable, list[AttemptRecord]] = defaultdict(list)
    for attempt in attempts:
        groups[attempt.decision].append(attempt)
    return {key: sorted(rows, key=lambda a: a.number) for key, rows in groups.items()}


def retry_success_at(attempts: Iterable[AttemptRecord], k: int) -> Estimate:
    """Decisions whose first invalid attempt is followed by an ok one within k more / decisions with an invalid one.

    Transient attempts are skipped: they are retries of the provider, not chances for the agent.
    """
    recovered = failed = 0
    for rows in _decisions(_counted(attempts)).values():
        verdicts = [a.verdict for a in rows]
        first_bad = next((i for i, v in enumerate(verdicts) if v != "ok"), None)
        if first_bad is None:
            continue
        failed += 1
        recovered += "ok" in verdicts[first_bad + 1 : first_bad + 1 + k]
    return proportion(recovered, failed)


def latency_quantile(
    attempts: Iterable[AttemptRecord],
    q: float = 0.5,
    *,
    rng: np.random.Generator,
    per: str = "attempt",
    rounds: int = 1000,
) -> Estimate:
    """q-quantile of latency (ms) per non-transient attempt, or per decision (attempts summed); bootstrap interval."""
    counted = _counted(attempts)
    if per == "decision":
        values = [sum(a.latency_ms for a in rows) for rows in _decisions(counted).values()]
    elif per == "attempt":
        values = [a.latency_ms for a in counted]
    else:
        raise ValueError("per must be 'attempt' or 'decision'")
    return bootstrap_quantile(values, q, rng=rng, rounds=rounds)


def _mean_of_sums(attempts, key, field, rng, rounds) -> Estimate:
    if field not in ("tokens", "cost", "latency_ms"):
        raise ValueError("field must be tokens, cost or latency_ms")
    sums: dict[Hashable, float] = defaultdict(float)
    for attempt in attempts:
        sums[key(attempt)] += getattr(attempt, field)
    return bootstrap_mean(list(sums.values()), rng=rng, rounds=rounds)


def per_decision(
    attempts: Iterable[AttemptRecord], field: str = "tokens", *, rng: np.random.Generator, rounds: int = 1000
) -> Estimate:
    """Mean tokens (or cost) per decision, every attempt counted (transient ones cost too); bootstrap interval."""
    return _mean_of_sums(attempts, lambda a: a.decision, field, rng, rounds)


def per_match(
    attempts: Iterable[AttemptRecord], field: str = "tokens", *, rng: np.random.Generator, rounds: int = 1000
) -> Estimate:
    """Mean tokens (or cost) per match for the agent whose attempts these are; bootstrap interval."""
    return _mean_of_sums(attempts, lambda a: a.match, field, rng, rounds)
