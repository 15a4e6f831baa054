"""A program in a seat, speaking Botzone's bot protocol (JSON or simple-interaction text, per turn or kept running).

Config: `command` (run with a working directory of its own), `protocol` ("botzone" for JSON,
"botzone-simple" for text), `keep_running` (bool), `limits` (see sandbox.DEFAULT_LIMITS). Botzone's
`data` (per seat of a match) and `globaldata` (per agent) are kept in the record (`arena.record.program_memory`),
so they come back on the program's next turn wherever and whenever that turn is played.
"""

from __future__ import annotations

import json
import time
from dataclasses import replace
from typing import Any

from asgiref.sync import sync_to_async

from arena.agents import botzone, build, parked
from arena.agents.base import AgentConfigError, AttemptData, DecisionResult
from arena.agents.history import MatchMoves
from arena.agents.sandbox import DEFAULT_LIMITS, Program, RunResult, limit_maxima, limits_with_defaults, run_once
from arena.record.program_memory import (
    MAX_MEMORY_BYTES,
    ProgramMemory,
    program_memory,
    program_memory_save,
    too_big,
)
from games import Game, IllegalAction

PROTOCOLS = ("botzone", "botzone-simple")
#: Botzone's wall time per turn by the language a program is written in (seconds); a first turn gets twice this.
BOTZONE_TIME_S = {"c": 1.0, "cpp": 1.0, "java": 3.0, "python": 6.0}
LANGUAGES = tuple(BOTZONE_TIME_S)
#: Botzone's memory limit (MiB), a program's default when it names its language.
BOTZONE_MEMORY_MB = 256
#: The JVM reserves far more address space than it uses (its heap is bounded by -Xmx instead).
JVM_ADDRESS_SPACE_MB = 1024
#: A program naming its language gets this many times its turn's time as CPU seconds over its life.
CPU_TURNS = 10
#: What a run's failure is recorded as.
FAILURE_VERDICTS = {"timeout": "timeout", "output_limit": "over_budget", "crashed": "crashed"}
#: Characters of a program's output and input kept on an attempt.
KEPT_CHARS = 20_000


def _clip(text: str) -> str:
    return text if len(text) <= KEPT_CHARS else text[:KEPT_CHARS] + f"\n[… {len(text) - KEPT_CHARS} more characters]"


class ProgramAgent:
    """A Botzone-protocol program; one attempt per decision (a program is not re-prompted)."""

    def __init__(self, config: dict[str, Any], *, match_id: int | None = None) -> None:
        if not config.get("command") and not config.get("build"):
            raise AgentConfigError("A program agent needs 'command' in its config.")
        if config.get("protocol", "botzone") not in PROTOCOLS:
            raise AgentConfigError(f"Unknown protocol {config['protocol']!r}; use one of {', '.join(PROTOCOLS)}.")
        self.simple = config.get("protocol") == "botzone-simple"
        self.keep_running = bool(config.get("keep_running"))
        self.language = config.get("language") or ""
        if self.language and self.language not in LANGUAGES:
            raise AgentConfigError(f"Unknown language {self.language!r}; use one of {', '.join(LANGUAGES)}.")
        self.limits = limits_with_defaults(
            {"limits": {**botzone_limits(self.language), **(config.get("limits") or {})}}
        )
        # An uploaded program runs what its build made (arena.agents.build), on any worker.
        self.command = build.command(self.language, config["build"]) if config.get("build") else config["command"]
        self.match_id = match_id
        self.history = MatchMoves(match_id)
        #: The memory of a program playing outside any match (a match's is in the record).
        self.unrecorded = ProgramMemory()
        self.kept: Program | None = None
        self.turns_seen = 0
        #: The seat it plays (known from its first decision): where a kept program is parked (arena.agents.parked).
        self.seat: int | None = None

    async def decide(self, game: Game, state: Any, seat: int, match_seed: int) -> DecisionResult:
        """Run the program for this turn; `action=None` (with the verdict recorded) when it gave no legal move."""
        started = time.perf_counter()
        if message := botzone.unplayable(game, state):
            return DecisionResult(action=None, attempts=[AttemptData(verdict="api_error", message=message)])
        memory = await self._memory(seat)
        if not memory.active:
            message = "Staff disabled this program; it plays no more moves."
            return DecisionResult(action=None, attempts=[AttemptData(verdict="api_error", message=message)])
        if botzone.answered_already(game, state):
            attempt, action = self._answer_given(game, state, memory)
            await self._remember(seat, memory)
            return _judged(game, state, DecisionResult(action=action, attempts=[attempt]))
        moves = await self.history.read(game, seat)
        requests, played = botzone.history(game, seat, [(m.seat, m.state_before, m.action) for m in moves], state)
        responses = [memory.answers.get(str(turn), response) for turn, response in enumerate(played)]
        time_s = self.turn_time_s(first=all(move.seat != seat for move in moves))  # its first decision here
        self.seat = seat
        if self.kept is None and self.keep_running and (kept := parked.unpark(self._parking_key())) is not None:
            self.kept, self.turns_seen = kept.program, kept.turns_seen  # kept alive here across a person's turn
        if self.kept is not None and len(requests) == self.turns_seen + 1:
            sent = (botzone.text_line(requests[-1]) if self.simple else json.dumps(requests[-1])) + "\n"
            run = await self.kept.turn(sent, until_marker=botzone.KEEP_RUNNING, time_s=time_s)
        else:
            await self.close()
            sent = self._full_input(requests, responses, memory, time_s)
            run = await self._fresh_run(sent, time_s)
        self.kept = self.kept if run.kept else None
        self.turns_seen = len(requests)
        attempt, action = self._judge(game, state, sent, run, memory, turn=len(responses), time_s=time_s)
        if not run.failure:
            await self._remember(seat, memory)
        elapsed_ms = round((time.perf_counter() - started) * 1000)
        return _judged(game, state, DecisionResult(action=action, attempts=[attempt], elapsed_ms=elapsed_ms))

    async def _memory(self, seat: int) -> ProgramMemory:
        if self.match_id is None:
            return self.unrecorded
        return await sync_to_async(program_memory)(match_id=self.match_id, seat=seat)

    async def _remember(self, seat: int, memory: ProgramMemory) -> None:
        if self.match_id is not None:
            await sync_to_async(program_memory_save)(match_id=self.match_id, seat=seat, memory=memory)

    def turn_time_s(self, *, first: bool) -> float:
        """The wall time for a turn: the limits' `time_s`, doubled on a first turn as on Botzone when the program
        names its language (never above the largest `time_s` allowed)."""
        seconds = float(self.limits["time_s"])
        if self.language and first:
            seconds = min(2 * seconds, float(limit_maxima()["time_s"]))
        return seconds

    def _full_input(self, requests: list[Any], responses: list[Any], memory: ProgramMemory, time_s: float) -> str:
        if self.simple:
            data, globaldata = ("" if value is None else str(value) for value in (memory.data, memory.globaldata))
            return botzone.simple_input(requests, responses, data, globaldata)
        limits = {"time_limit": time_s, "memory_limit": self.limits["memory_mb"]}
        return botzone.json_input(requests, responses, memory.data, memory.globaldata, limits)

    async def _fresh_run(self, sent: str, time_s: float) -> RunResult:
        if not self.keep_running:
            return await run_once(self.command, sent, self.limits, time_s=time_s)
        program = Program(self.command, self.limits)
        try:
            await program.start()
        except OSError as error:
            await program.kill()
            return RunResult(failure="crashed", stderr=f"could not start {self.command!r}: {error}")
        self.kept = program
        return await program.turn(sent, until_marker=botzone.KEEP_RUNNING, time_s=time_s)

    def _judge(
        self, game: Game, state: Any, sent: str, run: RunResult, memory: ProgramMemory, *, turn: int, time_s: float
    ) -> tuple[AttemptData, Any]:
        """The attempt for this run, and the action it names (None unless legal). Updates `memory` from the
        output: its data and globaldata, and, when the answer is not played, the answer as the program gave it."""
        attempt = AttemptData(
            verdict="ok",
            raw_text=_clip(run.stdout),
            reasoning_text=_clip(run.stderr),
            messages=[{"role": "stdin", "content": _clip(sent)}],
            latency_ms=run.latency_ms,
            message="; ".join(run.notes),
        )
        if run.failure:
            attempt.verdict = FAILURE_VERDICTS[run.failure]
            message = _failure_message(run, self.limits, time_s)
            attempt.message = message + (f" ({attempt.message})" if attempt.message else "")
            return attempt, None
        memory.answers.pop(str(turn), None)
        memory.then = ""
        response: Any = run.stdout.split("\n")[0].strip()  # the answer as given, until it is read
        try:
            response = self._response(game, run.stdout, memory, attempt)
            action = botzone.decode(game, state, response)
        except IllegalAction as error:
            memory.answers[str(turn)] = response
            attempt.verdict, attempt.message = "unparseable", _noted(str(error), run)
            return attempt, None
        attempt.parsed_action = json.dumps(response) if isinstance(response, dict) else str(response)
        if not game.is_legal(state, action):
            memory.answers[str(turn)] = response
            attempt.verdict = "illegal"
            attempt.message = _noted(f"{attempt.parsed_action} is not a legal move here.", run)
            return attempt, None
        attempt.parsed_action = game.action_to_text(state, action)
        memory.then = botzone.then(game, state, response)
        return attempt, action

    def _answer_given(self, game: Game, state: Any, memory: ProgramMemory) -> tuple[AttemptData, Any]:
        """This turn's answer as the program gave it on its last turn (`memory.then`), without running it."""
        attempt = AttemptData(verdict="ok", raw_text=memory.then, message="Given with the program's previous answer.")
        answer, memory.then = memory.then, ""
        try:
            action = botzone.decode(game, state, answer)
        except IllegalAction as error:
            attempt.verdict, attempt.message = "unparseable", str(error)
            return attempt, None
        if not game.is_legal(state, action):
            attempt.verdict, attempt.message = (
                "illegal",
                f"{answer!r}, named with its previous answer, is not legal here.",
            )
            return attempt, None
        attempt.parsed_action = game.action_to_text(state, action)
        return attempt, action

    def _response(self, game: Game, stdout: str, memory: ProgramMemory, attempt: AttemptData) -> Any:
        """The response in the program's output; keeps its data (cleared when absent) and globaldata (kept when
        absent) in `memory` for the next turn."""
        if self.simple:
            lines = stdout.removesuffix("\n").split("\n")
            if not lines[0].strip():
                raise IllegalAction("The first line of output should be the response; it was empty.")
            # Line 2 is debug, line 3 data, and every line after it globaldata.
            data = lines[2].removesuffix("\r") if len(lines) > 2 else ""
            globaldata = "\n".join(lines[3:]) if len(lines) > 3 else None
            _remembered(memory, data, globaldata, attempt)
            return botzone.parse_text_line(game, lines[0])
        try:
            answer = json.loads(stdout.strip().split("\n")[0])
        except (json.JSONDecodeError, IndexError):
            raise IllegalAction('Output should be one JSON object: {"response": …, "debug": …, "data": …}.') from None
        if not isinstance(answer, dict) or "response" not in answer:
            raise IllegalAction('The output object has no "response".')
        _remembered(memory, answer.get("data"), answer.get("globaldata"), attempt)
        return answer["response"]

    async def close(self, *, park: bool = False) -> None:
        """Stop a kept-running program (the runner calls this when it stops playing the match); `park`: a person
        is to move, so it waits in this process for the match's next run instead (`arena.agents.parked`)."""
        if self.kept is None:
            return
        if park and self.match_id is not None and self.seat is not None:
            parked.park(self._parking_key(), self.kept, self.turns_seen)
        else:
            await self.kept.kill()
        self.kept = None

    def _parking_key(self) -> parked.Key:
        return (self.match_id or 0, self.seat or 0, str(self.command))


def _remembered(memory: ProgramMemory, data: Any, globaldata: Any, attempt: AttemptData) -> None:
    """Keep `data` (None clears it) and `globaldata` (None keeps the last) in `memory`; either over the size
    limit counts as absent, with a note on the attempt."""
    for name, value in (("data", data), ("globaldata", globaldata)):
        if value is not None and too_big(value):
            value = None
            attempt.message = "; ".join(
                filter(None, [attempt.message, f"{name} over {MAX_MEMORY_BYTES:,} bytes not kept"])
            )
        if name == "data":
            memory.data = value
        elif value is not None:
            memory.globaldata = value


def _noted(message: str, run: RunResult) -> str:
    """`message` with the sandbox's notes on the run (walls it lacked), if any."""
    return f"{message} ({'; '.join(run.notes)})" if run.notes else message


def botzone_limits(language: str) -> dict[str, Any]:
    """Botzone's limits for a program in `language` (none when it names no language): time, memory and CPU."""
    if not language:
        return {}
    time_s = BOTZONE_TIME_S[language]
    memory_mb = JVM_ADDRESS_SPACE_MB if language == "java" else BOTZONE_MEMORY_MB
    return {"time_s": time_s, "memory_mb": memory_mb, "cpu_s": max(DEFAULT_LIMITS["cpu_s"], CPU_TURNS * time_s)}


def _failure_message(run: RunResult, limits: dict[str, Any], time_s: float) -> str:
    if run.failure == "timeout":
        return f"No answer within {time_s:g} s of wall time; the program was killed."
    if run.failure == "output_limit":
        return f"The program printed more than {limits['output_bytes']} bytes; it was killed."
    return f"The program exited with status {run.returncode} before answering."


def _judged(game: Game, state: Any, decided: DecisionResult) -> DecisionResult:
    """A decision as Botzone's judge takes it: an invalid answer (no legal move, a crash, a timeout) folds the hand
    in hold'em and loses the game anywhere else, instead of Arena's fallback playing for the program."""
    if decided.action is not None:
        return decided
    if (judged := botzone.judged_invalid(game, state)) is not None:
        return replace(decided, action=judged, fallback="botzone_fold")
    return replace(decided, forfeits=True)
