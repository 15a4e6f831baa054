"""Versions frozen into every match record."""

from __future__ import annotations

import subprocess
from functools import cache

from arena.config import BASE_DIR

#: The wording of the LLM prompts (arena/agents/llm/prompts.py and scaffolds/); change it whenever the wording changes,
#: so results from different templates are never silently pooled.
PROMPT_VERSION = "3"


@cache
def code_version() -> str:
    """The git commit the code runs from (with '+dirty' for local edits), or 'unknown'."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"], cwd=BASE_DIR, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=BASE_DIR, capture_output=True, text=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return commit + ("+dirty" if dirty else "")
