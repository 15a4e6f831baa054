"""docs/commands.md lists every management command and every environment variable the code reads."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMMANDS_DOC = (ROOT / "docs" / "commands.md").read_text()
#: A variable read from the environment: `environ.get("X"`, `env["X"]`, or a config reader's `(env, "X"`.
READ = re.compile(r"""(?:environ(?:\.get)?|env(?:\.get)?)[(\[]"([A-Z][A-Z0-9_]+)"|\(env, "([A-Z][A-Z0-9_]+)\"""")
#: Read for the programs Arena starts, not configuration of Arena (the sandbox passes PATH on).
NOT_CONFIGURATION = {"PATH"}


def test_every_command_is_listed():
    commands = sorted(
        path.stem
        for package in ("arena", "ratings")
        for path in (ROOT / package / "management" / "commands").glob("*.py")
        if path.stem != "__init__"
    )
    assert commands
    missing = [name for name in commands if f"manage.py {name}" not in COMMANDS_DOC]
    assert missing == []


def test_every_environment_variable_is_listed():
    read = {
        name
        for package in ("arena", "ratings")
        for path in (ROOT / package).rglob("*.py")
        for match in READ.finditer(path.read_text())
        for name in match.groups()
        if name
    } - NOT_CONFIGURATION
    assert {"DATABASE_URL", "ARENA_PLAY_LIMITS", "LLM_PORT"} <= read
    missing = sorted(name for name in read if f"`{name}`" not in COMMANDS_DOC)
    assert missing == []
