"""arena/'s modules import each other without a cycle, lazy (function-level) imports included.

Every `import` statement counts wherever it stands: a function-level import that only hides a cycle is the
cycle still, just discovered later. Importing `a.b.c` also runs `a/__init__.py` and `a/b/__init__.py`; those
implicit edges are not counted (a package may import its own children). The record's writers reach the
tournaments and ratings only through the `match_finished` event (arena/record/signals.py), never by import.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def import_graph(package_dir: Path) -> dict[str, set[str]]:
    """Each module under `package_dir` → the modules of that package it imports, at any depth of its code."""
    modules: dict[str, tuple[Path, bool]] = {}
    for path in package_dir.rglob("*.py"):
        parts = list(path.relative_to(package_dir.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        modules[".".join(parts[:-1] if is_package else parts)] = (path, is_package)

    def nearest_module(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, (path, is_package) in modules.items():
        here = name if is_package else name.rpartition(".")[0]
        targets: set[str | None] = set()
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                targets |= {nearest_module(alias.name) for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = here.rsplit(".", node.level - 1)[0] if node.level else ""
                source = ".".join(p for p in (base, node.module) if p)
                for alias in node.names:  # `from pkg import module` imports the module itself
                    child = f"{source}.{alias.name}"
                    targets.add(child if child in modules else nearest_module(source))
        graph[name] = {t for t in targets if t and t != name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle as a path that ends where it starts, or [] when the graph has none."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(module: str) -> list[str]:
        path.append(module)
        on_path.add(module)
        for target in sorted(graph.get(module, ())):
            if target in on_path:
                return [*path[path.index(target) :], target]
            if target not in done and (cycle := visit(target)):
                return cycle
        path.pop()
        on_path.discard(module)
        done.add(module)
        return []

    for module in sorted(graph):
        if module not in done and (cycle := visit(module)):
            return cycle
    return []


def test_arena_has_no_import_cycle():
    graph = import_graph(ROOT / "arena")
    # The walk really sees arena's imports, lazy ones included (apps.ready imports the tournaments receiver).
    assert "arena.runner.loop" in graph["arena.runner.tasks"]
    assert "arena.tournaments.services" in graph["arena.apps"]
    cycle = find_cycle(graph)
    assert not cycle, "import cycle: " + " → ".join(cycle)


def test_a_cycle_hidden_in_a_function_is_found(tmp_path):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "writer.py").write_text("from pkg.sub import scheduler\n")
    (package / "sub" / "scheduler.py").write_text("def later():\n    from ..writer import x\n")
    assert find_cycle(import_graph(package)) == ["pkg.sub.scheduler", "pkg.writer", "pkg.sub.scheduler"]
