"""ratings.maths stays pure below the record, ratings' record side below its pages: the contracts name the whole app."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path

import ratings
import ratings.maths

ROOT = Path(__file__).resolve().parents[2]


def contract(contract_id: str) -> dict:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    return next(c for c in contracts if c["id"] == contract_id)


def ratings_app_modules() -> set[str]:
    """Every child of `ratings` (module or package) except `ratings.maths`."""
    return {f"ratings.{m.name}" for m in pkgutil.iter_modules(ratings.__path__)} - {"ratings.maths"}


def test_every_maths_module_imports_without_django():
    modules = sorted(m.name for m in pkgutil.walk_packages(ratings.maths.__path__, "ratings.maths."))
    assert {"ratings.maths.bradley_terry", "ratings.maths.elo", "ratings.maths.ladder"} <= set(modules)
    script = (
        "import importlib, os, sys\n"
        "os.environ.pop('DJANGO_SETTINGS_MODULE', None)\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "leaked = sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'arena'))\n"
        "print(','.join(leaked))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", f"ratings.maths imported: {result.stdout.strip()}"


def test_maths_contract_forbids_the_whole_ratings_app():
    app = ratings_app_modules()
    assert {"ratings.selectors", "ratings.models", "ratings.reports"} <= app
    maths = contract("maths-pure")
    assert maths["source_modules"] == ["ratings.maths"]
    assert set(maths["forbidden_modules"]) == app | {"django", "channels", "arena"}


def test_record_contract_forbids_the_whole_ratings_app():
    record = contract("record-below-ratings-app")
    assert record["source_modules"] == ["arena.record"]
    assert set(record["forbidden_modules"]) == ratings_app_modules()


def test_web_contract_covers_every_room_below_ratings_pages():
    layers = contract("ratings-layers")
    assert layers["containers"] == ["ratings"]
    assert layers["exhaustive"] is True
    rooms = [{f"ratings.{r.strip()}" for r in layer.split("|")} for layer in layers["layers"]]
    assert rooms[0] == {"ratings.urls", "ratings.apps", "ratings.management"}
    assert rooms[1] == {"ratings.views", "ratings.report_views"}
    below_pages = set().union(*rooms[2:])
    assert below_pages == ratings_app_modules() - rooms[0] - rooms[1] | {"ratings.maths"}
    assert set(contract("ratings-record-below-web")["source_modules"]) == below_pages
