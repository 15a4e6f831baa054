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


def program_dir() -> Path:
    """A directory the unprivileged user can read, for the programs under test."""
    path = Path(tempfile.mkdtemp(prefix="arena-test-bots-"))
    path.chmod(0o755)
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
    """How many live processes the unprivileged user has (0 when every program was killed; zombies
    left to init to reap are dead and not counted)."""
    result = subprocess.run(["ps", "-u", "nobody", "-o", "stat="], capture_output=True, text=True)
    return sum(1 for stat in result.stdout.split() if not stat.startswith("Z"))


def secret_file(directory: Path, text: str) -> Path:
    """A file only Arena's own user may read."""
    path = directory / "secret.txt"
    path.write_text(text)
    os.chmod(path, 0o600)
    return path
