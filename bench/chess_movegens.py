"""Compiled chess move generators from PyPI against OpenSpiel's chess and python-chess.

For each candidate: a bare random playout loop (legal list → random choice → play; a game ends on no legal move,
100 quiet half-moves, insufficient material where the library tests it, or 500 plies), interleaved round by round
with `bench/engine.py`'s OpenSpiel and bare python-chess loops, as a ratio to OpenSpiel per playout and per ply.
Then, over the positions of seeded random games, whether each lists the same legal moves (as UCI) as python-chess,
in the same order, and gives python-chess's insufficient-material verdict in every position of five men or fewer.

bulletchess, the one Arena's chess uses (`games/chess_game/moves.py`), is a project dependency; the other
candidates are not: install them aside and pass the folder:
    .venv/bin/pip install --no-deps --target /tmp/chess-movegens rust-chess==0.4.3 bulletchess==0.4.0 \
        pyrust-chess==0.1.1 cozy-chess-py==0.1.1 pyffish==0.0.90
    .venv/bin/python bench/chess_movegens.py --packages /tmp/chess-movegens [--seconds 1.5] [--rounds 3] [--games 100]

`--contract-playouts N` only plays N seeded random playouts of our chess through the game contract, to count
their instructions under `valgrind --tool=callgrind` (N minus N = 0).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import chess

from bench.engine import Rate, openspiel, python_chess_bare

MAX_PLIES = 500


@dataclass(frozen=True)
class Candidate:
    """How to drive one library: a board from a FEN, its legal moves, a move played, its UCI, its verdicts."""

    module: str
    board: Callable[[Any, str], Any]  # (module, fen) -> board
    legal: Callable[[Any], list[Any]]
    play: Callable[[Any, Any], Any]  # returns the board after the move (the same object where it plays in place)
    uci: Callable[[Any], str]
    halfmove_clock: Callable[[Any], int]
    insufficient: Callable[[Any, Any], bool] | None  # (module, board) -> verdict; None: the library has no test


def _play_in_place(method: str) -> Callable[[Any, Any], Any]:
    def play(board: Any, move: Any) -> Any:
        getattr(board, method)(move)
        return board

    return play


def _pyffish_board(sf: Any, fen: str) -> Any:
    return (sf, fen)  # stateless: every call takes the FEN again


CANDIDATES = {
    "rust-chess": Candidate(
        "rust_chess",
        lambda rc, fen: rc.Board(fen, rc.RepetitionDetectionMode.NONE),  # FULL raises on fivefold repetition
        lambda board: list(board.generate_legal_moves()),
        _play_in_place("make_move"),
        lambda move: move.get_uci(),
        lambda board: board.halfmove_clock,
        lambda rc, board: board.is_insufficient_material(),
    ),
    "bulletchess": Candidate(
        "bulletchess",
        lambda bc, fen: bc.Board.from_fen(fen),
        lambda board: board.legal_moves(),
        _play_in_place("apply"),
        lambda move: move.uci(),
        lambda board: board.halfmove_clock,
        lambda bc, board: board in bc.INSUFFICIENT_MATERIAL,
    ),
    "pyrust-chess": Candidate(
        "pyrust_chess",
        lambda pc, fen: pc.Board(fen),
        lambda board: list(board.generate_legal_moves()),
        _play_in_place("push"),
        lambda move: move.uci(),
        lambda board: board.halfmove_clock,
        lambda pc, board: board.is_insufficient_material(),
    ),
    "cozy-chess-py": Candidate(
        "cozy_chess",
        lambda cc, fen: cc.Board.from_fen(fen),
        lambda board: board.generate_moves(),
        _play_in_place("play_unchecked"),
        str,
        lambda board: board.halfmove_clock,
        None,
    ),
    "pyffish": Candidate(
        "pyffish",
        _pyffish_board,
        lambda board: board[0].legal_moves("chess", board[1], []),
        lambda board, move: (board[0], board[0].get_fen("chess", board[1], [move])),
        str,
        lambda board: int(board[1].split()[4]),
        lambda sf, board: all(sf.has_insufficient_material("chess", board[1], [])),
    ),
}


def candidate_playouts(candidate: Candidate, seconds: float, seed: int) -> Rate:
    """Random playouts driven through `candidate` (its few lambdas cost it a little against the inline loops)."""
    module, rng = importlib.import_module(candidate.module), random.Random(seed)
    legal, play, clock, insufficient = candidate.legal, candidate.play, candidate.halfmove_clock, candidate.insufficient
    done = plies = 0
    started = time.perf_counter()
    while (elapsed := time.perf_counter() - started) < seconds:
        board = candidate.board(module, chess.STARTING_FEN)
        for _ in range(MAX_PLIES):
            moves = legal(board)
            if not moves or clock(board) >= 100 or (insufficient is not None and insufficient(module, board)):
                break
            board = play(board, rng.choice(moves))
            plies += 1
        done += 1
    return done / elapsed, plies / elapsed


@dataclass
class Agreement:
    positions: int = 0
    other_moves: int = 0  # positions whose legal UCI set differs from python-chess's
    other_order: int = 0  # same set, another order
    endings: int = 0  # positions of five men or fewer
    other_verdict: int = 0  # of those, where the insufficient-material verdict differs
    example: str = ""


def agreement(names: list[str], games: int) -> dict[str, Agreement]:
    """Compare each candidate with python-chess over the positions of `games` seeded random games, played to
    mate, stalemate, 100 quiet half-moves or 400 plies (no insufficient-material stop, so they reach endings)."""
    modules = {name: importlib.import_module(CANDIDATES[name].module) for name in names}
    found = {name: Agreement() for name in names}
    for seed in range(games):
        rng, board = random.Random(seed), chess.Board()
        for _ in range(400):
            reference = [move.uci() for move in board.generate_legal_moves()]
            fen, ending = board.fen(), chess.popcount(board.occupied) <= 5
            for name in names:
                candidate, tally = CANDIDATES[name], found[name]
                theirs = candidate.board(modules[name], fen)
                listed = [candidate.uci(move) for move in candidate.legal(theirs)]
                tally.positions += 1
                if sorted(listed) != sorted(reference):
                    tally.other_moves += 1
                    tally.example = tally.example or f"{fen}: {sorted(set(listed) ^ set(reference))[:4]}"
                elif listed != reference:
                    tally.other_order += 1
                if ending and candidate.insufficient is not None:
                    tally.endings += 1
                    verdict = board.is_insufficient_material()
                    if candidate.insufficient(modules[name], theirs) != verdict:
                        tally.other_verdict += 1
                        tally.example = tally.example or f"{fen}: python-chess says insufficient material {verdict}"
            if not reference or board.halfmove_clock >= 100:
                break
            board.push(rng.choice(list(board.generate_legal_moves())))
    return found


def contract_playouts(games: int) -> int:
    """Seeded random playouts through the game contract, as `bench/engine.py` plays them; returns the plies played.
    For a deterministic count under callgrind (the machine is shared): instructions of N playouts minus N = 0."""
    from games.chess_game import Chess

    game, plies = Chess(), 0
    for seed in range(games):
        rng, state = random.Random(seed), game.initial_state(seed=seed)
        while game.current_player(state) is not None:
            state = game.apply(state, game.random_action(state, rng))
            plies += 1
    return plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--packages", help="Folder the candidates were installed into (--target); without it, none.")
    parser.add_argument("--seconds", type=float, default=1.5, help="Time per measurement round.")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=100, help="Seeded random games for the move-list comparison.")
    parser.add_argument("--candidate", action="append", choices=list(CANDIDATES))
    parser.add_argument("--contract-playouts", type=int, metavar="N", help="Only play N seeded playouts of our chess.")
    args = parser.parse_args()
    if args.contract_playouts is not None:
        print(f"{contract_playouts(args.contract_playouts)} plies")
        return
    if args.packages:
        sys.path.append(args.packages)
    names = [name for name in args.candidate or CANDIDATES if importlib.util.find_spec(CANDIDATES[name].module)]
    for name in sorted(set(args.candidate or CANDIDATES) - set(names)):
        print(f"{name}: not installed (see this script's docstring), skipped")
    peer: list[Rate] = []
    rates: dict[str, list[Rate]] = {"python-chess": [], **{name: [] for name in names}}
    for round_ in range(args.rounds):
        peer.append(openspiel("chess", args.seconds, round_))
        rates["python-chess"].append(python_chess_bare(args.seconds, round_))
        for name in names:
            rates[name].append(candidate_playouts(CANDIDATES[name], args.seconds, round_))
    figures = []
    print(f"{'OpenSpiel chess':<16} {statistics.median(rate[0] for rate in peer):9.1f} playouts/s")
    for name, mine in rates.items():
        per_playout = statistics.median(a[0] / b[0] for a, b in zip(mine, peer, strict=True))
        per_ply = statistics.median(a[1] / b[1] for a, b in zip(mine, peer, strict=True))
        playouts = statistics.median(rate[0] for rate in mine)
        print(f"{name:<16} {playouts:9.1f} playouts/s   ratio {per_playout:.2f} (per ply {per_ply:.2f})", flush=True)
        figures.append(f"figure chess_movegen_{name.replace('-', '_')}_plies_vs_openspiel {per_ply:.2f} ratio")
    print()
    for name, tally in agreement(names, args.games).items():
        print(
            f"{name:<16} {tally.positions} positions: other legal moves in {tally.other_moves}, same moves in another "
            f"order in {tally.other_order}; insufficient material differs in {tally.other_verdict} of {tally.endings} "
            f"endings {tally.example}"
        )
    print()
    for figure in figures:
        print(figure)


if __name__ == "__main__":
    main()
