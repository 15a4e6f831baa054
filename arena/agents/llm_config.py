"""The shape of an LLM agent's configuration (stored on AgentVersion.config)."""

from __future__ import annotations

from typing import Any

#: direct: answer only; cot: GameBench's reason-out-loud sentence; self-consistency: `samples`
#: answers and a majority vote; grammar: llama.cpp constrained decoding to the legal moves;
#: grammar-reasoning: one short reasoning line, then an answer constrained to the legal moves;
#: rap (experimental): GameBench's Reasoning via Planning, a budgeted MCTS over the model's own predictions;
#: botzone: BotzoneBench's Appendix C prompt (Evaluation / Reason / Answer).
SCAFFOLDS = ("direct", "cot", "self-consistency", "grammar", "grammar-reasoning", "rap", "botzone")
#: RAP's bounds: search calls per decision, moves proposed per position, look-ahead depth (docs/llm.md).
RAP_LIMITS = {"rap_calls": (2, 16), "rap_actions": (1, 6), "rap_depth": (1, 3)}

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
    "rap_calls": 6,  # rap only: search calls per decision (policy and world-model), before the answer
    "rap_actions": 3,  # rap only: moves the model proposes per position
    "rap_depth": 2,  # rap only: moves looked ahead (GameBench's RAP used depth 2)
}

#: A reply longer than this is `over_budget` (and stored cut to this length).
MAX_REPLY_CHARS = 100_000

#: Config keys whose values could be secrets: refused, so a key is never stored.
FORBIDDEN_KEYS = ("api_key", "apikey", "key", "password", "secret", "token", "authorization")


def with_defaults(config: dict[str, Any]) -> dict[str, Any]:
    """`config` with every field it leaves out (or sets to None) filled from DEFAULTS."""
    return {**DEFAULTS, **{k: v for k, v in config.items() if v is not None or k not in DEFAULTS}}


def secret_keys_in(config: dict) -> list[str]:
    """Keys of `config` that look like they hold a secret (`api_key_env`, a variable name, is fine)."""
    return [k for k in config if k.lower() in FORBIDDEN_KEYS]
