"""Size the first run's record by measurement: play its round robins (Lv0–Lv2 of each two-seat ladder) without the
database, fit each game's leaderboard as the site does, and report whether the levels come out in order with
non-overlapping 95% intervals, the levels' measured scores against each other, the size those scores call for
(`first_run.separating_games_per_seat`), and the CPU time the bots took."""

from __future__ import annotations

import itertools
import random
import time

import numpy as np
from django.core.management.base import BaseCommand

from arena.tournaments.first_run import (
    FIRST_RUN_GAMES_PER_SEAT,
    FIRST_RUN_LEVELS,
    LEVEL_PAIRS,
    first_run_games,
    separating_games_per_seat,
)
from games import get_game
from games.bots import ladder
from ratings.maths.leaderboard import Cells, fit_cells


def play(slug: str, levels: list, seed: int) -> float:
    """Seat 0's score in one bot match from `seed` (levels[0] in seat 0)."""
    game = get_game(slug)
    state = game.initial_state(seed=seed)
    rngs = [random.Random(seed * 7919 + seat) for seat in range(2)]
    while (seat := game.current_player(state)) is not None:
        state = game.apply(state, levels[seat].choose(game, state, rngs[seat]))
    return float(game.outcome(state).scores[0])


def measure(slug: str, sizes: list[int], rounds: int) -> list[dict]:
    """The game's first-run round robin played at the largest of `sizes` (seeds per pair, each in both orders),
    fitted as a leaderboard on the first `size` seeds for each size: ratings, intervals, separation, the higher
    level's mean score and its variance per match in each pair, the size they call for, and CPU seconds."""
    bots = ladder(slug)[:FIRST_RUN_LEVELS]
    rows = []  # (seed, seat-0 level, seat-1 level, seat 0's score, CPU seconds)
    for a, b in itertools.combinations(range(len(bots)), 2):
        for seed in range(max(sizes)):
            for x, y in ((a, b), (b, a)):
                started = time.process_time()  # CPU, not wall: on a shared machine wall time measures the load
                score = play(slug, [bots[x], bots[y]], seed)
                rows.append((seed, x, y, score, time.process_time() - started))
    results = []
    for size in sorted(sizes):
        kept = [row for row in rows if row[0] < size]
        n = len(kept)
        first, second, score = (np.array([row[k] for row in kept]) for k in (1, 2, 3))
        cells = Cells(first, second, score.astype(float), np.ones(n), np.ones(n))
        fitted = fit_cells(cells, n_agents=len(bots), anchors=[0], rounds=rounds, draws=n)
        scores = []
        for low, high in LEVEL_PAIRS:
            higher = [row[3] if row[1] == high else 1.0 - row[3] for row in kept if {row[1], row[2]} == {low, high}]
            scores.append((float(np.mean(higher)), float(np.var(higher))))
        lower = [-np.inf if x is None else x for x in fitted["lower"]]
        upper = [np.inf if x is None else x for x in fitted["upper"]]
        results.append(
            {
                "game": slug,
                "size": size,
                "matches": n,
                "seconds": sum(row[4] for row in kept),
                "rating": fitted["rating"],
                "lower": fitted["lower"],
                "upper": fitted["upper"],
                "separated": all(upper[k] < lower[k + 1] for k in range(len(bots) - 1)),
                "scores": scores,
                "needed": separating_games_per_seat(tuple(scores)),
            }
        )
    return results


class Command(BaseCommand):
    help = (
        "Play the first run's round robins here (no database) at a size and report, per game, the levels' "
        "ratings and 95% intervals, whether Lv0 < Lv1 < Lv2 with non-overlapping intervals, and the time taken."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--games-per-seat",
            type=int,
            action="append",
            help="Seeds per pair, each in both orders (repeatable: played once at the largest, fitted at each).",
        )
        parser.add_argument(
            "--first-run-sizes",
            action="store_true",
            help="Each game at its own first-run size (FIRST_RUN_GAMES_PER_SEAT) instead of --games-per-seat.",
        )
        parser.add_argument("--game", action="append", help="Only this game (repeatable). Default: all first-run.")
        parser.add_argument("--rounds", type=int, default=1000, help="Bootstrap rounds, as the leaderboards use.")

    def handle(self, *args, games_per_seat: list[int] | None, game: list[str] | None, rounds: int, **options):
        sizes = games_per_seat or [4]
        by_size: dict[int, list[dict]] = {}
        for slug in game or first_run_games():
            own = [FIRST_RUN_GAMES_PER_SEAT[slug]] if options["first_run_sizes"] else sizes
            for result in measure(slug, own, rounds):
                key = 0 if options["first_run_sizes"] else result["size"]
                by_size.setdefault(key, []).append(result)
                levels = "  ".join(
                    f"Lv{k} {result['rating'][k]:.0f} [{_bound(result['lower'][k])}, {_bound(result['upper'][k])}]"
                    for k in range(len(result["rating"]))
                )
                mark = "separated" if result["separated"] else "overlap"
                pairs = "  ".join(
                    f"Lv{high}-Lv{low} {mean:.3f} (var {variance:.3f})"
                    for (low, high), (mean, variance) in zip(LEVEL_PAIRS, result["scores"], strict=True)
                )
                needed = "never" if result["needed"] is None else result["needed"]
                self.stdout.write(
                    f"{slug:18} {result['size']:3}/seat {result['matches']:4} matches {result['seconds']:6.1f} s CPU "
                    f"{mark:9} {levels}\n{'':18} scores {pairs}  separating size {needed}"
                )
        for size, results in sorted(by_size.items()):
            at = "at_first_run_sizes" if size == 0 else f"at_{size}_per_seat"
            total = sum(r["matches"] for r in results)
            self.stdout.write(f"figure first_run_matches_{at} {total} matches")
            self.stdout.write(f"figure first_run_play_cpu_seconds_{at} {sum(r['seconds'] for r in results):.1f} s")
            separated = sum(r["separated"] for r in results)
            self.stdout.write(f"figure first_run_separated_{at} {separated} of {len(results)} games")


def _bound(value: float | None) -> str:
    return "open" if value is None else f"{value:.0f}"
