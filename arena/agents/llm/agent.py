"""An LLM in a seat: its scaffold's conversation sent try by try, provider failures waited out, every try recorded."""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections import Counter
from typing import Any

from arena.agents.base import AgentConfigError, AttemptData, DecisionResult
from arena.agents.llm import client as llm_client
from arena.agents.llm.client import Completion
from arena.agents.llm.llama_server import HANG_UP_NOTICED_S, server_alive, server_queue
from arena.agents.llm.local import endpoint_is_local
from arena.agents.llm.parsing import Parsed
from arena.agents.llm.scaffolds import get_scaffold
from arena.agents.llm.scaffolds.base import Conversation
from arena.agents.llm.spend import Spend
from arena.agents.llm_config import MAX_REPLY_CHARS, SCAFFOLDS, with_defaults
from games import Game

#: Ways a model try can end without a reply to judge: the decision stops there.
STOP_PROVIDER, STOP_FATAL, STOP_BUDGET = "provider", "fatal", "budget"
#: Request fields passed straight from the config when set.
REQUEST_FIELDS = ("temperature", "top_p", "max_tokens", "reasoning_effort", "seed")

_jitter = random.Random()


def _truncated(text: str) -> str:
    if len(text) <= MAX_REPLY_CHARS:
        return text
    return text[:MAX_REPLY_CHARS] + f"\n[… {len(text) - MAX_REPLY_CHARS} more characters not stored]"


class LLMAgent:
    """A seat played by a model behind any OpenAI-compatible endpoint (config: see `llm_config`)."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = with_defaults(config)
        if self.config["scaffold"] not in SCAFFOLDS:
            raise AgentConfigError(f"Unknown scaffold {self.config['scaffold']!r}; use one of {', '.join(SCAFFOLDS)}.")
        for required in ("base_url", "model"):
            if not self.config.get(required):
                raise AgentConfigError(f"An LLM agent needs {required!r} in its config.")
        self.scaffold = get_scaffold(self.config["scaffold"])
        for name, (low, high) in self.scaffold.limits.items():
            value = self.config[name]
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise AgentConfigError(f"{name} must be a whole number from {low} to {high}, got {value!r}.")

    async def decide(self, game: Game, state: Any, seat: int, match_seed: int) -> DecisionResult:
        """Ask the model until it names a legal move or runs out of tries; `action=None` means out of tries."""
        started = time.perf_counter()
        config = self.config
        deadline = started + float(config["decision_budget_s"]) if config.get("decision_budget_s") else None
        legal = game.legal_actions(state)
        legal_texts = [game.action_to_text(state, action) for action in legal]
        conversation = self.scaffold.conversation(game, state, seat, legal_texts=legal_texts, config=config)
        key_env = config.get("api_key_env") or ""
        api_key = os.environ.get(key_env) if key_env else None  # read at call time; never stored
        if key_env and not api_key:
            missing = AttemptData(
                verdict="api_error",
                messages=conversation.opening,
                message=f"Environment variable {key_env} is not set.",
            )
            return DecisionResult(action=None, attempts=[missing], elapsed_ms=_ms_since(started))
        client = await llm_client.shared_client(config["base_url"])
        run = DecisionRun(self, client, game, state, seat, legal, legal_texts, conversation, api_key, deadline)
        action = await self.scaffold.decide(run)
        result = DecisionResult(action=action, attempts=run.attempts, elapsed_ms=_ms_since(started))
        if action is None and run.provider_gave_up:
            timed_out = run.attempts[-1].verdict == "timeout"
            result.outage = await _outage(config["base_url"], config["model"], timed_out=timed_out)
        return result


async def _outage(base_url: str, model: str, *, timed_out: bool) -> str:
    """Why the provider gave up: a local server that is alive but did not answer in time is busy, with the moves
    it holds for `model` (decoding or waiting for a slot, as its own `/metrics` says) ahead of ours, not down."""
    if not endpoint_is_local(base_url):
        return "the model provider is not answering"
    if not timed_out or not await asyncio.to_thread(server_alive, base_url):
        return "the local model server is not answering"
    await asyncio.sleep(HANG_UP_NOTICED_S)  # the call we gave up on is no longer counted, only those ahead of it
    queue = await asyncio.to_thread(server_queue, base_url, model)
    if queue and (ahead := queue.decoding + queue.waiting):
        return f"the local model server is busy — {ahead} move{'s' if ahead != 1 else ''} ahead of yours"
    return "the local model server is busy"


def _ms_since(started: float) -> int:
    return round((time.perf_counter() - started) * 1000)


class DecisionRun:
    """The tries of one decision, in order; `attempts` grows as they happen. Its scaffold drives it."""

    def __init__(
        self,
        agent: LLMAgent,
        client,
        game: Game,
        state: Any,
        seat: int,
        legal: list,
        legal_texts: list[str],
        conversation: Conversation,
        api_key,
        deadline,
    ) -> None:
        self.config = agent.config
        self.scaffold = agent.scaffold
        self.client = client
        self.game = game
        self.state = state
        self.seat = seat
        self.legal = legal
        self.legal_texts = legal_texts
        self.conversation = conversation
        self.api_key = api_key
        self.deadline = deadline
        self.attempts: list[AttemptData] = []
        #: The last tries ended with the provider failing, not with an answer: an outage, not the model's doing.
        self.provider_gave_up = False
        self.limiter = llm_client.provider_limiter(self.config["base_url"], int(self.config["max_concurrency"]))

    async def play(self, messages: list[dict]) -> Any:
        """Send `messages`, re-prompting after invalid answers up to `retries` times; the action or None."""
        samples = self.scaffold.samples(self.config)
        for _ in range(int(self.config["retries"]) + 1):
            if samples == 1:
                tries = [await self.model_try(messages)]
            else:
                tries = await asyncio.gather(*(self.model_try(messages) for _ in range(samples)))
            for records, _parsed, _stop in tries:
                self.attempts.extend(records)
            chosen = [parsed for _records, parsed, _stop in tries if parsed is not None and parsed.verdict == "ok"]
            if chosen:
                return _majority(chosen).action
            mistakes = [(records[-1], parsed) for records, parsed, _stop in tries if parsed is not None]
            self.provider_gave_up = all(stop == STOP_PROVIDER for _records, _parsed, stop in tries)
            if not mistakes or any(stop == STOP_BUDGET for _records, _parsed, stop in tries):
                return None  # the provider gave up, the config is wrong, or time ran out
            attempt, parsed = mistakes[0]
            messages = self.conversation.retry(messages, attempt.raw_text, parsed)
        return None

    def charge(self, attempt: AttemptData, search: Spend, title: str) -> None:
        """A search's calls belong to an answer attempt: their text in its reasoning, their cost in its counts."""
        log = "\n\n".join(search.log)
        attempt.reasoning_text = _truncated(
            f"{title} ({search.calls} calls):\n{log}\n\n{attempt.reasoning_text}".strip()
        )
        attempt.prompt_tokens += search.prompt_tokens
        attempt.completion_tokens += search.completion_tokens
        attempt.reasoning_tokens += search.reasoning_tokens
        attempt.cost += search.cost
        attempt.latency_ms += search.latency_ms

    def request(self, messages: list[dict]) -> dict[str, Any]:
        """The chat-completion body for `messages`."""
        request: dict[str, Any] = {"model": self.config["model"], "messages": messages}
        for name in REQUEST_FIELDS:
            if self.config.get(name) is not None:
                request[name] = self.config[name]
        # Server-specific fields (llama.cpp's `grammar`, vLLM's `guided_choice`) go in the body as they are.
        request.update(self.config.get("extra_body") or {})
        request.update(self.scaffold.request_fields(self.game, self.legal_texts))
        return request

    async def model_try(self, messages: list[dict]) -> tuple[list[AttemptData], Parsed | None, str]:
        """One try by the model: provider failures are re-sent (and recorded), then the reply is judged.

        A 429 is waited out (its Retry-After honoured up to `backoff_max_s`) without counting as a failure, until
        the try has waited `rate_limit_wait_s` for them. Returns the attempts, the judged reply (None when there
        was none) and why it stopped if so.
        """
        records: list[AttemptData] = []
        request = self.request(messages)
        timeout_s = float(self.config["timeout_s"])
        provider_retries = int(self.config["provider_retries"])
        rate_limit_wait_s = float(self.config["rate_limit_wait_s"])
        failures = limited = 0
        waited_s = 0.0
        while True:
            remaining = self.deadline - time.perf_counter() if self.deadline is not None else None
            if remaining is not None and remaining <= 0:
                return records, None, STOP_BUDGET
            capped = remaining is not None and remaining < timeout_s
            result = await llm_client.complete(
                self.client,
                request,
                limiter=self.limiter,
                timeout_s=min(timeout_s, remaining) if capped else timeout_s,
                api_key=self.api_key,
            )
            if result.ok:
                attempt, parsed = self.judge(messages, result)
                records.append(attempt)
                return records, parsed, ""
            attempt = AttemptData(
                verdict=result.verdict,
                message=result.message,
                messages=messages,
                transient=result.transient,
                latency_ms=result.latency_ms,
            )
            records.append(attempt)
            if result.verdict == "timeout" and capped:
                # The model's own time budget ran out, not the provider's patience.
                attempt.transient = False
                attempt.message = f"The decision budget of {self.config['decision_budget_s']:g} s ran out."
                return records, None, STOP_BUDGET
            if not result.transient:
                return records, None, STOP_FATAL
            if result.rate_limited and waited_s < rate_limit_wait_s:
                delay = min(self.backoff(limited, result.retry_after_s), rate_limit_wait_s - waited_s)
                limited += 1
                waited_s += delay
            elif failures == provider_retries:
                return records, None, STOP_PROVIDER
            else:
                delay = self.backoff(failures, result.retry_after_s)
                failures += 1
            if self.deadline is not None and time.perf_counter() + delay >= self.deadline:
                return records, None, STOP_BUDGET
            await asyncio.sleep(delay)

    def backoff(self, failures: int, retry_after_s: float | None) -> float:
        """Exponential backoff with jitter, at least what the server asked for (capped)."""
        base = float(self.config["backoff_base_s"])
        cap = float(self.config["backoff_max_s"])
        delay = min(cap, base * 2**failures) * _jitter.uniform(0.5, 1.0)
        if retry_after_s is not None:
            delay = max(delay, min(retry_after_s, cap))
        return delay

    def judge(self, messages: list[dict], result: Completion) -> tuple[AttemptData, Parsed]:
        """Record a reply and decide its verdict: over_budget, unparseable, illegal or ok."""
        config = self.config
        prices = (float(config.get("price_in_per_mtok") or 0), float(config.get("price_out_per_mtok") or 0))
        content = result.content
        budget = config.get("budget_output_tokens")
        if result.finish_reason == "length":
            parsed = Parsed(
                "over_budget",
                message=f"The reply was cut off at the output limit ({config.get('max_tokens') or 'server default'} "
                "tokens); answer more briefly.",
            )
        elif len(content) > MAX_REPLY_CHARS:
            parsed = Parsed(
                "over_budget",
                message=f"The reply was {len(content)} characters long, over the {MAX_REPLY_CHARS} limit.",
            )
        elif budget and result.completion_tokens > int(budget):
            parsed = Parsed(
                "over_budget",
                message=f"The reply used {result.completion_tokens} output tokens, over the budget of {budget}.",
            )
        elif not content.strip():
            parsed = Parsed("unparseable", message="The reply was empty: answer with a line `Answer: <move>`.")
        else:
            parsed = self.conversation.parse(content)
        attempt = AttemptData(
            verdict=parsed.verdict,
            raw_text=_truncated(content),
            reasoning_text=_truncated(result.reasoning),
            parsed_action=parsed.text,
            message=parsed.message,
            messages=messages,
            latency_ms=result.latency_ms,
            prompt_tokens=result.prompt_tokens,
            completion_tokens=result.completion_tokens,
            reasoning_tokens=result.reasoning_tokens,
            cost=(result.prompt_tokens * prices[0] + result.completion_tokens * prices[1]) / 1_000_000,
            model_reported=result.model[:200],
        )
        return attempt, parsed


def _majority(chosen: list[Parsed]) -> Parsed:
    """The most common legal answer; ties go to the one given first."""
    votes = Counter(parsed.text for parsed in chosen)
    best = max(votes.values())
    return next(parsed for parsed in chosen if votes[parsed.text] == best)
