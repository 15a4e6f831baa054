"""An LLM in a seat: prompt, call, parse, re-prompt with feedback, and record every try."""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections import Counter
from typing import Any

from arena.agents.base import AgentConfigError, AttemptData, DecisionResult
from arena.agents.llm import botzone_prompts, rap, rap_verbal
from arena.agents.llm import client as llm_client
from arena.agents.llm.client import Completion
from arena.agents.llm.local import endpoint_is_local
from arena.agents.llm.parsing import Parsed, parse_reply
from arena.agents.llm.prompts import answer_grammar, feedback_messages, first_messages, fit_retry
from arena.agents.llm_config import MAX_REPLY_CHARS, SCAFFOLDS, SEARCH_LIMITS, with_defaults
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
        for name, (low, high) in SEARCH_LIMITS.get(self.config["scaffold"], {}).items():
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
        scaffold = config["scaffold"]
        messages = first_messages(
            game,
            state,
            seat,
            scaffold="direct" if scaffold == "rap" else scaffold,  # `rap`'s answer when its search finds no move
            legal_texts=legal_texts,
            legal_list=config["legal_list"],
            budget_tokens=prompt_budget(config),
        )
        key_env = config.get("api_key_env") or ""
        api_key = os.environ.get(key_env) if key_env else None  # read at call time; never stored
        if key_env and not api_key:
            missing = AttemptData(
                verdict="api_error", messages=messages, message=f"Environment variable {key_env} is not set."
            )
            return DecisionResult(action=None, attempts=[missing], elapsed_ms=_ms_since(started))
        client = await llm_client.shared_client(config["base_url"])
        run = _DecisionRun(self, client, game, state, legal_texts, api_key, deadline)
        search, title = None, ""
        if scaffold == "rap" and not game.document_actions:  # a plan is written whole, not searched
            planner = rap.Planner(run, game.name, game.rules_text())
            observation = first_messages(
                game,
                state,
                seat,
                scaffold="rap",
                legal_texts=legal_texts,
                legal_list=False,
                budget_tokens=prompt_budget(config),
            )[1]["content"]
            search, title = await planner.run_search(observation, legal_texts), "RAP search"
            if search.move is not None:  # the search picks the move (GameBench App. G)
                chosen = AttemptData(
                    verdict="ok",
                    raw_text=f"Answer: {search.move}",
                    parsed_action=search.move,
                    messages=[{"role": "user", "content": planner.prefix(observation)}],
                    model_reported=search.model[:200],
                )
                _charge_search(chosen, search, title)
                action = legal[legal_texts.index(search.move)]
                return DecisionResult(action=action, attempts=[chosen], elapsed_ms=_ms_since(started))
        elif scaffold == "rap-verbal" and not game.document_actions:
            seat_name = game.seat_names[seat] if seat < len(game.seat_names) else f"seat {seat + 1}"
            planner = rap_verbal.Planner(run, messages[0]["content"], seat_name)
            search = await planner.run_search(messages[1]["content"], legal_texts)
            title = "Verbal look-ahead"
            messages = [messages[0], {**messages[1], "content": f"{messages[1]['content']}\n\n{search.summary()}"}]
        action = await run.play(messages)
        if search is not None and run.attempts:
            _charge_search(run.attempts[0], search, title)
        result = DecisionResult(action=action, attempts=run.attempts, elapsed_ms=_ms_since(started))
        if action is None and run.provider_gave_up:
            local = endpoint_is_local(config["base_url"])
            result.outage = f"the {'local model server' if local else 'model provider'} is not answering"
        return result


def prompt_budget(config: dict[str, Any]) -> int | None:
    """Tokens a prompt may use: the context (`context_tokens`) less the reply's `max_tokens`; None if unknown."""
    if not config.get("context_tokens"):
        return None
    return int(config["context_tokens"]) - int(config.get("max_tokens") or 0)


def _charge_search(attempt: AttemptData, search: rap.Search | rap_verbal.Search, title: str) -> None:
    """The search's calls belong to the first answer attempt: their text in its reasoning, their cost in its counts."""
    log = "\n\n".join(search.log)
    attempt.reasoning_text = _truncated(f"{title} ({search.calls} calls):\n{log}\n\n{attempt.reasoning_text}".strip())
    attempt.prompt_tokens += search.prompt_tokens
    attempt.completion_tokens += search.completion_tokens
    attempt.reasoning_tokens += search.reasoning_tokens
    attempt.cost += search.cost
    attempt.latency_ms += search.latency_ms


def _ms_since(started: float) -> int:
    return round((time.perf_counter() - started) * 1000)


class _DecisionRun:
    """The tries of one decision, in order; `attempts` grows as they happen."""

    def __init__(self, agent: LLMAgent, client, game: Game, state: Any, legal_texts, api_key, deadline) -> None:
        self.config = agent.config
        self.client = client
        self.game = game
        self.state = state
        self.legal_texts = legal_texts
        self.api_key = api_key
        self.deadline = deadline
        self.attempts: list[AttemptData] = []
        #: BotzoneBench's own prompt for this game, if the scaffold is `botzone` and Appendix C shows one.
        self.template = botzone_prompts.template_for(game, self.config["scaffold"], state)
        #: The last tries ended with the provider failing, not with an answer: an outage, not the model's doing.
        self.provider_gave_up = False
        self.limiter = llm_client.provider_limiter(self.config["base_url"], int(self.config["max_concurrency"]))

    async def play(self, messages: list[dict]) -> Any:
        samples = int(self.config["samples"]) if self.config["scaffold"] == "self-consistency" else 1
        opening, invalid = messages, []
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
            if self.template is not None:
                # BotzoneBench re-sends the user prompt with the previous invalid outputs appended (Appendix C).
                invalid.append(botzone_prompts.invalid_output(self.template, attempt.raw_text, parsed.verdict))
                user = f"{opening[1]['content']}\n{self.template.retry(invalid)}"
                messages = [opening[0], {"role": "user", "content": user}]
                continue
            retry = feedback_messages(
                attempt.raw_text,
                parsed.message,
                legal_texts=self.legal_texts,
                legal_list=self.config["legal_list"],
                plan=self.game.document_actions,
            )
            messages = fit_retry(messages + retry, prompt_budget(self.config))
        return None

    def request(self, messages: list[dict]) -> dict[str, Any]:
        """The chat-completion body for `messages`."""
        request: dict[str, Any] = {"model": self.config["model"], "messages": messages}
        for name in REQUEST_FIELDS:
            if self.config.get(name) is not None:
                request[name] = self.config[name]
        # Server-specific fields (llama.cpp's `grammar`, vLLM's `guided_choice`) go in the body as they are.
        request.update(self.config.get("extra_body") or {})
        scaffold = self.config["scaffold"]
        if scaffold in ("grammar", "grammar-reasoning") and not self.game.document_actions:  # plans are written
            request["grammar"] = answer_grammar(self.legal_texts, reasoning=scaffold == "grammar-reasoning")
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
        elif self.template is not None:
            parsed = botzone_prompts.parse(self.template, self.game, self.state, content)
        else:
            parsed = parse_reply(self.game, self.state, content, self.legal_texts)
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
