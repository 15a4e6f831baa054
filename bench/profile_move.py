"""Where a person's move and the bot's reply spend the server's CPU, through the real consumer.

In one process (in-memory channel layer, SQLite): people's websockets (channels' communicator on
the real ASGI application: origin check, sessions, consumer, runner) play connect-four against Lv0
bots, one move after another, under cProfile (which, since Python 3.12, sees every thread: the
event loop and Django's database thread). Prints the process CPU per move and reply, the SQL
statements per move and reply (a count that load on the machine does not blur), and the
cumulative time of the parts listed in `PARTS` (the live panel, the person's move, the runner's writes, the ORM).

Usage: .venv/bin/python bench/profile_move.py [--games 20] [--moves 6] [--top 30]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import json
import pstats
import re
import time

from _django import setup_django

LEGAL = re.compile(r'<script id="match-\d+-legal" type="application/json">(.*?)</script>', re.S)

#: (label, file fragment, function) whose cumulative time is reported as a share of the total.
PARTS = [
    ("live panel render (live_match_html)", "arena/pages/rendering.py", "live_match_html"),
    ("  board (connect_four_board)", "arena/pages/boards.py", "connect_four_board"),
    ("  legal moves", "arena/pages/rendering.py", "legal_moves"),
    ("person's move (person_move)", "arena/record/people.py", "person_move"),
    ("decisions written (decisions_write)", "arena/record/services.py", "decisions_write"),
    ("bot decisions recorded (decisions_record)", "arena/record/services.py", "decisions_record"),
    ("runner claim (match_claim)", "arena/record/turns.py", "match_claim"),
    ("runner release (match_release)", "arena/record/turns.py", "match_release"),
    ("consumer render (MatchConsumer.render_now)", "arena/play/consumers.py", "render_now"),
    ("SQL execution (sqlite3 execute)", "~", "<method 'execute' of 'sqlite3.Cursor' objects>"),
    ("commits (sqlite3 commit)", "~", "<method 'commit' of 'sqlite3.Connection' objects>"),
    ("ORM compile (SQLCompiler.as_sql)", "django/db/models/sql/compiler.py", "as_sql"),
    ("template rendering (Template.render)", "django/template/base.py", "render"),
]


class QueryCounter:
    """Counts the SQL statements of every database connection while `on` (installed as each one opens)."""

    def __init__(self) -> None:
        self.on, self.count = False, 0

    def __call__(self, execute, sql, params, many, context):
        self.count += self.on
        return execute(sql, params, many, context)

    def install(self, sender, connection, **kwargs) -> None:
        connection.execute_wrappers.append(self)


def prepare(games: int) -> list[tuple[int, str]]:
    from django.contrib.sessions.backends.db import SessionStore

    from arena.models import Agent
    from arena.record.agents import bots_ensure
    from arena.record.people import guest_agent_create, person_match_create

    bots_ensure(game="connect-four")
    opponent = Agent.objects.get(slug="connect-four-lv0")
    out = []
    for n in range(games):
        guest = guest_agent_create(nickname=f"prof{n}")
        session = SessionStore()
        session["guest_agent"] = guest.slug
        session.save()
        match = person_match_create(person=guest, opponent=opponent, game="connect-four", seat=0)
        out.append((match.pk, f"sessionid={session.session_key}"))
    return out


async def play(match_id: int, cookie: str, moves: int) -> int:
    """One person's game: connect, make up to `moves` moves, each waiting for the bot's reply."""
    from channels.testing import WebsocketCommunicator

    from arena.asgi import application

    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie.encode())]
    ws = WebsocketCommunicator(application, f"/ws/matches/{match_id}/", headers=headers)
    connected, _ = await ws.connect()
    assert connected
    made = 0
    message = json.loads(await ws.receive_from(timeout=30))
    while made < moves and "Game over" not in message["html"]:
        if "Your move." not in message["html"]:
            message = json.loads(await ws.receive_from(timeout=30))
            continue
        ply = message["ply"]
        legal = json.loads(LEGAL.search(message["html"]).group(1))
        await ws.send_to(text_data=json.dumps({"type": "move", "move": legal[made % len(legal)]["text"], "ply": ply}))
        while True:
            message = json.loads(await ws.receive_from(timeout=30))
            if message["type"] == "fragment" and (message["ply"] >= ply + 2 or "Game over" in message["html"]):
                break
        made += 1
    await ws.disconnect()
    return made


async def run(players: list[tuple[int, str]], moves: int) -> int:
    return sum(await asyncio.gather(*(play(match_id, cookie, moves) for match_id, cookie in players)))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--moves", type=int, default=6)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--no-profile", action="store_true", help="Only the CPU per move, without cProfile's cost.")
    args = parser.parse_args()
    setup_django()
    from django.db.backends.signals import connection_created

    queries = QueryCounter()
    connection_created.connect(queries.install)
    players = prepare(args.games)
    asyncio.run(run(players[:1], 1))  # warm up: imports, template loading, the first connection
    from games import all_games

    all_games()  # every game's module, which the first finished match imports (the leaderboard's cells)
    players = players[1:]
    profile = cProfile.Profile()
    cpu = time.process_time()
    queries.on = True
    if not args.no_profile:
        profile.enable()
    made = asyncio.run(run(players, args.moves))
    if not args.no_profile:
        profile.disable()
    cpu_ms = 1000 * (time.process_time() - cpu) / max(made, 1)
    per_move = queries.count / max(made, 1)
    print(f"{made} moves and replies; process CPU {cpu_ms:.2f} ms, {per_move:.1f} SQL statements per move and reply")
    if args.no_profile:
        print(f"figure profile_sql_per_move {per_move:.1f} statements")
        print(f"figure profile_cpu_ms_per_move {cpu_ms:.2f} ms")
        return
    stats = pstats.Stats(profile)
    total = sum(row[2] for row in stats.stats.values())  # every function's own time: the profiled CPU
    print(f"profiled time (sum of own times): {1000 * total / made:.2f} ms per move and reply\n")
    for label, path, function in PARTS:
        cumulative = (
            sum(row[3] for (file, _, name), row in stats.stats.items() if name == function and file.endswith(path))
            if path != "~"
            else sum(row[3] for (file, _, name), row in stats.stats.items() if name == function)
        )
        print(f"  {label:45s} {1000 * cumulative / made:7.2f} ms  {100 * cumulative / total:5.1f}%")
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(args.top)
    print(out.getvalue())


if __name__ == "__main__":
    main()
