"""The human baseline's percentile bands: individual consenting people's ratings, P10…P90, on the rating charts."""

from __future__ import annotations

import pytest

from ratings.record import charts
from ratings.record.replay import people_percentiles

PEOPLE = [900.0, 1000.0, 1100.0, 1200.0, 1300.0, 1400.0]


def person(rating: float | None, consent: bool | None = True) -> dict:
    return {"kind": "human", "consent": consent, "rating": rating}


def test_percentiles_are_over_consenting_people_only():
    table = [person(r) for r in PEOPLE]
    table += [person(5000.0, consent=False), person(4000.0, consent=None), person(None)]  # left out
    table += [{"kind": "bot", "consent": None, "rating": 3000.0}, {"kind": "llm", "consent": None, "rating": 10.0}]
    bands = people_percentiles(table)
    # Linear interpolation between order statistics (numpy's default), worked by hand on six ratings:
    # P10 at position 0.5 → 950, P25 at 1.25 → 1025, P50 at 2.5 → 1150, P75 at 3.75 → 1275, P90 at 4.5 → 1350.
    assert bands == pytest.approx({"people": 6, "p10": 950, "p25": 1025, "p50": 1150, "p75": 1275, "p90": 1350})


def test_too_few_people_draw_no_bands():
    assert people_percentiles([person(r) for r in PEOPLE[:4]]) is None
    assert charts.human_bands({"percentiles": None}, "x") == []
    assert charts.human_bands(None, "x") == []


def test_bands_are_drawn_behind_the_rating_chart_and_the_scatter():
    baseline = {"slug": "human-baseline", "name": "Human baseline", "kind": "human", "rating": 1150.0,
                "lower": 1000.0, "upper": 1300.0, "matches": 40, "percentiles": people_percentiles(
                    [person(r) for r in PEOPLE])}  # fmt: skip
    rows = [{"name": "Bot", "kind": "bot", "rating": 1000.0, "lower": 990.0, "upper": 1010.0, "matches": 9,
             "latency_ms_p50": 3.0}]  # fmt: skip
    outer, middle, median = charts.rating_intervals(rows, baseline)["layout"]["shapes"]
    assert (outer["x0"], outer["x1"], outer["xref"], outer["yref"]) == (950, 1350, "x", "paper")
    assert (middle["x0"], middle["x1"]) == (1025, 1275)
    assert median["x0"] == median["x1"] == 1150
    assert outer["name"] == "people P10–P90 (n = 6)"
    assert all(shape["layer"] == "below" for shape in (outer, middle, median))
    scatter = charts.scatter(rows, "latency_ms_p50", "ms", "Strength against thinking time", baseline=baseline)
    outer, middle, _ = scatter["layout"]["shapes"]
    assert (outer["y0"], outer["y1"], outer["yref"], outer["xref"]) == (950, 1350, "y", "paper")
    assert charts.scatter(rows, "latency_ms_p50", "ms", "t")["layout"]["shapes"] == []
