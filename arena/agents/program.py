"""A program in a seat, speaking Botzone's bot protocol (JSON or simple-interaction text, per turn or kept running).

Config: `command` (run with a working directory of its own), `protocol` ("botzone" for JSON,
"botzone-simple" for text), `keep_running` (bool), `limits` (see sandbox.DEFAULT_LIMITS). Botzone's
`data` is kept for the match while this process plays it; `globaldata` while the process lives.
"""

from __future__ import annotations

import json
import time
from typing import Any

from arena.agents import botzone
from arena.agents.base import AgentConfigError, AttemptData, DecisionResult
from arena.agents.history import match_moves
from arena.agents.sandbox import Program, RunResult, limits_with_defaults, run_once
from games import Game, IllegalAction

PROTOCOLS = ("botzone", "botzone-simple")
#: What a run's failure is recorded as.
FAILURE_VERDICTS = {"timeout": "timeout", "output_limit": "over_budget", "crashed": "crashed"}
#: Characters of a program's output and input kept on an attempt.
KEPT_CHARS = 20_000


def _clip(text: str) -> str:
    return text if len(text) <= KEPT_CHARS else text[:KEPT_CHARS] + f"\n[… {len(text) - KEPT_CHARS} more characters]"


class ProgramAgent:
    """A Botzone-protocol program; one attempt per decision (a program is not re-prompted)."""

    def __init__(self, config: dict[str, Any], *, match_id: int | None = None) -> None:
        if not config.get("command"):
            raise AgentConfigError("A program agent needs 'command' in its config.")
        if config.get("protocol", "botzone") not in PROTOCOLS:
            raise AgentConfigError(f"Unknown protocol {config['protocol']!r}; use one of {', '.join(PROTOCOLS)}.")
        self.command = config["command"]
        self.simple = config.get("protocol") == "botzone-simple"
        self.keep_running = bool(config.get("keep_running"))
        self.limits = limits_with_defaults(config)
        self.match_id = match_id
        self.data: Any = "" if self.simple else None
        self.globaldata: Any = "" if self.simple else None
        self.kept: Program | None = None
        self.turns_seen = 0

    async def decide(self, game: Game, state: Any, seat: int, match_seed: int) -> DecisionResult:
        """Run the program for this turn; `action=None` (with the verdict recorded) when it gave no legal move."""
        started = time.perf_counter()
        if game.hidden_information:
            message = "Botzone programs play perfect-information games only in Arena."
            return DecisionResult(action=None, attempts=[AttemptData(verdict="api_error", message=message)])
        moves = await match_moves(self.match_id, game, seat)
        requests, responses = botzone.history(game, seat, [(m.seat, m.state_before, m.action) for m in moves])
        if self.kept is not None and len(requests) == self.turns_seen + 1:
            sent = (botzone.text_line(requests[-1]) if self.simple else json.dumps(requests[-1])) + "\n"
            run = await self.kept.turn(sent, until_marker=botzone.KEEP_RUNNING)
        else:
            await self.close()
            sent = self._full_input(requests, responses)
            run = await self._fresh_run(sent)
        self.kept = self.kept if run.kept else None
        self.turns_seen = len(requests)
        attempt, action = self._judge(game, state, sent, run)
        return DecisionResult(
            action=action, attempts=[attempt], elapsed_ms=round((time.perf_counter() - started) * 1000)
        )

    def _full_input(self, requests: list[Any], responses: list[Any]) -> str:
        if self.simple:
            return botzone.simple_input(requests, responses, str(self.data), str(self.globaldata))
        return botzone.json_input(requests, responses, self.data, self.globaldata)

    async def _fresh_run(self, sent: str) -> RunResult:
        if not self.keep_running:
            return await run_once(self.command, sent, self.limits)
        program = Program(self.command, self.limits)
        try:
            await program.start()
        except OSError as error:
            await program.kill()
            return RunResult(failure="crashed", stderr=f"could not start {self.command!r}: {error}")
        self.kept = program
        return await program.turn(sent, until_marker=botzone.KEEP_RUNNING)

    def _judge(self, game: Game, state: Any, sent: str, run: RunResult) -> tuple[AttemptData, Any]:
        """The attempt for this run, and the action it names (None unless legal)."""
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
            attempt.message = _failure_message(run, self.limits) + (f" ({attempt.message})" if attempt.message else "")
            return attempt, None
        try:
            response = self._response(game, run.stdout)
            action = botzone.decode(game, state, response)
        except IllegalAction as error:
            attempt.verdict, attempt.message = "unparseable", _noted(str(error), run)
            return attempt, None
        attempt.parsed_action = json.dumps(response) if isinstance(response, dict) else str(response)
        if not game.is_legal(state, action):
            attempt.verdict = "illegal"
            attempt.message = _noted(f"{attempt.parsed_action} is not a legal move here.", run)
            return attempt, None
        attempt.parsed_action = game.action_to_text(state, action)
        return attempt, action

    def _response(self, game: Game, stdout: str) -> Any:
        """The response in the program's output; keeps its data and globaldata for the next turn."""
        if self.simple:
            lines = stdout.split("\n")
            if not lines[0].strip():
                raise IllegalAction("The first line of output should be the response; it was empty.")
            if len(lines) > 2 and lines[2]:
                self.data = lines[2]
            if len(lines) > 3 and lines[3]:
                self.globaldata = lines[3]
            return botzone.parse_text_line(game, lines[0])
        try:
            answer = json.loads(stdout.strip().split("\n")[0])
        except (json.JSONDecodeError, IndexError):
            raise IllegalAction('Output should be one JSON object: {"response": …, "debug": …, "data": …}.') from None
        if not isinstance(answer, dict) or "response" not in answer:
            raise IllegalAction('The output object has no "response".')
        self.data = answer.get("data", self.data)
        self.globaldata = answer.get("globaldata", self.globaldata)
        return answer["response"]

    async def close(self) -> None:
        """Stop a kept-running program (the runner calls this when it stops playing the match)."""
        if self.kept is not None:
            await self.kept.kill()
            self.kept = None


def _noted(message: str, run: RunResult) -> str:
    """`message` with the sandbox's notes on the run (walls it lacked), if any."""
    return f"{message} ({'; '.join(run.notes)})" if run.notes else message


def _failure_message(run: RunResult, limits: dict[str, Any]) -> str:
    if run.failure == "timeout":
        return f"No answer within {limits['time_s']:g} s of wall time; the program was killed."
    if run.failure == "output_limit":
        return f"The program printed more than {limits['output_bytes']} bytes; it was killed."
    return f"The program exited with status {run.returncode} before answering."
