"""The shape of an LLM agent's configuration (stored on AgentVersion.config)."""

from __future__ import annotations

SCAFFOLDS = ("direct", "cot")

#: Config keys whose values could be secrets: refused, so a key is never stored.
FORBIDDEN_KEYS = ("api_key", "apikey", "key", "password", "secret", "token", "authorization")


def secret_keys_in(config: dict) -> list[str]:
    """Keys of `config` that look like they hold a secret (`api_key_env`, a variable name, is fine)."""
    return [k for k in config if k.lower() in FORBIDDEN_KEYS]
