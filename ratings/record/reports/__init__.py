"""Reports: each paper's own tables, computed from the matches that fit its protocol (one module per paper).

A module exposes TITLE, CITATION and `build(filters) -> Report`; adding a game's metric to a report is a small
function in that module (or in ratings/record/game_metrics.py) and one more column or table.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

#: Paper slug → module, in the order the index lists them.
PAPERS = ("advgamebench", "star", "dsgbench", "botzonebench", "gamebench")


class UnknownPaper(LookupError):
    """No report is registered under that slug."""


def paper(slug: str) -> ModuleType:
    """The report module of `slug`; UnknownPaper naming the known ones otherwise."""
    if slug not in PAPERS:
        raise UnknownPaper(f"No report called {slug!r}; choose one of {', '.join(PAPERS)}.")
    return import_module(f"ratings.record.reports.{slug}")
