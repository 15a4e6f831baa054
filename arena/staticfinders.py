"""Serves plotly.js from the plotly package's own files, so charts work offline."""

from __future__ import annotations

from pathlib import Path

import plotly
from django.contrib.staticfiles.finders import BaseFinder
from django.core.files.storage import FileSystemStorage

PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
STATIC_PATH = "vendor/plotly.min.js"


class PlotlyFinder(BaseFinder):
    """Exposes exactly one file: static/vendor/plotly.min.js."""

    storage = FileSystemStorage(location=PLOTLY_JS.parent)
    storage.prefix = "vendor"

    def check(self, **kwargs):
        return []

    def find(self, path, find_all=False, **kwargs):
        if path == STATIC_PATH:
            return [str(PLOTLY_JS)] if find_all else str(PLOTLY_JS)
        return []

    def list(self, ignore_patterns):
        yield PLOTLY_JS.name, self.storage
