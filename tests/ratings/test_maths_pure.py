"""ratings.maths stays pure below the record, ratings' record side below its pages: the contracts name the whole app."""

from __future__ import annotations

import pkgutil

import ratings.maths
import ratings.record
from tests.purity import import_contract, loaded_with


def ratings_app_modules() -> set[str]:
    """Every child of `ratings.record` (module or package)."""
    return {f"ratings.record.{m.name}" for m in pkgutil.iter_modules(ratings.record.__path__)}


def test_every_maths_module_imports_without_django():
    modules = sorted(m.name for m in pkgutil.walk_packages(ratings.maths.__path__, "ratings.maths."))
    assert {"ratings.maths.bradley_terry", "ratings.maths.elo", "ratings.maths.ladder"} <= set(modules)
    leaked = loaded_with(modules, ("django", "arena"))
    assert leaked == [], f"ratings.maths imported: {','.join(leaked)}"


def test_maths_contract_forbids_the_whole_ratings_app():
    app = ratings_app_modules()
    assert {"ratings.record.selectors", "ratings.record.models", "ratings.record.reports"} <= app
    maths = import_contract("maths-pure")
    assert maths["source_modules"] == ["ratings.maths"]
    assert set(maths["forbidden_modules"]) == app | {"django", "channels", "arena"}


def test_record_contract_forbids_the_whole_ratings_app():
    record = import_contract("record-below-ratings-app")
    assert record["source_modules"] == ["arena.record"]
    assert set(record["forbidden_modules"]) == ratings_app_modules()


def test_web_contract_covers_every_room_below_ratings_pages():
    layers = import_contract("ratings-layers")
    assert layers["containers"] == ["ratings.record"]
    assert layers["exhaustive"] is True
    rooms = [{f"ratings.record.{r.strip()}" for r in layer.split("|")} for layer in layers["layers"]]
    assert rooms[0] == {"ratings.record.apps", "ratings.record.management"}
    below_pages = set().union(*rooms[1:])
    assert below_pages == ratings_app_modules() - rooms[0]
    assert set(import_contract("ratings-record-below-web")["source_modules"]) == below_pages | {"ratings.maths"}
