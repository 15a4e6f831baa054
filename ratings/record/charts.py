"""Plotly figures as plain dicts: one question per chart, units on the axes, exact values and n on hover.

Colours follow the site: one per agent kind (Okabe–Ito, colour-blind safe). static/js/charts.js
draws them and applies the page's light or dark theme.
"""

from __future__ import annotations

#: Every agent kind (arena.models.Agent.Kind), in the order filters and legends list them.
KIND_COLOURS = {
    "llm": "#0072b2",
    "bot": "#e69f00",
    "human": "#009e73",
    "program": "#cc79a7",
    "uci": "#d55e00",
    "remote": "#56b4e9",
}
KIND_NAMES = {
    "llm": "models",
    "bot": "bots",
    "human": "people",
    "program": "programs",
    "uci": "UCI engines",
    "remote": "remote agents",
}
INTERVAL_HOVER = "%{y}: %{x:.0f} [%{customdata[0]:.0f}–%{customdata[1]:.0f}], n = %{customdata[2]}<extra></extra>"


def _layout(title: str, **extra) -> dict:
    return {"title": {"text": title}, "margin": {"l": 60, "r": 20, "t": 50, "b": 50}, "hovermode": "closest", **extra}


def human_bands(baseline: dict | None, axis: str) -> list[dict]:
    """The human baseline's percentile bands across a rating axis ("x" or "y"): where the middle 80%
    and 50% of consenting people stand, and their median, each a legend entry."""
    bands = (baseline or {}).get("percentiles")
    if not bands:
        return []
    other = "y" if axis == "x" else "x"
    colour = KIND_COLOURS["human"]
    people = bands["people"]

    def span(low: float, high: float, **style) -> dict:
        return {"type": "rect", "layer": "below", f"{axis}ref": axis, f"{other}ref": "paper",
                f"{axis}0": low, f"{axis}1": high, f"{other}0": 0, f"{other}1": 1,
                "line": {"width": 0}, "showlegend": True, **style}  # fmt: skip

    return [
        span(bands["p10"], bands["p90"], fillcolor=colour, opacity=0.08, name=f"people P10–P90 (n = {people})"),
        span(bands["p25"], bands["p75"], fillcolor=colour, opacity=0.16, name="people P25–P75"),
        {**span(bands["p50"], bands["p50"], name="people median"), "line": {"color": colour, "dash": "dot"}},
    ]


def rating_intervals(rows: list[dict], baseline: dict | None) -> dict:
    """Who is strongest? Each agent's rating with its 95% interval, coloured by kind."""
    shown = [r for r in rows if r["rating"] is not None][:40]
    if baseline and baseline["rating"] is not None and not baseline.get("thin"):
        shown.append(baseline)
    shown.sort(key=lambda r: r["rating"])
    data = []
    for kind in KIND_NAMES:
        mine = [r for r in shown if r["kind"] == kind]
        if not mine:
            continue
        data.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": KIND_NAMES[kind],
                "marker": {"color": KIND_COLOURS[kind], "size": 9},
                "x": [r["rating"] for r in mine],
                "y": [r["name"] for r in mine],
                "error_x": {
                    "type": "data",
                    "symmetric": False,
                    "array": [(r["upper"] - r["rating"]) if r["upper"] is not None else 0 for r in mine],
                    "arrayminus": [(r["rating"] - r["lower"]) if r["lower"] is not None else 0 for r in mine],
                },
                "customdata": [[r["lower"], r["upper"], r["matches"]] for r in mine],
                "hovertemplate": INTERVAL_HOVER,
            }
        )
    height = max(300, 24 * len(shown) + 120)
    return {
        "data": data,
        "layout": _layout(
            "Rating with 95% interval (Lv0 random bots = 1000)",
            xaxis={"title": {"text": "rating (Elo scale)"}},
            yaxis={"automargin": True},
            height=height,
            shapes=human_bands(baseline, "x"),
        ),
    }


def rating_history(histories: dict[str, list[list[float]]]) -> dict:
    """How did the rating move? Sequential Elo after each match ([match number, Elo] points)."""
    data = [
        {
            "type": "scatter",
            "mode": "lines+markers",
            "name": name,
            "x": [point[0] for point in h],
            "y": [point[1] for point in h],
            "hovertemplate": f"{name}: %{{y:.0f}} after match %{{x}}<extra></extra>",
        }
        for name, h in histories.items()
        if h
    ]
    return {
        "data": data,
        "layout": _layout(
            "Elo after each match", xaxis={"title": {"text": "match number"}}, yaxis={"title": {"text": "Elo (K = 32)"}}
        ),
    }


def radar(
    axes: list[str],
    series: dict[str, list[float | None]],
    *,
    title: str = "Profile (1 = best)",
    radial_range: tuple[float, float] | None = (0, 1),
) -> dict:
    """What is this agent good at? Scores per axis (by default normalised, 0 worst to 1 best); autoscaled
    when `radial_range` is None. A missing value (None) is left out of its series, never drawn as 0."""
    data = []
    for name, values in series.items():
        points = [(axis, v) for axis, v in zip(axes, values, strict=True) if v is not None]
        if not points:
            continue
        points.append(points[0])  # close the outline
        data.append(
            {
                "type": "scatterpolar",
                "r": [v for _, v in points],
                "theta": [axis for axis, _ in points],
                "name": name,
                "fill": "toself",
                "opacity": 0.55,
                "hovertemplate": f"{name} · %{{theta}}: %{{r:.2f}}<extra></extra>",
            }
        )
    # The axes keep their order and all appear even when a series misses some.
    polar = {"angularaxis": {"categoryorder": "array", "categoryarray": axes}}
    if radial_range is not None:
        polar["radialaxis"] = {"range": list(radial_range)}
    return {"data": data, "layout": _layout(title, polar=polar)}


def heatmap(labels: list[str], fractions: list[list[float | None]], counts: list[list[int]]) -> dict:
    """Who beats whom? Row agent's score share against the column agent (draws count half)."""
    text = [
        [f"{f:.0%} (n = {n})" if f is not None else "" for f, n in zip(fr, cn, strict=True)]
        for fr, cn in zip(fractions, counts, strict=True)
    ]
    return {
        "data": [
            {
                "type": "heatmap",
                "x": labels,
                "y": labels,
                "z": fractions,
                "text": text,
                "zmin": 0,
                "zmax": 1,
                "colorscale": "RdBu",
                "texttemplate": "%{text}",  # the counts are printed in the cells, not only on hover
                "hovertemplate": "%{y} vs %{x}: %{text}<extra></extra>",
                "colorbar": {"title": {"text": "score share"}},
            }
        ],
        "layout": _layout(
            "Head to head: row's score share against column",
            xaxis={"automargin": True},
            yaxis={"automargin": True, "autorange": "reversed"},
            height=max(350, 28 * len(labels) + 150),
        ),
    }


def scatter(
    rows: list[dict], x: str, x_title: str, title: str, log_x: bool = False, baseline: dict | None = None
) -> dict:
    """Rating against a cost (latency, money), one point per agent, coloured by kind, over the
    human baseline's percentile bands."""
    data = []
    for kind in KIND_NAMES:
        mine = [r for r in rows if r["kind"] == kind and r.get(x) is not None and r["rating"] is not None]
        if mine:
            data.append(
                {
                    "type": "scatter",
                    "mode": "markers",
                    "name": KIND_NAMES[kind],
                    "marker": {"color": KIND_COLOURS[kind], "size": 10},
                    "x": [r[x] for r in mine],
                    "y": [r["rating"] for r in mine],
                    "text": [r["name"] for r in mine],
                    "hovertemplate": "%{text}: %{y:.0f} at %{x}<extra></extra>",
                }
            )
    return {
        "data": data,
        "layout": _layout(
            title,
            xaxis={"title": {"text": x_title}, "type": "log" if log_x else "linear"},
            yaxis={"title": {"text": "rating"}},
            shapes=human_bands(baseline, "y"),
        ),
    }


def score_bars(games: list[str], series: dict[str, list[float | None]], counts: list[int]) -> dict:
    """The profile radar's question on one or two games: score share per game per series, with the agent's n."""
    data = [
        {
            "type": "bar",
            "name": name,
            "x": games,
            "y": values,
            "customdata": counts,
            "hovertemplate": f"{name} · %{{x}}: %{{y:.0%}} of points (agent's n = %{{customdata}})<extra></extra>",
        }
        for name, values in series.items()
    ]
    return {
        "data": data,
        "layout": _layout(
            "Score share per game (a radar needs three games)",
            barmode="group",
            yaxis={"title": {"text": "share of points"}, "tickformat": ".0%", "range": [0, 1]},
        ),
    }


def first_mover_bars(rows: list[dict]) -> dict:
    """Does moving first help? First seat's win / draw / loss shares per game, with n."""
    games = [r["game"] for r in rows]
    data = [
        {
            "type": "bar",
            "name": label,
            "x": games,
            "y": [r[key] for r in rows],
            "customdata": [r["n"] for r in rows],
            "hovertemplate": f"%{{x}}: {label} %{{y:.0%}}, n = %{{customdata}}<extra></extra>",
            "marker": {"color": colour},
        }
        for key, label, colour in (
            ("win", "first seat wins", "#0072b2"),
            ("draw", "draws", "#999999"),
            ("loss", "second seat wins", "#d55e00"),
        )
    ]
    return {
        "data": data,
        "layout": _layout(
            "First-seat results by game",
            barmode="stack",
            yaxis={"title": {"text": "share of games"}, "tickformat": ".0%"},
        ),
    }
