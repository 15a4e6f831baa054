"""Sweeps that `make test` (CI) runs whole and `make check` (the inner loop) samples.

`sampled(values, keep)` parametrizes over every value, marking those not in `keep` slow: `make check` deselects slow
tests, `make test` runs them all.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

import pytest


def sampled(values: Iterable[Any], keep: Collection[Any]) -> list:
    """`values` as parameters, those not in `keep` marked slow (a tuple value fills several argument names)."""
    return [
        pytest.param(
            *(value if isinstance(value, tuple) else (value,)), marks=() if value in keep else pytest.mark.slow
        )
        for value in values
    ]
