"""Checks the pure packages (games/, ratings.maths) share: imports in a clean interpreter, the layer contracts."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def loaded_with(modules: list[str], roots: tuple[str, ...]) -> list[str]:
    """Import `modules` in a fresh interpreter with Django unconfigured; the modules under `roots` that came too."""
    script = (
        "import importlib, os, sys\n"
        "os.environ.pop('DJANGO_SETTINGS_MODULE', None)\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        f"print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in {roots!r})))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    return [name for name in result.stdout.strip().split(",") if name]


def import_contract(contract_id: str) -> dict:
    """The import-linter contract `contract_id` as pyproject.toml declares it."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    return next(c for c in contracts if c["id"] == contract_id)
