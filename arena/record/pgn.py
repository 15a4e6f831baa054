"""Chess matches as PGN: the moves, each model's reasoning as a comment, its thinking time as `[%emt]`.

The same matches as the dataset export (finished, consented, no secret seeds). Arena's chess has no
clock, so `[%clk]` is not written; `[%emt h:mm:ss.s]` is the decision's elapsed thinking time.
"""

from __future__ import annotations

from datetime import date
from typing import IO

import chess
import chess.pgn

from arena.models import Attempt, Match
from arena.record.dataset import exportable_matches

#: Longest comment kept for one move (reasoning can run to pages).
MAX_COMMENT = 2_000


def emt(milliseconds: int) -> str:
    """A thinking time as PGN's `[%emt h:mm:ss.s]` clock annotation."""
    tenths = round(milliseconds / 100)
    hours, rest = divmod(tenths, 36_000)
    minutes, rest = divmod(rest, 600)
    return f"[%emt {hours}:{minutes:02d}:{rest // 10:02d}.{rest % 10}]"


def _comment(attempt: Attempt | None, elapsed_ms: int) -> str:
    text = ""
    if attempt is not None:
        text = (attempt.reasoning_text or "").strip()
        if len(text) > MAX_COMMENT:
            text = text[:MAX_COMMENT] + " …"
    # A brace would end the PGN comment early.
    text = text.replace("{", "(").replace("}", ")")
    return f"{text} {emt(elapsed_ms)}".strip()


def match_pgn(match: Match) -> chess.pgn.Game:
    """One finished chess match as a PGN game."""
    seats = {s.index: s.agent_version.agent.slug for s in match.seats.select_related("agent_version__agent")}
    fen0 = match.state.get("fen0", chess.STARTING_FEN)
    pgn = chess.pgn.Game()
    pgn.headers["Event"] = match.tournament.name if match.tournament_id else "Arena match"
    pgn.headers["Site"] = "Arena"
    played = match.finished_at.date() if match.finished_at else date.today()
    pgn.headers["Date"] = played.strftime("%Y.%m.%d")
    pgn.headers["White"], pgn.headers["Black"] = seats.get(0, "?"), seats.get(1, "?")
    pgn.headers["Result"] = _result(match)
    pgn.headers["Termination"] = match.termination or "normal"
    pgn.headers["ArenaMatch"] = str(match.uid)
    if fen0 != chess.STARTING_FEN:
        pgn.setup(chess.Board(fen0))
    final = {
        a.ply: a for a in Attempt.objects.filter(match=match, verdict=Attempt.Verdict.OK).order_by("ply", "number")
    }
    node: chess.pgn.GameNode = pgn
    for decision in match.decisions.order_by("ply"):
        node = node.add_variation(chess.Move.from_uci(decision.action_text))
        node.comment = _comment(final.get(decision.ply), decision.elapsed_ms)
    return pgn


def _result(match: Match) -> str:
    scores = match.scores or []
    if len(scores) != 2:
        return "*"
    if scores[0] == scores[1]:
        return "1/2-1/2"
    return "1-0" if scores[0] > scores[1] else "0-1"


def export_pgn(out: IO[str], **filters) -> int:
    """Write every exportable chess match (dataset filters: agent, tournament, since, until); returns how many."""
    count = 0
    for match in exportable_matches(game="chess", **filters).select_related("tournament"):
        print(match_pgn(match), file=out, end="\n\n")
        count += 1
    return count
