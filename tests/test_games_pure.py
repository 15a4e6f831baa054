"""games/ must stay pure: importable and usable with Django unconfigured."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path

import games
from games.registry import REGISTRY

ROOT = Path(__file__).resolve().parent.parent


def test_every_games_module_imports_without_django():
    modules = sorted(m.name for m in pkgutil.walk_packages(games.__path__, "games."))
    assert "games.base" in modules
    script = (
        "import importlib, os, sys\n"
        "os.environ.pop('DJANGO_SETTINGS_MODULE', None)\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "leaked = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(','.join(leaked))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", f"games/ imported Django modules: {result.stdout.strip()}"


def test_the_layers_contract_keeps_every_registered_game_apart_from_the_others():
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["id"] == "games-layers")["layers"]
    independent = [layer for layer in layers if "|" in layer]
    assert len(independent) == 1
    listed = sorted(name.strip() for name in independent[0].split("|"))
    registered = sorted(entry.game.split(":")[0].removeprefix("games.") for entry in REGISTRY.values())
    assert listed == registered
