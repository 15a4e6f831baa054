"""Leaderboard refresh and page server time with 100,000 (or --matches) stored matches between 50 agents.

After a match finishes the worker counts it into the rating cells and refits Bradley–Terry from the cells
(the refresh, which must not grow with the record); the replay of the record for the order-dependent columns
(Elo, W/D/L, people) runs apart. The page reads the cached snapshot; the peer, measured in the same run, is
what the page would cost if it refitted per request.

Usage: .venv/bin/python bench/leaderboard_page.py [--matches 100000] [--agents 50] [--requests 50] [--no-replay]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from _django import setup_django


def populate(matches: int, agents: int, seed: int = 1) -> None:
    """Synthetic finished tic-tac-toe matches between bots of known strength (no decisions stored)."""
    from django.utils import timezone

    from arena.models import Agent, AgentVersion, Match, Seat

    rng = np.random.default_rng(seed)
    strength = np.linspace(-2, 2, agents)
    versions = []
    for i in range(agents):
        agent, _ = Agent.objects.get_or_create(
            slug=f"tic-tac-toe-lv{i}" if i == 0 else f"synthetic-{i}",
            defaults={"name": f"Agent {i}", "kind": "bot", "game": "tic-tac-toe"},
        )
        version, _ = AgentVersion.objects.get_or_create(agent=agent, number=1, defaults={"config": {"bot": agent.slug}})
        versions.append(version)
    now = timezone.now()
    for start in range(0, matches, 5000):
        count = min(5000, matches - start)
        pairs = rng.integers(0, agents, size=(count, 2))
        pairs[pairs[:, 0] == pairs[:, 1], 1] = (pairs[pairs[:, 0] == pairs[:, 1], 1] + 1) % agents
        p_first = 1 / (1 + np.exp(strength[pairs[:, 1]] - strength[pairs[:, 0]]))
        first_wins = rng.random(count) < p_first
        rows = Match.objects.bulk_create(
            Match(
                game="tic-tac-toe",
                seed=start + k,
                status="finished",
                ply=9,
                state={},
                scores=[1.0, 0.0] if first_wins[k] else [0.0, 1.0],
                termination="synthetic",
                started_at=now,
                finished_at=now,
            )
            for k in range(count)
        )
        Seat.objects.bulk_create(
            Seat(match=row, index=index, agent_version=versions[pairs[k, index]], score=row.scores[index])
            for k, row in enumerate(rows)
            for index in (0, 1)
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--agents", type=int, default=50)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--refits", type=int, default=3, help="refits timed (the median is the figure)")
    parser.add_argument("--no-replay", action="store_true", help="skip timing the replay of the whole record")
    args = parser.parse_args()
    setup_django()
    from django.test import Client

    from arena.models import Match
    from ratings.record.services import cells_add_finished, cells_catch_up, snapshot_refit, snapshot_replay

    started = time.perf_counter()
    populate(args.matches, args.agents)
    print(f"stored {args.matches} matches in {time.perf_counter() - started:.1f} s")
    started = time.perf_counter()
    counted = cells_catch_up()
    print(
        f"counted {counted} matches into the cells at once (what finishing matches do one by one): "
        f"{time.perf_counter() - started:.1f} s"
    )
    # One more finished match counted, as the match_finished handler does (its seats not cached: a process
    # that did not run the match reads them once), then a refit: the worker's job.
    populate(args.refits, args.agents, seed=2)
    fresh = list(Match.objects.order_by("-pk")[: args.refits])
    adds, refits, refit_cpu = [], [], []
    for match in fresh:
        started = time.perf_counter()
        cells_add_finished(match=match)
        adds.append(1000 * (time.perf_counter() - started))
        started, cpu = time.perf_counter(), time.process_time()
        snapshot = snapshot_refit(game="")
        refits.append(time.perf_counter() - started)
        refit_cpu.append(time.process_time() - cpu)
    refresh = statistics.median(refits)
    print(f"one finished match counted into its cells: {', '.join(f'{t:.1f}' for t in adds)} ms")
    print(
        f"refit from {snapshot.matches} matches' cells (fit + {snapshot.bootstrap_rounds} bootstrap rounds): "
        f"{', '.join(f'{t:.2f}' for t in refits)} s (process CPU {', '.join(f'{t:.2f}' for t in refit_cpu)} s)"
    )
    if not args.no_replay:
        started = time.perf_counter()
        snapshot = snapshot_replay(game="")
        replay = time.perf_counter() - started
        print(f"replay of the record (Elo, its order spread, PWER, W/D/L, baseline): {replay:.1f} s")
    client = Client(HTTP_HOST="localhost")
    times = []
    for _ in range(args.requests):
        started = time.perf_counter()
        response = client.get("/leaderboard/")
        times.append(1000 * (time.perf_counter() - started))
        assert response.status_code == 200
    median, p95 = statistics.median(times), sorted(times)[int(0.95 * (len(times) - 1))]
    print(f"leaderboard page: median {median:.1f} ms, p95 {p95:.1f} ms over {args.requests} requests")
    print(f"figure leaderboard_page_median_ms {median:.1f} ms")
    print(f"figure leaderboard_page_p95_ms {p95:.1f} ms")
    print(f"figure leaderboard_snapshot_refresh_seconds {refresh:.2f} s")
    print(f"figure leaderboard_snapshot_refresh_cpu_seconds {statistics.median(refit_cpu):.2f} s")
    print(f"figure rating_cells_add_ms {statistics.median(adds):.1f} ms")
    if not args.no_replay:
        print(f"figure leaderboard_replay_seconds {replay:.1f} s")
    print(f"figure leaderboard_page_vs_fit_per_request {median / 1000 / refresh:.4f} ratio")


if __name__ == "__main__":
    main()
