"""docs/architecture.md names every receiver connected to the record's events."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.models import Match
from arena.record import signals

ARCHITECTURE = (Path(__file__).resolve().parents[2] / "docs" / "architecture.md").read_text()


@pytest.mark.parametrize("name", ["match_finished", "match_updated", "match_paused", "match_seating", "agents_merged"])
def test_every_receiver_is_documented(name):
    sync, asynchronous = getattr(signals, name)._live_receivers(Match)
    receivers = [receiver.__name__ for receiver in [*sync, *asynchronous]]
    assert receivers  # connected in the apps' ready()
    assert [r for r in receivers if f"`{r}`" not in ARCHITECTURE] == []
