"""Bot-vs-bot matches per second through the full runner and database, against the bare engine.

Usage: .venv/bin/python bench/tournament.py [--matches 60]
The peer is the same games played by the bare engine (games.bots.calibration.play_game):
the ratio says what the runner and the record cost on top of the rules.
"""

from __future__ import annotations

import argparse
import statistics
import time

from _django import setup_django

GAMES = ("tic-tac-toe", "connect-four")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=60, help="Matches per game.")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    setup_django()

    from asgiref.sync import async_to_sync

    from arena.record.services import bots_ensure, match_create
    from arena.runner.loop import run_match
    from games import get_game
    from games.bots import get_bot
    from games.bots.calibration import play_game

    for game_slug in GAMES:
        lv0 = bots_ensure(game=game_slug)[0]
        game = get_game(game_slug)
        bot = get_bot(f"{game_slug}-lv0")
        runner_times, bare_times, plies = [], [], 0
        for repeat in range(args.repeats):
            seeds = range(repeat * args.matches, (repeat + 1) * args.matches)
            started = time.perf_counter()
            for seed in seeds:
                play_game(game, [bot, bot], seed)
            bare_times.append((time.perf_counter() - started) / args.matches)
            started = time.perf_counter()
            for seed in seeds:
                match = async_to_sync(run_match)(match_create(game=game_slug, agents=[lv0, lv0], seed=seed).pk)
                plies += match.ply
            runner_times.append((time.perf_counter() - started) / args.matches)
        runner, bare = statistics.median(runner_times), statistics.median(bare_times)
        per_decision_ms = 1000 * sum(runner_times) * args.matches / plies
        print(
            f"{game_slug}: runner {1 / runner:.1f} matches/s ({per_decision_ms:.2f} ms/decision), "
            f"bare engine {1 / bare:.1f} matches/s; runner/bare time ratio {runner / bare:.1f}"
        )
        key = game_slug.replace("-", "_")
        print(f"figure runner_matches_per_second_{key} {1 / runner:.2f} matches/s")
        print(f"figure runner_overhead_vs_bare_engine_{key} {runner / bare:.1f} ratio")


if __name__ == "__main__":
    main()
