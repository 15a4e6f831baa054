"""A UCI chess engine in a seat (python-chess's engine module), kept running for the match.

Config: `command` (the engine, e.g. "stockfish" or "/usr/games/stockfish"), at most one of `uci_elo`
(UCI_LimitStrength + UCI_Elo), `nodes` or `movetime_ms` (default: 100 ms a move), `time_s` (wall
time per decision, default 10: starting the engine, its options and the search all count) and `options`
(other UCI options by name, e.g. {"Threads": 1}). The engine's output is cut into lines by
`arena.agents.outside_io` before python-chess sees it: each line and each decision's output are capped
(`MAX_LINE_BYTES`, `limits.output_bytes`), and its `info` lines are never parsed (the last one with a score
is kept as text), so a flood of them costs the event loop almost nothing and ends as `over_budget`.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import chess
import chess.engine

from arena.agents.base import AgentConfigError, AttemptData, DecisionResult
from arena.agents.outside_io import Lines, OverCap
from arena.agents.sandbox import DEFAULT_LIMITS, Sandbox, limits_with_defaults
from games import Game

DEFAULT_MOVETIME_MS = 100
#: Characters of the engine's last info line kept as the attempt's reasoning.
KEPT_INFO_CHARS = 2_000


class BoundedUciProtocol(chess.engine.UciProtocol):
    """python-chess's UCI protocol reading through `Lines`: past a cap the engine is killed and `over` says why;
    `info` lines are kept as text, never handed to python-chess to parse."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lines = Lines(byte_cap=DEFAULT_LIMITS["output_bytes"])
        self.over = ""
        self.last_info = ""

    def new_decision(self, byte_cap: int) -> None:
        """Count the next decision's output afresh."""
        self.lines.byte_cap = byte_cap
        self.lines.reset()
        self.last_info = ""

    def pipe_data_received(self, fd: int, data: bytes | str) -> None:
        if fd != 1 or self.over:
            return
        try:
            lines = self.lines.feed(data if isinstance(data, bytes) else data.encode())
        except OverCap as error:
            self.over = str(error)
            self.transport.kill()  # python-chess then fails the command: the engine terminated
            return
        for raw in lines:
            line = raw.decode(errors="replace")
            if line.startswith("info "):
                if " score " in line:
                    self.last_info = line[:KEPT_INFO_CHARS]
                continue
            self._line_received(line)


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
        self.engine: BoundedUciProtocol | None = None
        self.transport: asyncio.SubprocessTransport | None = None
        self.sandbox: Sandbox | None = None

    def _search_limit(self) -> chess.engine.Limit:
        if self.config.get("nodes") is not None:
            return chess.engine.Limit(nodes=int(self.config["nodes"]))
        movetime_ms = self.config.get("movetime_ms")
        if movetime_ms is None:
            movetime_ms = DEFAULT_MOVETIME_MS
        return chess.engine.Limit(time=int(movetime_ms) / 1000)

    async def _engine(self) -> BoundedUciProtocol:
        if self.engine is None:
            # The same walls as a Botzone program: an engine is a command from the host's disk, no more trusted.
            self.sandbox = Sandbox(self.config["command"], self.limits)
            argv, walls = self.sandbox.launch()
            self.transport, self.engine = await BoundedUciProtocol.popen(
                argv, stderr=asyncio.subprocess.DEVNULL, **walls
            )
            self.sandbox.started(self.transport.get_pid())
            await self.engine.initialize()
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
        time_s = float(self.config.get("time_s") or 10)
        try:
            async with asyncio.timeout(time_s):
                engine = await self._engine()
                engine.new_decision(int(self.limits["output_bytes"]))
                result = await engine.play(board, limit, info=chess.engine.INFO_NONE)
            move = result.move.uci() if result.move else ""
            attempt.raw_text = f"bestmove {move}"
            attempt.reasoning_text = engine.last_info
            attempt.parsed_action = move
            if move and game.is_legal(state, move):
                action = move
            else:
                attempt.verdict, attempt.message = "illegal", f"The engine answered {move or 'no move'!r}."
        except TimeoutError:
            attempt.verdict, attempt.message = "timeout", f"No bestmove within {time_s:g} s."
            await self.close()
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError, OSError) as error:
            over = self.engine.over if self.engine is not None else ""
            if over:
                attempt.verdict, attempt.message = "over_budget", f"The engine printed {over}; it was killed."
            else:
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
