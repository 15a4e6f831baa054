"""A UCI chess engine in a seat (python-chess's engine module), kept running for the match.

Config: `command` (the engine, e.g. "stockfish" or "/usr/games/stockfish"), at most one of `uci_elo`
(UCI_LimitStrength + UCI_Elo), `nodes` or `movetime_ms` (default: 100 ms a move), `time_s` (wall
time per decision, default 10) and `options` (other UCI options by name, e.g. {"Threads": 1}).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import chess
import chess.engine

from arena.agents.base import AgentConfigError, AttemptData, DecisionResult
from arena.agents.sandbox import Sandbox, limits_with_defaults
from games import Game

DEFAULT_MOVETIME_MS = 100


class UCIAgent:
    """A chess engine over UCI; one attempt per decision."""

    def __init__(self, config: dict[str, Any], *, match_id: int | None = None) -> None:
        if not config.get("command"):
            raise AgentConfigError("A UCI agent needs 'command' in its config.")
        chosen = [name for name in ("uci_elo", "nodes", "movetime_ms") if config.get(name) is not None]
        if len(chosen) > 1:
            raise AgentConfigError(f"Give at most one of uci_elo, nodes, movetime_ms; got {', '.join(chosen)}.")
        self.config = config
        self.limits = limits_with_defaults({"limits": {"cpu_s": 3600, **(config.get("limits") or {})}})
        self.engine: chess.engine.UciProtocol | None = None
        self.transport: asyncio.SubprocessTransport | None = None
        self.sandbox: Sandbox | None = None

    def _search_limit(self) -> chess.engine.Limit:
        if self.config.get("nodes") is not None:
            return chess.engine.Limit(nodes=int(self.config["nodes"]))
        movetime_ms = self.config.get("movetime_ms")
        if movetime_ms is None:
            movetime_ms = DEFAULT_MOVETIME_MS
        return chess.engine.Limit(time=int(movetime_ms) / 1000)

    async def _engine(self) -> chess.engine.UciProtocol:
        if self.engine is None:
            # The same walls as a Botzone program: an engine is a command from the host's disk, no more trusted.
            self.sandbox = Sandbox(self.config["command"], self.limits)
            argv, walls = self.sandbox.launch()
            self.transport, self.engine = await chess.engine.popen_uci(argv, stderr=asyncio.subprocess.DEVNULL, **walls)
            self.sandbox.started(self.transport.get_pid())
            options = dict(self.config.get("options") or {})
            if self.config.get("uci_elo") is not None:
                options.update({"UCI_LimitStrength": True, "UCI_Elo": int(self.config["uci_elo"])})
            if options:
                await self.engine.configure(options)
        return self.engine

    async def decide(self, game: Game, state: Any, seat: int, match_seed: int) -> DecisionResult:
        """Ask the engine for its move; a crash, a timeout or an illegal move is the attempt's verdict."""
        started = time.perf_counter()
        if game.slug != "chess":
            message = "A UCI engine plays chess only."
            return DecisionResult(action=None, attempts=[AttemptData(verdict="api_error", message=message)])
        board = game.board(state)
        limit = self._search_limit()
        sent = f"position fen {board.root().fen()} moves {' '.join(m.uci() for m in board.move_stack)}\ngo {_go(limit)}"
        attempt = AttemptData(verdict="ok", messages=[{"role": "uci", "content": sent}])
        action = None
        try:
            engine = await self._engine()
            async with asyncio.timeout(float(self.config.get("time_s") or 10)):
                result = await engine.play(board, limit, info=chess.engine.INFO_ALL)
            move = result.move.uci() if result.move else ""
            attempt.raw_text = f"bestmove {move}"
            attempt.reasoning_text = _info_text(result.info)
            attempt.parsed_action = move
            if move and game.is_legal(state, move):
                action = move
            else:
                attempt.verdict, attempt.message = "illegal", f"The engine answered {move or 'no move'!r}."
        except TimeoutError:
            attempt.verdict, attempt.message = "timeout", f"No bestmove within {self.config.get('time_s') or 10} s."
            await self.close()
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError, OSError) as error:
            attempt.verdict, attempt.message = "crashed", f"The engine failed: {error}"
            await self.close()
        if self.sandbox is not None and self.sandbox.notes and not attempt.message:
            attempt.message = "; ".join(self.sandbox.notes)
        attempt.latency_ms = round((time.perf_counter() - started) * 1000)
        return DecisionResult(action=action, attempts=[attempt], elapsed_ms=attempt.latency_ms)

    async def close(self) -> None:
        """Quit the engine (the runner calls this when it stops playing the match)."""
        engine, self.engine = self.engine, None
        if engine is not None:
            try:
                async with asyncio.timeout(2):
                    await engine.quit()
            except (TimeoutError, chess.engine.EngineError, chess.engine.EngineTerminatedError):
                pass
        if self.transport is not None:
            self.transport.close()
            self.transport = None
        if self.sandbox is not None:
            self.sandbox.close()
            self.sandbox = None


def _go(limit: chess.engine.Limit) -> str:
    return f"nodes {limit.nodes}" if limit.nodes is not None else f"movetime {round(limit.time * 1000)}"


def _info_text(info: dict[str, Any]) -> str:
    """The engine's last search info, as a UCI info line (depth, score, nodes, pv)."""
    parts = []
    for key in ("depth", "seldepth", "nodes", "nps", "time"):
        if key in info:
            parts.append(f"{key} {info[key]}")
    if "score" in info:
        parts.append(f"score {info['score'].white()} (from White)")
    if info.get("pv"):
        parts.append("pv " + " ".join(move.uci() for move in info["pv"]))
    return "info " + " ".join(parts) if parts else ""
