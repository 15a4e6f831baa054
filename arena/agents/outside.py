"""Agents that live outside Arena's process: programs (Botzone protocol), UCI engines and remote agents.

`outside_config` is the one check of an outside agent's config, used by `manage.py agents add`, the API
and the agents pages alike: it refuses what cannot work or what the person may not set, and returns the
config to store with the signing secret of a new HTTP agent (shown once, never stored: see remote.py).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from arena.agents.program import ProgramAgent
from arena.agents.remote import DEFAULTS as REMOTE_DEFAULTS
from arena.agents.remote import MAX_DECISION_S, MAX_TIMEOUT_S, RemoteAgent, derived_secret
from arena.agents.sandbox import limit_maxima
from arena.agents.uci import UCIAgent
from arena.record.errors import ServiceError

#: Agent kind → the seat agent class; each takes (config, *, match_id).
OUTSIDE_AGENTS = {"program": ProgramAgent, "uci": UCIAgent, "remote": RemoteAgent}
#: Kinds that run a command on Arena's host: registered by an operator (the CLI or staff) only.
HOST_KINDS = ("program", "uci")
WEBSOCKET = {"transport": "websocket"}
#: Per kind, the config fields a person may set, with their type and smallest value (None: any).
FIELDS: dict[str, dict[str, tuple[type, float | None]]] = {
    "program": {
        "command": (str, None),
        "protocol": (str, None),
        "language": (str, None),
        "keep_running": (bool, None),
        "limits": (dict, None),
    },
    "uci": {
        "command": (str, None),
        "uci_elo": (int, 0),
        "nodes": (int, 1),
        "movetime_ms": (int, 1),
        "time_s": (float, 0.1),
        "options": (dict, None),
        "limits": (dict, None),
    },
    "remote": {
        "url": (str, None),
        "timeout_s": (float, 0.1),
        "retries": (int, 0),
        "provider_retries": (int, 0),
        "secret_env": (str, None),
        "transport": (str, None),
    },
}
TYPE_NAMES = {str: "text", int: "a whole number", float: "a number", bool: "true or false", dict: "an object"}
#: Largest number of re-asks and re-sends a remote agent may have.
MAX_RETRIES = 5
#: Longest text field (a URL, a command), in characters; the forms take it from here.
MAX_TEXT = 500
#: Per field, the largest value a person may set (the forms take their maxima from here).
LARGEST: dict[str, float] = {"timeout_s": MAX_TIMEOUT_S, "retries": MAX_RETRIES, "provider_retries": MAX_RETRIES}


def outside_config(
    kind: str, fields: dict[str, Any], *, operator: bool, previous: dict[str, Any] | None = None
) -> tuple[dict[str, Any], str]:
    """The config to store for an outside agent, and a new signing secret to show once ("" if none).

    `operator` (the CLI, staff) may register programs and engines and sign with a secret from the
    environment; anyone else registers remote agents only, at public addresses. `previous` is the
    agent's current config when it gets a new version (its signing secret carries over).
    Raises ServiceError naming the field to fix.
    """
    if kind not in OUTSIDE_AGENTS:
        raise ServiceError(f"{kind!r} is not an outside agent kind; use one of {', '.join(OUTSIDE_AGENTS)}.")
    if kind in HOST_KINDS and not operator:
        raise ServiceError(f"A {kind} agent runs a command on Arena's host: only an operator (staff) registers one.")
    config = {key: value for key, value in fields.items() if not _unset(value)}
    unknown = sorted(set(config) - set(FIELDS[kind]))
    if unknown:
        raise ServiceError(f"Unknown field(s) {', '.join(unknown)} for a {kind} agent; use {', '.join(FIELDS[kind])}.")
    for key, value in config.items():
        config[key] = _typed(key, value, *FIELDS[kind][key])
    if "limits" in config:
        config["limits"] = checked_limits(config["limits"])
    secret = ""
    if kind == "remote":
        if config.get("transport") not in (None, "websocket"):
            raise ServiceError("transport is 'websocket' for a bot account, or left out for an HTTP agent.")
        if config.get("transport") == "websocket":
            if config != WEBSOCKET:
                raise ServiceError('A websocket bot\'s config is {"transport": "websocket"} alone.')
            return config, ""
        _decision_bounded(config)
        config, secret = _signed(config, operator=operator, previous=previous or {})
    OUTSIDE_AGENTS[kind](config)  # the agent's own checks: what it needs to run at all
    return config, secret


def _unset(value: Any) -> bool:
    """A field left blank (0 is a value: no retries)."""
    return value is None or value is False or (isinstance(value, (str, dict)) and not value)


def _typed(key: str, value: Any, kind: type, smallest: float | None) -> Any:
    if kind is float and type(value) is int:
        value = float(value)
    if type(value) is not kind:
        raise ServiceError(f"{key} should be {TYPE_NAMES[kind]}, not {value!r}.")
    if kind is str and len(value) > MAX_TEXT:
        raise ServiceError(f"{key} is at most {MAX_TEXT} characters.")
    if smallest is not None and value < smallest:
        raise ServiceError(f"{key} should be at least {smallest:g}, not {value!r}.")
    if key in LARGEST and value > LARGEST[key]:
        raise ServiceError(f"{key} is at most {LARGEST[key]:g}.")
    return value


def _decision_bounded(config: dict[str, Any]) -> None:
    """A remote agent's requests for one decision (each try re-sent after transient failures) fit MAX_DECISION_S."""
    merged = {**REMOTE_DEFAULTS, **config}
    tries, sends = merged["retries"] + 1, merged["provider_retries"] + 1
    longest = merged["timeout_s"] * tries * sends
    if longest > MAX_DECISION_S:
        raise ServiceError(
            f"timeout_s × (retries + 1) × (provider_retries + 1) is {longest:g} s; one decision may wait at most "
            f"{MAX_DECISION_S:g} s: lower timeout_s, retries or provider_retries."
        )


def checked_limits(limits: dict[str, Any]) -> dict[str, Any]:
    """A program's `limits`, each a positive number no larger than its maximum (settings)."""
    maxima = limit_maxima()
    unknown = sorted(set(limits) - set(maxima))
    if unknown:
        raise ServiceError(f"Unknown limit(s) {', '.join(unknown)}; use {', '.join(maxima)}.")
    checked = {}
    for name, value in limits.items():
        if type(value) not in (int, float) or not 0 < value <= maxima[name]:
            raise ServiceError(f"limits.{name} should be a number above 0 and at most {maxima[name]:g}, not {value!r}.")
        checked[name] = value
    return checked


def _signed(config: dict[str, Any], *, operator: bool, previous: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """An HTTP agent's config with its signature: the operator's variable, or a secret derived per agent."""
    if not operator and "secret_env" in config:
        raise ServiceError("secret_env names a variable in Arena's environment: only an operator may set it.")
    if not operator or previous.get("public_only"):  # a person's agent stays public-only when staff edit it
        config["public_only"] = True
    if "secret_env" in config:
        return config, ""
    if previous.get("secret_id"):
        config["secret_id"] = previous["secret_id"]
        return config, ""
    config["secret_id"] = secrets.token_hex(8)
    return config, derived_secret(config["secret_id"])


async def close_agents(agents: Iterable[object], *, park: bool = False) -> None:
    """Stop what the agents keep running between turns (programs, engines); `park`: a person is to move, so
    kept-running programs wait in this process for the match's next run (`arena.agents.parked`)."""
    for agent in agents:
        if isinstance(agent, ProgramAgent):
            await agent.close(park=park)
        elif isinstance(agent, UCIAgent):
            await agent.close()
