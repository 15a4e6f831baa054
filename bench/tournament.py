"""Bot-vs-bot matches per second through the full runner and database, against the bare engine.

Usage: .venv/bin/python bench/tournament.py [--matches 60] [--repeats 3] [--profile] [--parts]
The peer is the same games played by the bare engine (games.bots.calibration.play_game):
the difference says what the runner and the record cost on top of the rules, per decision.
Besides the times it prints two figures the load on a shared machine does not blur much: the SQL
statements per decision (a count) and the process CPU per decision. `--profile` runs the runner's
matches once more under cProfile and lists the functions that take the most time; `--parts` times
each step of a match on its own (process CPU and SQL statements per match).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import time

from _django import setup_django
from profile_move import QueryCounter

GAMES = ("tic-tac-toe", "connect-four")


def run_matches(game_slug: str, agents: list, seeds: range) -> int:
    """Create and run one runner match per seed; returns the decisions they made."""
    from asgiref.sync import async_to_sync

    from arena.record.services import match_create
    from arena.runner.loop import run_match

    plies = 0
    for seed in seeds:
        match = async_to_sync(run_match)(match_create(game=game_slug, agents=agents, seed=seed).pk)
        plies += match.ply
    return plies


def print_profile(profile: cProfile.Profile, decisions: int, top: int) -> None:
    stats = pstats.Stats(profile)
    total = sum(row[2] for row in stats.stats.values())
    print(f"  profiled time (sum of own times): {1000 * total / decisions:.3f} ms per decision")
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(top)
    print(out.getvalue())


def print_parts(game_slug: str, agents: list, rated: list, matches: int, queries: QueryCounter) -> None:
    """Process CPU and SQL statements per match of each step of a bots' match, each timed on its own over
    `matches` fresh matches: creating it, the runner's claim and seats, the bots' decisions, recording them,
    what listens to match_finished (alone, on matches played with it off: the bench's self-play, which is not
    rated, and `rated`, a pair of different agents), and the rest of run_match (event loop, thread hops,
    broadcasts)."""
    from asgiref.sync import async_to_sync

    from arena.record.services import decisions_record, match_create
    from arena.record.signals import match_finished
    from arena.runner import loop
    from games import get_game

    def measure(label: str, step, inputs: list) -> list:
        cpu, queries.count, queries.on = time.process_time(), 0, True
        outputs = [step(item) for item in inputs]
        queries.on = False
        cpu_ms = 1000 * (time.process_time() - cpu) / len(inputs)
        print(f"  {label:58s} {cpu_ms:6.2f} ms CPU {queries.count / len(inputs):5.1f} statements per match")
        return outputs

    game = get_game(game_slug)
    seeds = range(2 * 10**6, 2 * 10**6 + matches)
    bots = [loop.BotAgent(version.config["bot"]) for version in (a.current_version() for a in agents)]

    def fresh(pair: list = agents) -> list:
        return [match_create(game=game_slug, agents=pair, seed=seed) for seed in seeds]

    def run_quietly(pair: list) -> list:
        return [async_to_sync(loop.run_match)(m.pk) for m in fresh(pair)]

    def announce(match) -> None:
        match_finished.send(sender=type(match), match=match)

    measure("match_create", lambda seed: match_create(game=game_slug, agents=agents, seed=seed), list(seeds))
    loaded = measure("claim, seats and state (runner _load)", lambda m: loop._load(m.pk, "parts"), fresh())
    decided = measure(
        "bots' decisions (_bots_decide, whole match)",
        lambda m: loop._bots_decide(game, game.initial_state(seed=m.seed), bots, m.seed),
        [match for match, *_ in loaded],
    )
    receivers = match_finished.receivers
    match_finished.receivers = []
    match_finished.sender_receivers_cache.clear()
    try:
        measure(
            "decisions recorded (decisions_record; listeners off)",
            lambda pair: decisions_record(match=pair[0][0], ply=0, decisions=pair[1], worker="parts"),
            list(zip(loaded, decided, strict=True)),
        )
        measure("whole run_match, listeners off", lambda m: async_to_sync(loop.run_match)(m.pk), fresh())
        finished = {label: run_quietly(pair) for label, pair in (("self-play, unrated", agents), ("rated", rated))}
    finally:
        match_finished.receivers = receivers
        match_finished.sender_receivers_cache.clear()
    for label, matches_finished in finished.items():
        measure(f"match_finished listeners alone ({label})", announce, matches_finished)
    measure("whole run_match, listeners on", lambda m: async_to_sync(loop.run_match)(m.pk), fresh())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=60, help="Matches per game.")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="Also profile one more round of runner matches.")
    parser.add_argument("--top", type=int, default=25, help="Functions listed by --profile.")
    parser.add_argument("--parts", action="store_true", help="Also time each step of a match on its own.")
    args = parser.parse_args()
    setup_django()

    from django.db import connection
    from django.db.backends.signals import connection_created

    from arena.record.agents import bots_ensure
    from games import get_game
    from games.bots import get_bot
    from games.bots.calibration import play_game

    queries = QueryCounter()
    connection.ensure_connection()
    queries.install(None, connection)
    connection_created.connect(queries.install)
    for game_slug in GAMES:
        lv0, lv1 = bots_ensure(game=game_slug)[:2]
        game = get_game(game_slug)
        bot = get_bot(f"{game_slug}-lv0")
        run_matches(game_slug, [lv0, lv0], range(-5, 0))  # warm up: imports, caches, the first queries
        runner_times, bare_times, plies, bare_plies, runner_cpu, statements = [], [], 0, 0, 0.0, 0
        for repeat in range(args.repeats):
            seeds = range(repeat * args.matches, (repeat + 1) * args.matches)
            started = time.perf_counter()
            for seed in seeds:
                bare_plies += sum(play_game(game, [bot, bot], seed)[2])
            bare_times.append((time.perf_counter() - started) / args.matches)
            started, cpu, queries.count, queries.on = time.perf_counter(), time.process_time(), 0, True
            plies += run_matches(game_slug, [lv0, lv0], seeds)
            queries.on = False
            runner_times.append((time.perf_counter() - started) / args.matches)
            runner_cpu += time.process_time() - cpu
            statements += queries.count
        runner, bare = statistics.median(runner_times), statistics.median(bare_times)
        per_decision_ms = 1000 * sum(runner_times) * args.matches / plies
        bare_per_decision_ms = 1000 * sum(bare_times) * args.matches / bare_plies
        overhead_ms = per_decision_ms - bare_per_decision_ms
        print(
            f"{game_slug}: runner {1 / runner:.1f} matches/s ({per_decision_ms:.2f} ms/decision, "
            f"{1000 * runner_cpu / plies:.2f} ms process CPU/decision, {statements / plies:.2f} SQL "
            f"statements/decision), bare engine {1 / bare:.1f} matches/s ({bare_per_decision_ms:.3f} ms/decision); "
            f"runner overhead {overhead_ms:.2f} ms/decision; runner/bare time ratio {runner / bare:.1f}"
        )
        key = game_slug.replace("-", "_")
        print(f"figure runner_matches_per_second_{key} {1 / runner:.2f} matches/s")
        print(f"figure runner_overhead_ms_per_decision_{key} {overhead_ms:.2f} ms")
        print(f"figure runner_sql_per_decision_{key} {statements / plies:.2f} statements")
        print(f"figure runner_overhead_vs_bare_engine_{key} {runner / bare:.1f} ratio")
        if args.profile:
            profile = cProfile.Profile()
            profile.enable()
            decisions = run_matches(game_slug, [lv0, lv0], range(10**6, 10**6 + args.matches))
            profile.disable()
            print_profile(profile, decisions, args.top)
        if args.parts:
            print_parts(game_slug, [lv0, lv0], [lv0, lv1], args.matches, queries)


if __name__ == "__main__":
    main()
