"""The papers and published records in shared/, beside the checkout: tests that read them skip where it is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared"
SEEDS = SHARED / "seeds"
RECORDS = SHARED / "reference" / "records"


def needs(path: Path) -> pytest.MarkDecorator:
    """Skip the test (or module, as `pytestmark`) when `path` is not on this machine."""
    return pytest.mark.skipif(not path.exists(), reason=f"{path} is not on this machine (shared/ beside the checkout)")
