"""Published results as reference rows: GameBench's matches.json (results only) and BotzoneBench's game logs,
every Botzone move replayed through our engines (with Botzone's rules as named variants) before it is accepted.

`reference_records_import` is the only writer; importing the same file twice adds nothing.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db import transaction

from games import get_game
from ratings.models import ReferenceRecord

GAMEBENCH = {"repository": "Joshuaclymer/GameBench", "commit": "main"}
BOTZONE = {"repository": "AMysteriousBeing/BotzoneBench", "commit": "ca70a864e5ff5732ce8674fdfb3a9d5803cd8c27"}
#: Botzone's game names → (our slug, the variant whose rules Botzone's judge follows).
BOTZONE_GAMES = {
    "TicTacToe": ("tic-tac-toe", ""),
    "Gomoku": ("gomoku", ""),
    "Reversi": ("reversi", ""),
    "Ataxx": ("ataxx", "botzone"),
    "Chess": ("chess", "botzone"),
}
#: Botzone games whose logs we recognise but do not replay yet: reported as skipped, never as bad records.
BOTZONE_NOT_YET = {"FightTheLandlord", "ChineseStandardMahjong", "TexasHoldem2p"}
FILE_NAME = re.compile(r"(?P<game>[A-Za-z0-9]+)__lv(?P<level>\d+)__(?P<model>.+)__(?P<n>\d+)-(?P<kind>llm|bl)\.json")


class RecordRejected(ValueError):
    """A record that cannot be accepted; the message names the file, the entry and why."""


class RecordSkipped(Exception):
    """A record of a game we cannot replay faithfully yet: not imported, and not counted as a bad record."""

    def __init__(self, game: str) -> None:
        super().__init__(f"{game} logs are not imported yet")
        self.game = game


@dataclass
class Parsed:
    """One record ready to store."""

    path: str
    index: int
    game: str
    agents: list[str]
    scores: list[float]
    variant: str = ""
    level: int | None = None
    moves: list[str] = field(default_factory=list)
    termination: str = ""


def gamebench_records(path: Path) -> list[Parsed]:
    """GameBench's matches.json: `{"game": g, "<agent>": score, "<agent>": score}` per match, results only."""
    out = []
    for index, entry in enumerate(json.loads(path.read_text())):
        players = [(k, v) for k, v in entry.items() if k != "game"]
        if len(players) != 2 or not all(isinstance(v, int | float) and 0 <= v <= 1 for _, v in players):
            raise RecordRejected(f"{path.name} entry {index}: expected a game and two scores in [0, 1], got {entry!r}")
        out.append(
            Parsed(path.name, index, str(entry["game"]), [p for p, _ in players], [float(v) for _, v in players])
        )
    return out


def botzone_action(slug: str, state: Any, move: dict) -> Any:
    """Our action for one Botzone log entry (x is the column, y the row counted from the top)."""
    if slug == "chess":
        promotion = move.get("promotion", "*")
        return f"{move['source']}{move['target']}{'' if promotion in ('*', None) else promotion}"
    if slug == "ataxx":
        source, to = (6 - move["y0"]) * 7 + move["x0"], (6 - move["y1"]) * 7 + move["x1"]
        return (to,) if max(abs(move["x0"] - move["x1"]), abs(move["y0"] - move["y1"])) == 1 else (source, to)
    if slug == "reversi" and move["x"] == -1:
        return 64  # pass
    size = {"tic-tac-toe": 3, "gomoku": 15, "reversi": 8}[slug]
    return move["y"] * size + move["x"]


def botzone_winner(slug: str, winner: int) -> int | None:
    """Our seat that won, None for a draw: Botzone's chess judge numbers black 0, white 1, draw 2."""
    if slug == "chess":
        return {0: 1, 1: 0, 2: None}[winner]
    return winner


def botzone_record(path: Path) -> Parsed:
    """One Botzone log replayed move by move; RecordRejected at the first move our rules reject or result they deny."""
    named = FILE_NAME.fullmatch(path.name)
    if named and named["game"] in BOTZONE_NOT_YET:
        raise RecordSkipped(named["game"])
    if not named or named["game"] not in BOTZONE_GAMES:
        raise RecordRejected(f"{path.name}: not a Botzone log name Game__lv<k>__<model>__<n>-llm|bl.json we can read")
    slug, variant = BOTZONE_GAMES[named["game"]]
    game = get_game(slug)
    state = game.initial_state(seed=0, **game.variants.get(variant, {}))
    moves, winner, judged, forfeit = [], None, False, False
    for index, entry in enumerate(json.loads(path.read_text())[1:], start=1):
        if not isinstance(entry, dict):
            raise RecordRejected(f"{path.name} entry {index}: not a move")
        forfeit = "err" in entry
        if set(entry) - {"player", "color", "winner", "err"}:
            action = botzone_action(slug, state, entry)
            if not game.is_legal(state, action):
                raise RecordRejected(
                    f"{path.name} entry {index}: {entry!r} is not legal in our {slug} at ply {len(moves)}"
                )
            moves.append(game.action_to_text(state, action))
            state = game.apply(state, action)
        if "winner" in entry:
            winner, judged = botzone_winner(slug, int(entry["winner"])), True
    outcome = game.outcome(state)
    if outcome is None and not forfeit:
        raise RecordRejected(f"{path.name}: the log ends at ply {len(moves)} but our {slug} game is not over")
    if outcome is not None:
        if judged and outcome.winner != winner:
            raise RecordRejected(f"{path.name}: Botzone's judge says {winner}, our replay says {outcome.winner}")
        scores, termination = list(outcome.scores), outcome.reason
    else:
        scores = [1.0 if seat == winner else 0.0 for seat in (0, 1)]
        termination = "forfeit (Botzone judge: error)"
    model, bot = named["model"], f"botzone-lv{named['level']}"
    # BotzoneBench's evaluate_single_game.py (ca70a864) seats the model first in "-llm" logs, the bot in "-bl".
    agents = [model, bot] if named["kind"] == "llm" else [bot, model]
    return Parsed(path.name, 0, slug, agents, scores, variant, int(named["level"]), moves, termination[:200])


@transaction.atomic
def reference_records_import(*, source: str, records: list[Parsed], repository: str, commit: str) -> int:
    """Store `records` as reference rows of `source`; returns how many were new (a repeat import adds none)."""
    created = 0
    for r in records:
        _, new = ReferenceRecord.objects.get_or_create(
            source=source,
            commit=commit,
            path=r.path,
            index=r.index,
            defaults={
                "repository": repository,
                "game": r.game,
                "variant": r.variant,
                "agents": r.agents,
                "scores": r.scores,
                "level": r.level,
                "moves": r.moves,
                "termination": r.termination,
            },
        )
        created += new
    return created
