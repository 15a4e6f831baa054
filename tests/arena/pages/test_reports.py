"""The Reports pages: each paper's page, its cell links and its figures agree with `manage.py report` and honour the
filters."""

from __future__ import annotations

import io
import math

import pytest
from asgiref.sync import async_to_sync
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings

from arena.record.agents import bots_ensure
from arena.record.services import match_create
from arena.runner.loop import run_match
from ratings.record.report_record import Result
from ratings.record.reports import gamebench, star
from ratings.record.reports.base import ReportFilters
from ratings.record.reports.render import cell_text

NONE = ReportFilters()


@pytest.mark.django_db
def test_each_report_header_says_where_it_is_not_the_papers_setup(client):
    expected = {
        "botzonebench": "Arena's ladder, not Botzone's bots",
        "gamebench": "the other models only when they are evaluated together",
        "dsgbench": "Arena's strongest ladder bot stands in for the game's built-in AI or GPT-4o-mini",
        "star": "the paper's are not available offline",
        "advgamebench": "§5's 4,752 is no whole number of matches",
    }
    for key, text in expected.items():
        header = client.get(f"/reports/{key}/?format=md").content.decode().split("\n\n")[1]
        assert "Not the paper's setup: " in header
        assert text in header


@pytest.mark.django_db
@override_settings(ARENA_BOOTSTRAP_ROUNDS=20)
def test_page_command_and_cell_links_agree(client):
    bots = {a.slug: a for a in bots_ensure(game="tic-tac-toe")}
    ids = []
    for seed in (1, 2):
        match = match_create(game="tic-tac-toe", agents=[bots["tic-tac-toe-lv0"], bots["tic-tac-toe-lv1"]], seed=seed)
        ids.append(async_to_sync(run_match)(match.pk).pk)
    page = client.get("/reports/gamebench/?format=md&bots=show")  # two bots: shown on request only
    assert page.status_code == 200
    out = io.StringIO()
    call_command("report", "gamebench", "--format", "md", "--bots", "show", stdout=out)
    assert page.content.decode() == out.getvalue()
    assert "tic-tac-toe-lv0" in out.getvalue()
    assert "n=2 (thin)" in out.getvalue()
    assert "tic-tac-toe-lv0" not in client.get("/reports/gamebench/?format=md").content.decode()
    html = client.get("/reports/gamebench/?bots=show").content.decode()
    assert 'href="cell/?table=figure-1&amp;row=0&amp;col=0&amp;bots=show"' in html
    cell = client.get("/reports/gamebench/cell/?table=figure-1&row=0&col=0&bots=show")
    assert cell.status_code == 200
    for pk in ids:
        assert f'href="/matches/{pk}/"' in cell.content.decode()  # the second click reaches the decisions
    for slug in ("advgamebench", "star", "dsgbench", "botzonebench"):
        assert client.get(f"/reports/{slug}/").status_code == 200
    assert client.get("/reports/").status_code == 200


@pytest.mark.django_db
def test_filters_are_checked_like_the_leaderboard(client):
    assert client.get("/reports/star/?since=2026-13-01").status_code == 400
    assert client.get("/reports/star/?agent=nobody").status_code == 400
    assert client.get("/reports/star/?scaffold=magic").status_code == 400
    assert client.get("/reports/star/?bots=yes").status_code == 400  # only bots=show
    assert client.get("/reports/star/cell/?table=nope&row=0&col=0").status_code == 400
    assert client.get("/reports/nobody/").status_code == 404
    with pytest.raises(CommandError, match="not a date"):
        call_command("report", "star", "--since", "yesterday", stdout=io.StringIO())


def test_the_gap_figure_plots_each_mode_with_its_intervals():
    from arena.pages.reports import figure
    from ratings.record.reports.base import Table

    pwer = star.Cell(1030.0, 1020.0, 1040.0, 6, (1,))
    time = star.Cell(900.0, 800.0, 1200.0, 6, (1,))
    table = Table(
        "gap", "gap", "STAR §4.3", ["PWER", "ms"], [("m · turn-based", [pwer, time]), ("m · real-time", [pwer, time])]
    )
    table.chart = (1, 0, True)
    drawn = figure(table)
    assert [trace["name"] for trace in drawn["data"]] == ["turn-based", "real-time"]
    trace = drawn["data"][0]
    assert (trace["x"], trace["y"]) == ([900.0], [1030.0])
    assert trace["error_x"]["array"] == [300.0]
    assert trace["error_x"]["arrayminus"] == [100.0]
    assert drawn["layout"]["xaxis"]["type"] == "log"


@pytest.mark.django_db
@override_settings(ARENA_BOOTSTRAP_ROUNDS=20)
def test_advgamebench_report_honours_filters(client):
    bots = {a.slug: a for a in bots_ensure(game="battle-card")}
    match = match_create(game="battle-card", agents=[bots["battle-card-lv2"], bots["battle-card-lv0"]], seed=4)
    async_to_sync(run_match)(match.pk)
    everything = client.get("/reports/advgamebench/?format=json").json()
    table_1 = next(t for t in everything["tables"] if t["key"] == "table-1")
    assert [r["label"] for r in table_1["rows"]] == ["battle-card-lv0 · battle-card", "battle-card-lv2 · battle-card"]
    one = client.get("/reports/advgamebench/?format=json&agent=battle-card-lv0").json()
    assert [r["label"] for r in next(t for t in one["tables"] if t["key"] == "table-1")["rows"]] == [
        "battle-card-lv0 · battle-card"
    ]
    later = client.get("/reports/advgamebench/?format=json&since=2999-01-01").json()
    assert all(not t["rows"] for t in later["tables"] if t["key"].startswith("table-1"))


@pytest.mark.django_db
@override_settings(ARENA_BOOTSTRAP_ROUNDS=20)
def test_advgamebench_page_draws_the_section_4_6_radar(client):
    import json
    import re

    bots = {a.slug: a for a in bots_ensure(game="battle-card")}
    match = match_create(game="battle-card", agents=[bots["battle-card-lv2"], bots["battle-card-lv0"]], seed=4)
    async_to_sync(run_match)(match.pk)
    assert (
        next(t for t in client.get("/reports/advgamebench/?format=json").json()["tables"] if t["key"] == "radar")[
            "rows"
        ]
        == []
    )  # two scripted bots: not on the radar unless asked for
    report = client.get("/reports/advgamebench/?format=json&bots=show").json()
    table = next(t for t in report["tables"] if t["key"] == "radar")
    assert len(table["rows"]) == 2
    html = client.get("/reports/advgamebench/?bots=show").content.decode()
    drawn = json.loads(re.search(r'<script id="radar-figure" type="application/json">(.*?)</script>', html).group(1))
    assert {trace["name"] for trace in drawn["data"]} == {row["label"] for row in table["rows"]}
    for trace in drawn["data"]:
        row = next(r for r in table["rows"] if r["label"] == trace["name"])
        shown = [c["value"] for c in row["cells"] if c["value"] is not None]
        assert trace["r"] == pytest.approx([*shown, shown[0]])  # the defined axes, closed


def test_figure_1_dot_plot_has_whiskers_and_leaves_out_empty_cells():
    from arena.pages.reports import figure

    rows = [Result(m, "chess", ("A", "B"), (0, 1), (s, 1 - s)) for m, s in zip(range(1, 5), (1, 1, 1, 0), strict=True)]
    (table, _table_2, _radar) = gamebench.tables(rows, filters=NONE, rounds=50)
    drawn = figure(table)
    (chess,) = drawn["data"]  # one panel per game; agents on its y axis, the best on top
    a, b = dict(table.rows)["A"][0], dict(table.rows)["B"][0]
    assert chess["y"] == ["B", "A"]
    assert chess["x"] == [b.value, a.value]
    assert chess["error_x"]["arrayminus"] == [b.value - b.low, a.value - a.low]
    assert chess["text"] == ["n=4 (thin)", "n=4 (thin)"]
    assert drawn["layout"]["yaxis"]["type"] == "category"


@pytest.mark.django_db
@override_settings(ARENA_BOOTSTRAP_ROUNDS=20, ARENA_REPORT_MIN_GAMES=2)
def test_gamebench_page_draws_the_category_radar_above_its_table(client):
    import json
    import re

    bots = {a.slug: a for a in bots_ensure(game="tic-tac-toe")}
    for seed in (1, 2):
        match = match_create(game="tic-tac-toe", agents=[bots["tic-tac-toe-lv0"], bots["tic-tac-toe-lv1"]], seed=seed)
        async_to_sync(run_match)(match.pk)
    report = client.get("/reports/gamebench/?format=json&bots=show").json()
    table = next(t for t in report["tables"] if t["key"] == "table-3-radar")
    assert table["columns"] == ["Abstract Strategy"]  # tic-tac-toe's only category
    html = client.get("/reports/gamebench/?bots=show").content.decode()
    found = re.search(r'<script id="table-3-radar-figure" type="application/json">(.*?)</script>', html)
    drawn = json.loads(found.group(1))
    expected = {row["label"]: row["cells"][0]["value"] for row in table["rows"]}
    assert set(expected) == {"tic-tac-toe-lv0", "tic-tac-toe-lv1"}
    for trace in drawn["data"]:
        assert trace["type"] == "scatterpolar"
        assert trace["theta"] == ["Abstract Strategy", "Abstract Strategy"]  # closed outline
        assert trace["r"] == pytest.approx([expected[trace["name"]]] * 2)
    assert {trace["name"] for trace in drawn["data"]} == set(expected)
    section = html[html.index('id="table-3-radar-heading"') :]
    assert section.index('data-plotly="table-3-radar-figure"') < section.index('<table class="table">')  # table kept


def test_category_radar_leaves_thin_and_unplayed_categories_out():
    from arena.pages.reports import figure
    from ratings.record.reports.base import Cell, Table

    # A played chess enough (Abstract Strategy) but its only Hidden-Information game was thin: left out, not 0.
    table = Table(
        key="table-3-radar",
        title="Table 3",
        source="",
        columns=["Abstract Strategy", "Hidden Information"],
        rows=[("A", [Cell(-0.4, n=12), None]), ("B", [Cell(0.4, n=12), Cell(0.2, n=11)])],
        radar=True,
    )
    drawn = figure(table)
    traces = {t["name"]: t for t in drawn["data"]}
    assert (traces["A"]["theta"], traces["A"]["r"]) == (["Abstract Strategy"] * 2, [-0.4, -0.4])
    assert traces["B"]["r"] == [0.4, 0.2, 0.4]
    assert drawn["layout"]["polar"]["angularaxis"]["categoryarray"] == ["Abstract Strategy", "Hidden Information"]
    assert "range" not in drawn["layout"]["polar"].get("radialaxis", {})  # nats can be negative: autoscaled


@pytest.mark.django_db
def test_dsgbench_page_tracks_a_real_stratego_games_moves(client):
    from arena.models import Decision

    bots = {a.slug: a for a in bots_ensure(game="stratego")}
    match = match_create(game="stratego", agents=[bots["stratego-lv0"], bots["stratego-lv1"]], seed=1)
    async_to_sync(run_match)(match.pk)
    report = client.get("/reports/dsgbench/?format=json").json()
    table = next(t for t in report["tables"] if t["key"] == "decisions-stratego")
    rows = {row["label"]: dict(zip(table["columns"], row["cells"], strict=True)) for row in table["rows"]}
    for seat, slug in enumerate(("stratego-lv0", "stratego-lv1")):
        moves = Decision.objects.filter(match=match, seat=seat, ply__gte=2)  # plies 0 and 1 are the setups
        cells = rows[slug]
        assert {c["n"] for c in cells.values()} == {moves.count()}
        assert sum(c["value"] for c in cells.values()) == pytest.approx(1.0)
        # The engine writes an attack as "a4xa5": the report's attacks are exactly those moves.
        attacks = sum("x" in text for text in moves.values_list("action_text", flat=True))
        shown = sum(c["value"] for column, c in cells.items() if column.endswith("attack"))
        assert attacks > 0
        assert round(shown * moves.count()) == attacks
        assert cells["early: move"]["matches"] == [match.pk]
    assert 'id="decisions-stratego"' in client.get("/reports/dsgbench/").content.decode()


@pytest.mark.django_db
@override_settings(ARENA_BOOTSTRAP_ROUNDS=20)
def test_advgamebench_rows_are_agent_and_scaffold(client):
    from arena.models import Agent, AgentVersion, Seat

    # One model with a direct and a chain-of-thought version: each sits in seat 0 of one battle-card match.
    bots = {a.slug: a for a in bots_ensure(game="battle-card")}
    model = Agent.objects.create(slug="m", name="M", kind=Agent.Kind.LLM)
    versions = [
        AgentVersion.objects.create(agent=model, number=n, config={"scaffold": s})
        for n, s in ((1, "direct"), (2, "cot"))
    ]
    for seed, version in zip((4, 5), versions, strict=True):
        match = match_create(game="battle-card", agents=[bots["battle-card-lv2"], bots["battle-card-lv0"]], seed=seed)
        async_to_sync(run_match)(match.pk)
        Seat.objects.filter(match=match, index=0).update(agent_version=version)
    report = client.get("/reports/advgamebench/?format=json").json()
    overall = next(t for t in report["tables"] if t["key"] == "table-1-overall")
    assert [r["label"] for r in overall["rows"]] == ["battle-card-lv0", "m (cot)", "m (direct)"]
    rows = {r["label"]: r["cells"][0] for r in overall["rows"]}
    assert len(rows["m (cot)"]["matches"]) == 1
    assert rows["m (cot)"]["matches"] != rows["m (direct)"]["matches"]
    radar = next(t for t in report["tables"] if t["key"] == "radar")
    assert [r["label"] for r in radar["rows"]] == ["m (cot)", "m (direct)"]  # the bot is left off by default


@pytest.mark.django_db
@override_settings(ARENA_REPORT_MIN_GAMES=1)
def test_dsgbench_report_includes_diplomacy(client):
    from ratings.record.game_metrics import diplomacy_report

    bots = {a.slug: a for a in bots_ensure(game="diplomacy")}
    match = match_create(game="diplomacy", agents=[bots["diplomacy-lv0"]] * 6 + [bots["diplomacy-lv1"]], seed=1)
    async_to_sync(run_match)(match.pk)
    report = client.get("/reports/dsgbench/?format=json").json()
    metrics = next(t for t in report["tables"] if t["key"] == "metrics")
    rows = {r["label"]: dict(zip(metrics["columns"], r["cells"], strict=True)) for r in metrics["rows"]}
    expected = {r["agent"]: r for r in diplomacy_report()}
    for slug in ("diplomacy-lv0", "diplomacy-lv1"):
        for name in ("CCC", "ASR", "AD"):
            assert rows[slug][name]["value"] == pytest.approx(expected[slug][name.lower()])
        assert rows[slug]["CCC"]["matches"] == [match.pk]
    assert rows["diplomacy-lv0"]["CCC"]["n"] == 1  # n = matches; the six powers are averaged
    eq3 = next(t for t in report["tables"] if t["key"] == "eq-3")
    (lv1,) = [r for r in eq3["rows"] if r["label"] == "diplomacy-lv1"]
    assert lv1["cells"][-1] == "3 dims: diplomacy"  # Strategic, Social, Team: one game, so partial
    assert lv1["cells"][eq3["columns"].index("Overall")]["note"] == "partial: 3 of 4 dimensions"


def test_gamebench_an_agent_that_never_lost_shows_a_bound_sorted_by_it():
    # A beats B 12 times (never loses: no finite MLE). B and C split 2–2; D beats B 7 of 8. Bounded: B = C,
    # D = B + ln 7, centred on their mean: B = −ln 7 / 3 = −0.6486, D = 2 ln 7 / 3 = 1.2973. A's one-sided
    # 95% bound over 12 straight wins: P(win) ≥ 0.05^(1/12) = 0.77907, log-odds 1.2603, so A ≥ B + 1.2603 = 0.6117,
    # below D: A is not first although its prior-held fit is ~16 nats.
    games = [("A", "B", 1.0)] * 12 + [("B", "C", 1.0), ("B", "C", 0.0)] * 2 + [("D", "B", 1.0)] * 7 + [("D", "B", 0.0)]
    rows = [Result(m, "chess", (x, y), (0, 1), (s, 1 - s)) for m, (x, y, s) in enumerate(games, start=1)]
    assert gamebench.one_sided(0.90, 12) == pytest.approx(1.2603, abs=1e-4)
    (figure, table_2, _radar) = gamebench.tables(rows, filters=NONE, rounds=50)
    cells = {label: row[0] for label, row in figure.rows}
    assert cells["B"].value == pytest.approx(-math.log(7) / 3, abs=1e-3)
    assert cells["D"].value == pytest.approx(2 * math.log(7) / 3, abs=1e-3)
    a = cells["A"]
    assert (a.low, a.high, a.note) == (pytest.approx(cells["B"].value + 1.2603, abs=1e-3), None, "unbounded above")
    assert [label for label, _ in figure.rows][:2] == ["D", "A"]
    from arena.pages.reports import figure as draw

    assert cell_text(a) == "≥ 0.612 n=12 (unbounded above)"
    (panel,) = draw(figure)["data"]
    assert panel["marker"]["symbol"][panel["y"].index("A")] == "triangle-right-open"
    at = panel["y"].index("A")  # a one-sided interval: from the bound to the panel's right edge, nothing left
    assert panel["error_x"]["arrayminus"][at] == 0
    assert a.value + panel["error_x"]["array"][at] == pytest.approx(
        max(c.high or c.value for c in cells.values()) + 0.5
    )
    # Table 2, average score: A won all 12 (1.0); B scored 2 of 4 against C, 1 of 8 against D, 0 of 12 against A.
    scores = {label: row[0] for label, row in table_2.rows}
    assert (scores["A"].value, scores["A"].n) == (1.0, 12)
    assert scores["B"].value == pytest.approx(3 / 24)


def test_gamebench_an_unbeaten_agent_is_never_placed_below_one_it_beat_and_islands_keep_their_own_scale():
    # B, C, D bounded among themselves as above; A beat D once: the one-sided bound alone, D + ln(0.05 / 0.95) =
    # D − 2.944, would draw A left of D. X and Y played only each other (X 2–1): a group of their own, centred on
    # its own mean (X = ln 2 / 2, Y = −ln 2 / 2), not "unbounded". Z lost its one game to W, who played no one else:
    # neither is bound to anyone both ways, so both are "not connected", with no value.
    games = (
        [("B", "C", 1.0), ("B", "C", 0.0)] * 2
        + [("D", "B", 1.0)] * 7
        + [("D", "B", 0.0), ("A", "D", 1.0), ("X", "Y", 1.0), ("X", "Y", 1.0), ("X", "Y", 0.0), ("W", "Z", 1.0)]
    )
    rows = [Result(m, "chess", (x, y), (0, 1), (s, 1 - s)) for m, (x, y, s) in enumerate(games, start=1)]
    (figure, _table_2, _radar) = gamebench.tables(rows, filters=NONE, rounds=50)
    cells = {label: row[0] for label, row in figure.rows}
    d = cells["D"].value
    assert gamebench.one_sided(0.90, 1) == pytest.approx(math.log(0.05 / 0.95))
    assert (cells["A"].low, cells["A"].high) == (pytest.approx(d), None)
    assert cell_text(cells["A"]) == f"≥ {d:.3g} n=1 (unbounded above; thin)"
    assert cells["X"].value == pytest.approx(math.log(2) / 2, abs=1e-3)
    assert cells["Y"].value == pytest.approx(-math.log(2) / 2, abs=1e-3)
    assert cells["X"].note.startswith("separate group: 0 = its own mean")
    assert (cells["W"].value, cells["Z"].value) == (None, None)
    assert cells["W"].note.startswith("not connected")
    assert cells["Z"].note.startswith("not connected")
    assert not any("unbounded" in c.note for label, c in cells.items() if label in "XYZW")


@pytest.mark.django_db
@override_settings(ARENA_BOOTSTRAP_ROUNDS=20)
def test_two_versions_with_one_scaffold_are_two_rows(client):
    from arena.models import Agent, AgentVersion, Seat

    # Versions 1 and 2 of m both use chain of thought (say, another model id), version 3 is direct.
    bots = {a.slug: a for a in bots_ensure(game="battle-card")}
    model = Agent.objects.create(slug="m", name="M", kind=Agent.Kind.LLM)
    versions = [
        AgentVersion.objects.create(agent=model, number=n, config={"scaffold": s})
        for n, s in ((1, "cot"), (2, "cot"), (3, "direct"))
    ]
    for seed, version in zip((4, 5, 6), versions, strict=True):
        match = match_create(game="battle-card", agents=[bots["battle-card-lv2"], bots["battle-card-lv0"]], seed=seed)
        async_to_sync(run_match)(match.pk)
        Seat.objects.filter(match=match, index=0).update(agent_version=version)
    report = client.get("/reports/advgamebench/?format=json&agent=m").json()
    overall = next(t for t in report["tables"] if t["key"] == "table-1-overall")
    assert [r["label"] for r in overall["rows"]] == ["m (direct)", "m v1 (cot)", "m v2 (cot)"]
    assert ReportFilters(agent="m", scaffold="cot").shows("m v2 (cot)")
    assert not ReportFilters(agent="m", scaffold="cot").shows("m (direct)")
