"""Real Botzone bots, as files a test writes and runs: a Python JSON bot, a C text bot, hostile programs."""

from __future__ import annotations

import os
import stat
import subprocess
import tempfile
from pathlib import Path

PYTHON = "/usr/bin/python3"  # the system's: a program runs as `nobody`, who cannot read the virtualenv

#: Tic-tac-toe in Botzone's JSON mode: replays requests/responses, takes the first empty cell (x, y).
JSON_TICTACTOE = r"""
import json, os, sys
turn = json.loads(sys.stdin.readline())
board = {}
for request in turn["requests"]:
    if request["x"] >= 0:
        board[(request["x"], request["y"])] = 1
for response in turn["responses"]:
    board[(response["x"], response["y"])] = 0
cell = next((x, y) for y in range(3) for x in range(3) if (x, y) not in board)
print(json.dumps({"response": {"x": cell[0], "y": cell[1]}, "debug": os.getpid(), "data": len(board)}))
"""

#: The same bot kept running: first input is the full JSON, then one request a line; prints the marker.
KEEP_RUNNING_TICTACTOE = r"""
import json, os, sys
board = {}
def answer():
    cell = next((x, y) for y in range(3) for x in range(3) if (x, y) not in board)
    board[cell] = 0
    print(json.dumps({"response": {"x": cell[0], "y": cell[1]}, "debug": os.getpid()}))
    print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
turn = json.loads(sys.stdin.readline())
for request in turn["requests"]:
    if request["x"] >= 0:
        board[(request["x"], request["y"])] = 1
for response in turn["responses"]:
    board[(response["x"], response["y"])] = 0
answer()
for line in sys.stdin:
    request = json.loads(line)
    if request["x"] >= 0:
        board[(request["x"], request["y"])] = 1
    answer()
"""

#: Tic-tac-toe in the simple-interaction text mode, in C: first empty cell from the top left.
C_TICTACTOE = r"""
#include <stdio.h>
int main(void) {
    int board[3][3] = {{0}}, turns, x, y;
    if (scanf("%d", &turns) != 1) return 1;
    for (int i = 0; i < 2 * turns - 1; i++) {
        if (scanf("%d %d", &x, &y) != 2) return 1;
        if (x >= 0) board[y][x] = 1;
    }
    for (y = 0; y < 3; y++)
        for (x = 0; x < 3; x++)
            if (!board[y][x]) { printf("%d %d\n", x, y); return 0; }
    return 1;
}
"""

#: Chess in Botzone's JSON format ({"source": "e2", "target": "e4", "promotion": "*"}, "-1" when White starts):
#: replays the game from requests and responses, then plays its best capture (else its first legal move);
#: it never castles or takes en passant itself, but follows an opponent who does.
JSON_CHESS = r"""
import json, sys
START = "RNBQKBNR" + "P" * 8 + "." * 32 + "p" * 8 + "rnbqkbnr"
board = {(i % 8, i // 8): c for i, c in enumerate(START) if c != "."}
VALUE = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9, "k": 100}
def square(name): return "abcdefgh".index(name[0]), int(name[1]) - 1
def name(sq): return "abcdefgh"[sq[0]] + str(sq[1] + 1)
def play(move):
    source, target, promotion = square(move["source"]), square(move["target"]), move["promotion"]
    piece = board.pop(source)
    if piece in "Pp" and source[0] != target[0] and target not in board:
        board.pop((target[0], source[1]), None)  # en passant
    if piece in "Kk" and abs(source[0] - target[0]) == 2:  # castling: the rook follows
        rank = source[1]
        rook_from, rook_to = ((7, rank), (5, rank)) if target[0] == 6 else ((0, rank), (3, rank))
        board[rook_to] = board.pop(rook_from)
    board[target] = (promotion.upper() if piece.isupper() else promotion) if promotion != "*" else piece
def mine(piece, white): return piece.isupper() == white
def rays(sq, piece, white):
    kind = piece.lower()
    if kind == "p":
        step = 1 if white else -1
        ahead = (sq[0], sq[1] + step)
        if ahead not in board and 0 <= ahead[1] < 8:
            yield ahead
            home = 1 if white else 6
            two = (sq[0], sq[1] + 2 * step)
            if sq[1] == home and two not in board:
                yield two
        for dx in (-1, 1):
            diagonal = (sq[0] + dx, sq[1] + step)
            if diagonal in board and not mine(board[diagonal], white):
                yield diagonal
        return
    steps = {"n": [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)],
             "b": [(1, 1), (1, -1), (-1, 1), (-1, -1)], "r": [(1, 0), (-1, 0), (0, 1), (0, -1)]}
    steps["q"] = steps["k"] = steps["b"] + steps["r"]
    for dx, dy in steps[kind]:
        x, y = sq[0] + dx, sq[1] + dy
        while 0 <= x < 8 and 0 <= y < 8:
            if (x, y) in board:
                if not mine(board[(x, y)], white):
                    yield (x, y)
                break
            yield (x, y)
            if kind in "nk":
                break
            x, y = x + dx, y + dy
def attacked(sq, by_white):
    for source, piece in list(board.items()):
        if mine(piece, by_white):
            if piece in "Pp":
                if sq[1] - source[1] == (1 if by_white else -1) and abs(sq[0] - source[0]) == 1:
                    return True
            elif sq in rays(source, piece, by_white):
                return True
    return False
def legal(white):
    for source, piece in sorted(board.items()):
        if not mine(piece, white):
            continue
        for target in list(rays(source, piece, white)):
            taken = board.get(target)
            board[target] = board.pop(source)
            king = next(s for s, p in board.items() if p == ("K" if white else "k"))
            safe = not attacked(king, not white)
            board[source] = board.pop(target)
            if taken:
                board[target] = taken
            if safe:
                yield source, target, VALUE[taken.lower()] if taken else 0
turn = json.loads(sys.stdin.readline())
white = turn["requests"][0]["source"] == "-1"
for request, response in zip(turn["requests"], turn["responses"] + [None]):
    if request["source"] != "-1":
        play(request)
    if response:
        play(response)
moves = list(legal(white))
source, target, _ = max(moves, key=lambda move: move[2])
promotion = "q" if board[source] in "Pp" and target[1] in (0, 7) else "*"
print(json.dumps({"response": {"source": name(source), "target": name(target), "promotion": promotion}}))
"""

FORK_BOMB = "import os\nwhile True:\n    os.fork()\n"
INFINITE_OUTPUT = "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n"
SLEEP_FOREVER = "import time\nwhile True:\n    time.sleep(60)\n"
#: Prints a file it was not given as its response; {path} is filled in.
READ_FILE = 'import json\nprint(json.dumps({{"response": open({path!r}).read()}}))\n'
#: Tries to reach a server on the host's loopback; prints whether it could.
NETWORK = (
    "import json, socket\n"
    "try:\n    socket.create_connection(('127.0.0.1', {port}), timeout=2); reached = 'reached'\n"
    "except OSError as error:\n    reached = type(error).__name__\n"
    'print(json.dumps({{"response": reached}}))\n'
)

#: Tic-tac-toe in JSON mode that counts its turns in `data` (this match) and in `globaldata` (all its matches).
PROBE_TICTACTOE = r"""
import json, sys
turn = json.loads(sys.stdin.readline())
taken = {(r["x"], r["y"]) for r in turn["requests"] + turn["responses"] if r["x"] >= 0}
cell = next((x, y) for y in range(3) for x in range(3) if (x, y) not in taken)
data, globaldata = turn["data"] or 0, turn["globaldata"] or 0
print(json.dumps({"response": {"x": cell[0], "y": cell[1]}, "data": data + 1, "globaldata": globaldata + 1}))
"""

#: Tic-tac-toe in JSON mode that sets `data` only on the turns it received none.
BLINKING_DATA_TICTACTOE = r"""
import json, sys
turn = json.loads(sys.stdin.readline())
taken = {(r["x"], r["y"]) for r in turn["requests"] + turn["responses"] if r["x"] >= 0}
cell = next((x, y) for y in range(3) for x in range(3) if (x, y) not in taken)
answer = {"response": {"x": cell[0], "y": cell[1]}}
if turn["data"] is None:
    answer["data"] = "set"
print(json.dumps(answer))
"""

#: Tic-tac-toe in the simple text mode, in Python: answers, then a debug line, a data line and two globaldata lines.
TEXT_GLOBALDATA_TICTACTOE = r"""
import sys
lines = sys.stdin.read().split("\n")
turns = int(lines[0])
taken = set()
for line in lines[1 : 2 * turns]:
    x, y = map(int, line.split())
    if x >= 0:
        taken.add((x, y))
cell = next((x, y) for y in range(3) for x in range(3) if (x, y) not in taken)
print(cell[0], cell[1])
print("debug")
print("data", turns)
print("first globaldata line")
print("second globaldata line of turn", turns)
"""


#: Fight the Landlord in Botzone's JSON format, as a Botzone bot reads it: its hand is `own` from the first
#: request less its own responses; it leads its lowest single, beats a single with its lowest higher one, else passes.
LANDLORD_BOT = r"""
import json, sys
turn = json.loads(sys.stdin.readline())
hand = set(turn["requests"][0]["own"])
for played in turn["responses"]:
    hand -= set(played)
def rank(card): return card // 4 if card < 52 else card - 39
history = turn["requests"][-1]["history"]
last = history[1] or history[0]
ordered = sorted(hand, key=rank)
if not last:
    play = ordered[:1]
elif len(last) == 1:
    play = [c for c in ordered if rank(c) > rank(last[0])][:1]
else:
    play = []
print(json.dumps({"response": play, "debug": sorted(turn["requests"][-1])}))
"""


#: Mahjong in Botzone's JSON format (requests and responses are strings), as a Botzone bot reads it: its hand is
#: the dealt 13, plus its draws, less what its answers gave away; it discards its loneliest tile, pungs a discard it
#: holds a pair of (naming the discard that follows) while the walls are far from empty, and passes otherwise.
MAHJONG_BOT = r"""
import json, sys
from collections import Counter
turn = json.loads(sys.stdin.readline())
requests, responses = turn["requests"], turn["responses"]
me = int(requests[0].split()[1])
hand, draws = Counter(requests[1].split()[5:]), 0
for index, request in enumerate(requests):
    words = request.split()
    if words[0] == "2":
        hand[words[1]] += 1
    draws += words[0] == "2" or words[2:3] == ["DRAW"]
    if index < len(responses):
        answer = responses[index].split()
        if answer[0] == "PLAY":
            hand[answer[1]] -= 1
        elif answer[0] == "PENG":
            hand[words[-1]] -= 2
            hand[answer[1]] -= 1
def loneliest(tiles):
    return min((t for t in tiles if tiles[t] > 0), key=lambda t: (tiles[t], t))
last = requests[-1].split()
if last[0] == "2":
    answer = "PLAY " + loneliest(hand)
elif last[2] in ("PLAY", "PENG", "CHI") and int(last[1]) != me and hand[last[-1]] >= 2 and draws < 50:
    rest = hand.copy()
    rest[last[-1]] -= 2
    answer = "PENG " + loneliest(rest)
else:
    answer = "PASS"
print(json.dumps({"response": answer, "debug": requests[-1]}))
"""


#: Hold'em in Botzone's TexasHoldem2p format, as a Botzone bot reads it: it puts 200 more chips in when it opens a
#: hand's betting holding a pair (a legal raise for the small blind), and otherwise checks or calls.
HOLDEM_BOT = r"""
import json, sys
turn = json.loads(sys.stdin.readline())
told = turn["requests"][-1]
pair = told["my_cards"][0] // 4 == told["my_cards"][1] // 4
answer = 200 if pair and not told["history"] and not told["public_cards"] else 0
print(json.dumps({"response": answer, "debug": sorted(told)}))
"""

#: The program directories this test process made: its programs are the ones whose command names one.
_PROGRAM_DIRS: list[str] = []


def program_dir() -> Path:
    """A directory the unprivileged user can read, for the programs under test."""
    path = Path(tempfile.mkdtemp(prefix="arena-test-bots-"))
    path.chmod(0o755)
    _PROGRAM_DIRS.append(str(path))
    return path


def python_bot(directory: Path, name: str, source: str) -> str:
    """Write a Python bot; its command."""
    path = directory / f"{name}.py"
    path.write_text(source)
    path.chmod(0o644)
    return f"{PYTHON} {path}"


def c_bot(directory: Path, name: str, source: str) -> str:
    """Compile a C bot with gcc; its command."""
    path = directory / f"{name}.c"
    path.write_text(source)
    binary = directory / name
    subprocess.run(["gcc", "-O2", "-o", str(binary), str(path)], check=True, capture_output=True)
    binary.chmod(binary.stat().st_mode | stat.S_IRUSR | stat.S_IXOTH | stat.S_IROTH)
    return str(binary)


def nobody_processes() -> int:
    """How many live processes the unprivileged user runs from this test process's program directories (0 when
    every program was killed; zombies left to init to reap are dead and not counted). Other test processes'
    programs, running beside these under pytest-xdist, are not counted."""
    result = subprocess.run(["ps", "-u", "nobody", "-o", "stat=,args="], capture_output=True, text=True)
    rows = (line.strip().split(maxsplit=1) for line in result.stdout.splitlines() if line.strip())
    return sum(
        1
        for stat, *args in rows
        if not stat.startswith("Z") and any(directory in " ".join(args) for directory in _PROGRAM_DIRS)
    )


def secret_file(directory: Path, text: str) -> Path:
    """A file only Arena's own user may read."""
    path = directory / "secret.txt"
    path.write_text(text)
    os.chmod(path, 0o600)
    return path
