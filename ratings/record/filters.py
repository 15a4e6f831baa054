"""The leaderboard's query string, checked: each value must be one the data knows, else FilterError says why."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from django.utils.datastructures import MultiValueDict

from arena.agents.llm_config import SCAFFOLDS
from ratings.record.selectors import KINDS

FORMATS = ("", "json", "csv")
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class FilterError(ValueError):
    """A query value the pages do not accept; the message names it and says what would be accepted."""


@dataclass(frozen=True)
class LeaderboardQuery:
    """A checked leaderboard request: `fit` keys the snapshot, the rest only picks and orders its rows."""

    fit: dict[str, str]
    kinds: set[str]
    scaffold: str
    sort: str
    format: str


def strict_date(name: str, raw: str) -> str:
    """`raw` as YYYY-MM-DD if it is exactly a real date in that form; FilterError otherwise."""
    try:
        if ISO_DATE.fullmatch(raw):
            return date.fromisoformat(raw).isoformat()
    except ValueError:
        pass
    raise FilterError(f"{name}={raw[:40]!r} is not a date; write it as YYYY-MM-DD, e.g. 2026-01-31.")


def choice(name: str, raw: str, allowed: list[str] | tuple[str, ...]) -> str:
    """`raw` if it is one of `allowed`; FilterError listing them otherwise."""
    if raw not in allowed:
        shown = ", ".join(repr(a) for a in allowed if a) or "none yet"
        raise FilterError(f"{name}={raw[:40]!r} is not known; choose one of {shown}.")
    return raw


def leaderboard_query(
    params: MultiValueDict, *, prompt_versions: Callable[[], list[str]], sortable: set[str]
) -> LeaderboardQuery:
    """Check every leaderboard parameter (empty ones mean "any"); FilterError names the first bad one.

    `prompt_versions` reads the record, so it is called only when a prompt version is asked for."""
    fit = {}
    if prompt := params.get("prompt", ""):
        fit["prompt"] = choice("prompt", prompt, prompt_versions())
    for name in ("since", "until"):
        if raw := params.get(name, ""):
            fit[name] = strict_date(name, raw)
    if "since" in fit and "until" in fit and fit["since"] >= fit["until"]:
        raise FilterError(f"since={fit['since']} is not before until={fit['until']}; the period would be empty.")
    kinds = {choice("kind", kind, KINDS) for kind in params.getlist("kind")} or set(KINDS)
    scaffold = params.get("scaffold", "")
    if scaffold:
        choice("scaffold", scaffold, SCAFFOLDS)
    sort = params.get("sort", "")
    if sort:
        choice("sort", sort.removeprefix("-"), sorted(sortable))
    return LeaderboardQuery(
        fit=fit, kinds=kinds, scaffold=scaffold, sort=sort, format=choice("format", params.get("format", ""), FORMATS)
    )
