"""Bradley–Terry fit + 1,000 bootstrap rounds on 100,000 matches between 50 agents, against choix.

Usage: .venv/bin/python bench/ratings.py [--matches 100000] [--agents 50] [--rounds 1000] [--choix-rounds 20]
The peer is choix (the library GameBench used): `ilsr_pairwise` on the same decisive matches, one
full fit plus a refit per bootstrap round on a multinomial resample, warm-started from the full fit
as ours is. choix needs minutes for 1,000 rounds, so it runs `--choix-rounds` of them and the
total is extrapolated (full fit + rounds × mean time per round); the output says so.
Headline: `bt_bootstrap_vs_choix` = our seconds / choix seconds — lower is better.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# This file is itself named ratings.py: drop bench/ from the path so `ratings` is the package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

import choix  # noqa: E402
import numpy as np  # noqa: E402

from ratings.maths import bradley_terry as bt  # noqa: E402


def synthetic(matches: int, agents: int, seed: int, advantage: float):
    rng = np.random.default_rng(seed)
    strengths = rng.normal(0.0, 1.0, agents)
    a = rng.integers(0, agents, matches)
    b = (a + rng.integers(1, agents, matches)) % agents
    first = rng.integers(0, 2, matches)
    p = 1.0 / (1.0 + np.exp(-(strengths[a] - strengths[b] + advantage * (2 * first - 1))))
    return a, b, (rng.random(matches) < p).astype(float), first


def ours(a, b, score, agents, rounds, seed, first_mover=None) -> tuple[float, float, bt.Bootstrap]:
    """Wall and CPU seconds for our fit + bootstrap."""
    wall, cpu = time.perf_counter(), time.process_time()
    bt.fit(a, b, score, n_agents=agents, first_mover=first_mover)
    result = bt.bootstrap(
        a, b, score, n_agents=agents, rounds=rounds, rng=np.random.default_rng(seed), first_mover=first_mover
    )
    return time.perf_counter() - wall, time.process_time() - cpu, result


def choix_run(a, b, score, agents, rounds, seed) -> tuple[float, float, np.ndarray]:
    """choix: seconds for the full fit, mean seconds per bootstrap round, and the full-fit strengths."""
    winners = np.where(score == 1.0, a, b)
    losers = np.where(score == 1.0, b, a)
    pairs = np.column_stack([winners, losers])
    start = time.perf_counter()
    full = choix.ilsr_pairwise(agents, [tuple(p) for p in pairs.tolist()], alpha=0.0)
    full_seconds = time.perf_counter() - start
    rng = np.random.default_rng(seed)
    per_round = []
    for _ in range(rounds):
        start = time.perf_counter()
        counts = rng.multinomial(len(a), np.full(len(a), 1.0 / len(a)))
        data = [tuple(p) for p in np.repeat(pairs, counts, axis=0).tolist()]
        choix.ilsr_pairwise(agents, data, alpha=0.0, initial_params=full)
        per_round.append(time.perf_counter() - start)
    return full_seconds, statistics.mean(per_round), full - full.mean()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--agents", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--choix-rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    a, b, score, first = synthetic(args.matches, args.agents, args.seed, advantage=0.2)
    print(f"{args.matches} decisive matches, {args.agents} agents, {args.rounds} bootstrap rounds")

    plain = [ours(a, b, score, args.agents, args.rounds, args.seed + r) for r in range(args.repeats)]
    ours_wall = statistics.median(t[0] for t in plain)
    ours_cpu = statistics.median(t[1] for t in plain)
    print(f"ours, fit + bootstrap:                      median {ours_wall:.2f} s wall, {ours_cpu:.2f} s CPU")
    with_first = [ours(a, b, score, args.agents, args.rounds, args.seed + r, first) for r in range(args.repeats)]
    first_wall = statistics.median(t[0] for t in with_first)
    print(f"ours, fit + bootstrap with first-mover term: median {first_wall:.2f} s wall")
    low, high = with_first[0][2].first_move_lower, with_first[0][2].first_move_upper
    print(f"  first-move advantage (true 0.2): 95% interval {low:.3f}…{high:.3f}")

    full_seconds, round_seconds, choix_strengths = choix_run(a, b, score, args.agents, args.choix_rounds, args.seed)
    choix_total = full_seconds + args.rounds * round_seconds
    ours_full = bt.fit(a, b, score, n_agents=args.agents).strengths
    print(f"choix ilsr_pairwise: full fit {full_seconds:.2f} s; {args.choix_rounds} bootstrap rounds timed,")
    print(f"  mean {round_seconds:.3f} s per round → extrapolated {choix_total:.1f} s for {args.rounds} rounds")
    print(f"  max |ours − choix| on the full fit: {np.abs(ours_full - choix_strengths).max():.1e}")
    print(f"ratio ours / choix = {ours_wall / choix_total:.4f} (lower is better)")
    print(f"figure bt_bootstrap_seconds {ours_wall:.2f} s")
    print(f"figure bt_bootstrap_first_mover_seconds {first_wall:.2f} s")
    print(f"figure bt_bootstrap_vs_choix {ours_wall / choix_total:.4f} ratio")


if __name__ == "__main__":
    main()
