"""The shape of an LLM agent's configuration (stored on AgentVersion.config)."""

from __future__ import annotations

from typing import Any

#: direct: answer only; cot: GameBench's reason-out-loud sentence; self-consistency: `samples`
#: answers and a majority vote; grammar: llama.cpp constrained decoding to the legal moves;
#: grammar-reasoning: one short reasoning line, then an answer constrained to the legal moves;
#: rap: GameBench's Reasoning via Planning (App. G/H): llm-reasoners' MCTS with the model as world model and
#: rewards from next-token probabilities; the search picks the move;
#: rap-verbal: a look-ahead that asks for verbal values, after which the model answers (not GameBench's RAP);
#: botzone: BotzoneBench's Appendix C prompt (Evaluation / Reason / Answer).
SCAFFOLDS = ("direct", "cot", "self-consistency", "grammar", "grammar-reasoning", "rap", "rap-verbal", "botzone")

#: What an LLM config means when a field is left out.
DEFAULTS: dict[str, Any] = {
    "scaffold": "direct",
    "timeout_s": 300.0,  # per call, as in BotzoneBench
    "retries": 3,  # re-prompts after an invalid answer, so up to 4 tries
    "samples": 5,  # self-consistency only
    "legal_list": True,
    "max_concurrency": 8,  # calls in flight per base_url, across the whole process
    "provider_retries": 3,  # re-sends after 429/5xx/connection trouble; not the model's fault
    "backoff_base_s": 1.0,
    "backoff_max_s": 30.0,
    "rate_limit_wait_s": 600.0,  # waits after HTTP 429s, per try, before they count as the provider failing
    "decision_budget_s": None,  # wall clock for all tries of one decision
    "budget_output_tokens": None,  # output tokens one reply may use
    "context_tokens": None,  # the model's context window; prompts are fitted to it less max_tokens when set
    "rap_iterations": 10,  # rap only: MCTS iterations (llm-reasoners' default n_iters, which GameBench kept)
    "rap_depth": 2,  # rap only: MCTS depth limit (GameBench App. G: 2)
    "rap_actions": 3,  # rap only: actions searched per position (legal moves at the root, predicted below it)
    "rap_samples": 5,  # rap only: samples per probability when the endpoint returns no log-probabilities
    "rap_calls": 120,  # rap only: hard cap on the search's calls per decision
    "verbal_calls": 6,  # rap-verbal only: search calls per decision (policy and world-model), before the answer
    "verbal_actions": 3,  # rap-verbal only: moves the model proposes per position
    "verbal_depth": 2,  # rap-verbal only: moves looked ahead
}

#: A reply longer than this is `over_budget` (and stored cut to this length).
MAX_REPLY_CHARS = 100_000


def with_defaults(config: dict[str, Any]) -> dict[str, Any]:
    """`config` with every field it leaves out (or sets to None) filled from DEFAULTS."""
    return {**DEFAULTS, **{k: v for k, v in config.items() if v is not None or k not in DEFAULTS}}
