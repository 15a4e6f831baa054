"""Engine speed: random playouts per second for every game, and mean bot move time per ladder level.

For tic-tac-toe, connect-four, reversi, chess and hive the same playout loop (legal actions → random
choice → apply, until terminal) also drives OpenSpiel's implementation from Python, interleaved
round by round so load changes hit both alike; the ratio is ours / OpenSpiel's (higher is better), per playout
and per ply (moves played per second: the games' lengths differ where their caps or draw rules do). For chess a
third loop runs python-chess bare (legal move list, random choice, push; no repetition checks): the ceiling of
an engine built on python-chess's move generator.

Usage: .venv/bin/python bench/engine.py [--seconds 2] [--rounds 5] [--game G ...] [--no-bots]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import get_game
from games.bots import ladder
from games.registry import GAMES

OPENSPIEL_PEERS = {
    "tic-tac-toe": "tic_tac_toe",
    "connect-four": "connect_four",
    "reversi": "othello",
    "chess": "chess",
    # The base game: OpenSpiel's default adds the three expansion pieces. Its games run to 500 plies, ours 250.
    "hive": "hive(uses_mosquito=false,uses_ladybug=false,uses_pillbug=false)",
}


Rate = tuple[float, float]  # (playouts per second, plies per second)


def ours(slug: str, seconds: float, seed: int) -> Rate:
    """Random playouts with our engine (`random_action`: a uniform choice among the legal actions, or a random
    plan where a game's actions cannot be listed)."""
    game, rng = get_game(slug), random.Random(seed)
    done = plies = 0
    started = time.perf_counter()
    while (elapsed := time.perf_counter() - started) < seconds:
        state = game.initial_state(seed=seed + done)
        while game.current_player(state) is not None:
            state = game.apply(state, game.random_action(state, rng))  # plans and order sets are not listable
            plies += 1
        done += 1
    return done / elapsed, plies / elapsed


def openspiel(name: str, seconds: float, seed: int) -> Rate:
    """Random playouts with OpenSpiel's C++ game, driven from Python the same way."""
    import pyspiel

    game, rng = pyspiel.load_game(name), random.Random(seed)
    done = plies = 0
    started = time.perf_counter()
    while (elapsed := time.perf_counter() - started) < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
        done += 1
    return done / elapsed, plies / elapsed


def python_chess_bare(seconds: float, seed: int, max_plies: int = 500) -> Rate:
    """Random playouts with python-chess alone: legal move list, random choice, push; ends on mate, stalemate,
    insufficient material, 100 quiet half-moves or the cap (no repetition checks, no notation, no states)."""
    import chess

    rng = random.Random(seed)
    done = plies = 0
    started = time.perf_counter()
    while (elapsed := time.perf_counter() - started) < seconds:
        board = chess.Board()
        for _ in range(max_plies):
            moves = list(board.generate_legal_moves())
            if not moves or board.halfmove_clock >= 100 or board.is_insufficient_material():
                break
            board.push(rng.choice(moves))
            plies += 1
        done += 1
    return done / elapsed, plies / elapsed


def bot_move_times(slug: str, games_per_level: int) -> list[tuple[str, float, float]]:
    """(bot, mean ms per move, max ms per move) for each ladder level, each playing Lv0 from both seats."""
    game, bots = get_game(slug), ladder(slug)
    rows = []
    for bot in bots:
        times = []
        for seed in range(games_per_level):
            state = game.initial_state(seed=seed)
            seat_of_bot = seed % 2
            rng = random.Random(seed)
            while (seat := game.current_player(state)) is not None:
                chooser = bot if seat == seat_of_bot else bots[0]
                started = time.perf_counter()
                action = chooser.choose(game, state, rng)
                if seat == seat_of_bot:
                    times.append(1000 * (time.perf_counter() - started))
                state = game.apply(state, action)
        rows.append((bot.slug, statistics.fmean(times), max(times)))
    return rows


def ratios(mine: list[Rate], theirs: list[Rate], index: int) -> float:
    """The median over rounds of ours / theirs, per playout (index 0) or per ply (index 1)."""
    return statistics.median(a[index] / b[index] for a, b in zip(mine, theirs, strict=True))


def peer_line(name: str, mine: list[Rate], theirs: list[Rate]) -> str:
    playouts = statistics.median(rate[0] for rate in theirs)
    return f"   {name}: {playouts:9.1f}/s   ratio {ratios(mine, theirs, 0):.2f} (per ply {ratios(mine, theirs, 1):.2f})"


def ratio_figures(key: str, peer: str, mine: list[Rate], theirs: list[Rate]) -> list[str]:
    return [
        f"figure {key}_playouts_vs_{peer} {ratios(mine, theirs, 0):.2f} ratio",
        f"figure {key}_plies_vs_{peer} {ratios(mine, theirs, 1):.2f} ratio",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="Time per measurement round.")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--game", action="append", choices=list(GAMES))
    parser.add_argument("--bot-games", type=int, default=4, help="Games per ladder level for move times.")
    parser.add_argument("--no-bots", action="store_true")
    args = parser.parse_args()
    figures = []
    for slug in args.game or list(GAMES):
        key = slug.replace("-", "_")
        peer = OPENSPIEL_PEERS.get(slug)
        mine, theirs, bare = [], [], []
        for round_ in range(args.rounds):
            mine.append(ours(slug, args.seconds, round_))
            if peer:
                theirs.append(openspiel(peer, args.seconds, round_))
            if slug == "chess":
                bare.append(python_chess_bare(args.seconds, round_))
        median = statistics.median(rate[0] for rate in mine)
        line = f"{slug:<13} {median:9.1f} playouts/s"
        figures.append(f"figure {key}_playouts_per_second {median:.1f} playouts/s")
        if peer:
            line += peer_line(f"OpenSpiel {peer.split('(')[0]}", mine, theirs)
            figures += ratio_figures(key, "openspiel", mine, theirs)
        print(line, flush=True)
        if bare:
            bare_median = statistics.median(rate[0] for rate in bare)
            line = f"{'':<13} {bare_median:9.1f} playouts/s bare python-chess" + peer_line("OpenSpiel", bare, theirs)
            print(line, flush=True)
            figures += ratio_figures("python_chess_bare", "openspiel", bare, theirs)
        if not args.no_bots:
            for bot, mean_ms, max_ms in bot_move_times(slug, args.bot_games):
                print(f"    {bot:<20} mean {mean_ms:8.1f} ms/move   max {max_ms:8.1f} ms", flush=True)
                figures.append(f"figure {bot.replace('-', '_')}_ms_per_move {mean_ms:.1f} ms")
    print()
    for figure in figures:
        print(figure)


if __name__ == "__main__":
    main()
