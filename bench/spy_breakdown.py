"""Where a daphne process's busy samples go, from a py-spy raw profile taken with `--threads --idle`.

Each sample is one thread's stack; a thread waiting for work (the event loop in `epoll`, a pool
thread in its queue) is idle and left out, and so is the application's start-up (its imports). A
busy sample is filed under the first part, in the order of PARTS, that one of its frames names, so
a part includes everything it called (the person's move includes its SQL); on the event loop the
innermost library running names the part (Twisted's framing, Redis, Channels, asyncio itself).
With py-spy's `--gil`, only the thread holding the GIL is sampled: Python running, not waiting.

Usage: py-spy record -r 200 -d 60 --threads --idle -f raw -o spy.raw -p <daphne pid>
       .venv/bin/python bench/spy_breakdown.py spy.raw [--per-ms MS]
`--per-ms` spreads a measured CPU per move and reply over the shares (ms per move and reply).
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict

#: Leaf frames of a thread that waits: not CPU.
IDLE_LEAVES = ("EpollSelector.select", "_worker (concurrent/futures/thread.py", "Condition.wait", "Event.wait")

#: A frame of the process starting (importing the application): before any game, not part of a move.
STARTUP = "<module> (arena/asgi.py"

#: (thread group, part, frame text that marks it), first match wins; frames are "function (file:line)".
PARTS = [
    ("database thread", "live panel: board", "connect_four_board (arena/pages/boards.py"),
    ("database thread", "live panel: board", "render_view (arena/pages/rendering.py"),
    ("database thread", "live panel: move list", "arena/pages/move_list.py"),
    ("database thread", "live panel: legal moves", "legal_moves (arena/pages/rendering.py"),
    ("database thread", "live panel: drawn in Python (arena/pages/live_panel.py)", "arena/pages/live_panel.py"),
    ("database thread", "live panel: templates (match-live until it went; a game's controls)", "render_plain (arena/"),
    ("database thread", "live panel: the rest (state, views, seats)", "live_match_html (arena/pages/rendering.py"),
    ("database thread", "the frame's json.dumps", "FragmentCache.frame (arena/play/consumers.py"),
    ("database thread", "person's move (person_move)", "person_move (arena/record/people.py"),
    ("database thread", "runner: claim (match_claim)", "match_claim (arena/record/turns.py"),
    ("database thread", "runner: record the reply (decisions_record)", "decisions_record (arena/record/services.py"),
    ("database thread", "runner: other", "arena/runner/"),
    ("database thread", "a page opens (MatchConsumer.open)", "MatchConsumer.open (arena/play/consumers.py"),
    ("database thread", "socket leases and limits (cache counts in Redis)", "arena/play/live_limits.py"),
    ("database thread", "sessions and sign-in (django.contrib)", "(django/contrib/"),
    ("database thread", "match read for a render (render_now)", "render_now (arena/play/consumers.py"),
    ("database thread", "handing the result to the loop (call_soon_threadsafe)", "call_soon_threadsafe"),
    ("database thread", "other", ""),
    ("event loop", "arena code on the loop (consumers, runner's loop)", "(arena/"),
    ("event loop", "Redis layer (channels_redis, redis-py, msgpack)", "redis"),
    ("event loop", "handing work to threads (sync_to_async)", "asgiref/"),
    ("event loop", "Channels dispatch (consumer, middleware, sessions)", "(channels/"),
    ("event loop", "websocket framing and sockets (Twisted, autobahn, daphne)", "twisted/"),
    ("event loop", "websocket framing and sockets (Twisted, autobahn, daphne)", "autobahn/"),
    ("event loop", "websocket framing and sockets (Twisted, autobahn, daphne)", "daphne/"),
    ("event loop", "asyncio itself (selector, callbacks)", ""),
    ("bot threads", "bots choosing moves", ""),
    ("worker threads", "sync_to_async(thread_sensitive=False): leases, anonymous opens", ""),
]


def thread_group(name: str) -> str:
    if name.startswith("ThreadPoolExecutor-0"):
        return "database thread"
    if name == "MainThread":
        return "event loop"
    if name.startswith("arena-bots"):
        return "bot threads"
    return "worker threads"


def part_of(group: str, frames: list[str]) -> str:
    """The part of `group` a busy stack belongs to: the first PARTS entry one of its frames names; on the event
    loop, the innermost frame that any entry names decides (whose code was running)."""
    entries = [(part, marker) for entry_group, part, marker in PARTS if entry_group == group]
    if group == "event loop":
        for frame in reversed(frames):
            for part, marker in entries:
                if marker and marker in frame:
                    return part
        return entries[-1][0]
    return next(part for part, marker in entries if not marker or any(marker in frame for frame in frames))


def breakdown(path: str) -> tuple[dict[str, Counter], int]:
    parts: dict[str, Counter] = defaultdict(Counter)
    idle = 0
    with open(path) as lines:
        for line in lines:
            stack, count = line.rsplit(" ", 1)
            thread, *frames = stack.split(";")
            if not frames or frames[-1].startswith(IDLE_LEAVES):
                idle += int(count)
                continue
            if any(frame.startswith(STARTUP) for frame in frames):
                continue
            group = thread_group(thread.split(": ", 1)[1])
            parts[group][part_of(group, frames)] += int(count)
    return parts, idle


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("raw")
    parser.add_argument("--per-ms", type=float, default=0.0, help="CPU per move and reply to spread over the shares")
    args = parser.parse_args()
    parts, idle = breakdown(args.raw)
    busy = sum(sum(counter.values()) for counter in parts.values())
    print(f"{busy} busy samples ({idle} idle left out)")
    print("| thread | part | busy samples | share | ms per move and reply |")
    print("|---|---|---|---|---|")
    for group, counter in sorted(parts.items(), key=lambda item: -sum(item[1].values())):
        total = sum(counter.values())
        print(f"| **{group}** | | {total} | **{total / busy:.1%}** | **{args.per_ms * total / busy:.2f}** |")
        for part, count in counter.most_common():
            print(f"| | {part} | {count} | {count / busy:.1%} | {args.per_ms * count / busy:.2f} |")


if __name__ == "__main__":
    main()
