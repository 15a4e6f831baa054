"""How stale the leaderboards get while a first run's matches finish, with the two workers `make run` starts.

Usage: .venv/bin/python bench/board_freshness.py [--matches 3000] [--game G ...]
A fresh site in a temporary var/ is seeded with the games' ladders and queues `--matches` first-run matches;
one `worker --queue-name matches` plays them while a niced `worker --queue-name default` refits the boards.
Every second the bench reads, per board, the oldest finished match its snapshot does not count yet, and keeps
the worst such wait. The peer is the all-games board of the same run (it refits after the games' boards).
Headline: `board_freshness_game_worst_s` (median over the games of each board's worst wait) and its ratio to
the all-games board's worst wait — lower is better.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("tic-tac-toe", "connect-four", "battle-card", "reversi", "kuhn-poker", "leduc-holdem", "tower-defense")


def manage(env: dict, *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True)


def oldest_uncounted_wait(db: sqlite3.Connection, board: str, counted: int, now: dt.datetime) -> float:
    """Seconds since the earliest-finished match of `board` ("" all) that its snapshot's count leaves out."""
    where = "status = 'finished'" + (" AND game = ?" if board else "")
    row = db.execute(
        f"SELECT finished_at FROM arena_match WHERE {where} ORDER BY finished_at LIMIT 1 OFFSET ?",
        (board, counted) if board else (counted,),
    ).fetchone()
    if row is None:
        return 0.0
    finished = dt.datetime.fromisoformat(row[0].replace(" ", "T"))
    return (now - (finished if finished.tzinfo else finished.replace(tzinfo=dt.UTC))).total_seconds()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3000)
    parser.add_argument("--game", action="append", dest="games")
    args = parser.parse_args()
    games = tuple(args.games or GAMES)
    var = Path(tempfile.mkdtemp(prefix="board-freshness-"))
    env = {**os.environ, "ARENA_VAR_DIR": str(var), "DJANGO_SECRET_KEY": "bench", "ARENA_SEED_MATCHES": "0"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    manage(env, "migrate", "--noinput")
    chosen = [arg for game in games for arg in ("--game", game)]
    manage(env, "seed", "--no-demo", "--first-run-matches", str(args.matches), *chosen)
    flags = ["--interval", "0.2", "--no-startup-delay", "--no-reload"]
    workers = [
        subprocess.Popen([sys.executable, "manage.py", "worker", "--queue-name", "matches", *flags], cwd=ROOT, env=env),
        subprocess.Popen(
            ["nice", "-n", "10", sys.executable, "manage.py", "worker", "--queue-name", "default", *flags],
            cwd=ROOT, env=env,
        ),
    ]  # fmt: skip
    worst = dict.fromkeys(("", *games), 0.0)
    db = sqlite3.connect(var / "arena.sqlite3", timeout=30)
    started = time.monotonic()
    try:
        while True:
            time.sleep(1.0)
            now = dt.datetime.now(dt.UTC)
            counted = dict(db.execute("SELECT game, matches FROM ratings_ratingsnapshot WHERE filters = ''"))
            for board in worst:
                worst[board] = max(worst[board], oldest_uncounted_wait(db, board, counted.get(board, 0), now))
            unfinished = db.execute("SELECT count(*) FROM arena_match WHERE status != 'finished'").fetchone()[0]
            waiting = db.execute(
                "SELECT count(*) FROM django_tasks_database_dbtaskresult WHERE status IN ('READY', 'RUNNING')"
            ).fetchone()[0]
            if unfinished == 0 and waiting == 0:
                break
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.wait()
    elapsed = time.monotonic() - started
    tasks = db.execute("SELECT task_path, status, count(*) FROM django_tasks_database_dbtaskresult GROUP BY 1, 2")
    for path, status, count in tasks:
        print(f"{path.rsplit('.', 1)[-1]:<22} {status:<11} {count}")
    db.close()
    shutil.rmtree(var)
    for board, wait in worst.items():
        print(f"worst wait {board or 'all games':<14} {wait:6.1f} s")
    game_median = statistics.median(worst[g] for g in games)
    print(f"run {elapsed:.0f} s")
    print(f"figure board_freshness_game_worst_s {game_median:.1f} s")
    print(f"figure board_freshness_all_games_worst_s {worst['']:.1f} s")
    print(f"figure board_freshness_game_vs_all_games {game_median / max(worst[''], 1e-9):.2f} ratio")


if __name__ == "__main__":
    main()
