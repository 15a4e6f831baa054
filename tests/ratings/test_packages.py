"""ratings is its record side over its pure maths, with no web code: the contracts name both packages whole."""

from __future__ import annotations

import ast
import pkgutil
from pathlib import Path

import ratings
import ratings.maths
from tests.purity import import_contract, loaded_with

#: Modules that answer HTTP requests or render templates: the pages' business, not ratings'.
WEB = ("django.http", "django.shortcuts", "django.template", "django.views", "django.urls")


def test_every_maths_module_imports_without_django():
    modules = sorted(m.name for m in pkgutil.walk_packages(ratings.maths.__path__, "ratings.maths."))
    assert {"ratings.maths.bradley_terry", "ratings.maths.elo", "ratings.maths.ladder"} <= set(modules)
    leaked = loaded_with(modules, ("django", "arena"))
    assert leaked == [], f"ratings.maths imported: {','.join(leaked)}"


def test_the_contracts_keep_the_maths_and_the_record_below_every_other_package_of_ratings():
    """A package added to ratings beside its maths is one more name for these two contracts."""
    above_maths = {f"ratings.{m.name}" for m in pkgutil.iter_modules(ratings.__path__)} - {"ratings.maths"}
    assert above_maths == {"ratings.record"}
    assert set(import_contract("record-below-ratings-app")["forbidden_modules"]) == above_maths
    assert above_maths <= set(import_contract("maths-pure")["forbidden_modules"])


def test_ratings_imports_no_web_code():
    """import-linter cannot forbid parts of Django, so this reads every import statement of ratings."""
    root = Path(ratings.__path__[0])
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            found += [f"{path.relative_to(root.parent)}: {n}" for n in names if n.startswith(WEB)]
    assert found == []
