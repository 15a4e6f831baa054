"""Thin data shown honestly: unranked rows below ARENA_RANK_MIN_GAMES, a glossary behind every acronym,
correlations with their n and a warning, and a profile chart for agents with fewer than three games."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from asgiref.sync import async_to_sync
from django.test import override_settings

from arena.record.agents import bots_ensure
from arena.record.people import guest_agent_create
from arena.record.services import decision_record, match_create
from arena.record.turns import match_claim
from arena.tournaments.run import run_tournament
from arena.tournaments.services import tournament_create
from ratings.record.glossary import TERMS
from ratings.record.reports.advgamebench import TABLE_1, correlation_table
from ratings.record.reports.base import Cell
from ratings.record.services import snapshot_refresh

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_bootstrap")]


@pytest.fixture
def results(django_capture_on_commit_callbacks):
    """Three bots with 24 rated games each; a person with 2 wins over Lv0."""
    with django_capture_on_commit_callbacks(execute=True):
        bots = {a.slug: a for a in bots_ensure(game="tic-tac-toe")}
        agents = [bots["tic-tac-toe-lv0"], bots["tic-tac-toe-lv2"], bots["tic-tac-toe-lv4"]]
        tournament = tournament_create(
            slug="t",
            name="t",
            format="round_robin",
            games=["tic-tac-toe"],
            agents=agents,
            games_per_seat=6,
            first_seed=0,
        )
        async_to_sync(run_tournament)(tournament.pk)
        person = guest_agent_create(nickname="Newcomer")
        for seed in range(2):
            match = match_claim(
                match_id=match_create(game="tic-tac-toe", agents=[person, agents[0]], seed=seed).pk, worker="w"
            ).match
            for ply, cell in enumerate([0, 3, 1, 4, 2]):
                match = decision_record(match=match, ply=ply, action=cell)
    snapshot_refresh(game="")
    return person


def test_an_agent_with_too_few_games_gets_no_rank_and_no_interval(client, results):
    rows = client.get("/leaderboard/?format=json").json()["rows"]
    person = next(r for r in rows if r["slug"] == results.slug)
    assert person["matches"] == 2
    assert person["ranked"] is False
    assert (person["rank_best"], person["rank_worst"]) == (None, None)
    ranked = [r for r in rows if r["ranked"]]
    assert {r["slug"] for r in ranked} == {"tic-tac-toe-lv0", "tic-tac-toe-lv2", "tic-tac-toe-lv4"}
    assert rows[: len(ranked)] == ranked  # ranked rows first
    assert max(r["rank_worst"] for r in ranked) <= len(ranked)  # ranks drawn among ranked agents only
    assert next(r for r in ranked if r["slug"] == "tic-tac-toe-lv4")["rank_best"] == 1

    table = list(csv.DictReader(io.StringIO(client.get("/leaderboard/?format=csv").content.decode())))
    row = next(r for r in table if r["slug"] == results.slug)
    assert (row["ranked"], row["matches"], row["rank_best"]) == ("False", "2", "")

    body = client.get("/leaderboard/").content.decode()
    assert '<tr class="unranked">' in body
    assert "2 games — too few to rank" in body
    assert "/glossary/#too-few-to-rank" in body
    chart = json.loads(re.search(r'<script id="leaderboard-chart" type="application/json">(.*?)</script>', body)[1])
    drawn = {name for trace in chart["data"] for name in trace["y"]}
    assert "Newcomer" not in drawn
    assert "Tic-tac-toe Lv4" in drawn


def test_the_minimum_is_a_setting_and_the_chart_says_when_it_has_nothing_to_draw(client, results):
    with override_settings(ARENA_RANK_MIN_GAMES=1000):
        rows = client.get("/leaderboard/?format=json").json()["rows"]
        body = client.get("/leaderboard/").content.decode()
    assert not any(r["ranked"] for r in rows)
    assert 'data-plotly="leaderboard-chart"' not in body
    assert "no agent here has 1000 rated games, so there is no interval to draw" in body
    with override_settings(ARENA_RANK_MIN_GAMES=2):
        rows = client.get("/leaderboard/?format=json").json()["rows"]
    assert next(r for r in rows if r["slug"] == results.slug)["ranked"] is True


def test_a_profile_with_too_few_games_says_so_and_still_draws_what_exists(client, results):
    body = client.get(f"/agents/{results.slug}/").content.decode()
    assert "2 rated games — too few to rank" in body
    assert 'data-plotly="radar-chart"' in body
    chart = json.loads(re.search(r'<script id="radar-chart" type="application/json">(.*?)</script>', body)[1])
    assert chart["data"][0]["type"] == "bar"
    assert chart["data"][0]["x"] == ["tic-tac-toe"]
    assert chart["data"][0]["y"] == [1.0]
    assert "a radar needs three games and Newcomer has played 1" in body
    assert "tic-tac-toe n = 2" in body
    ranked = client.get("/agents/tic-tac-toe-lv4/").content.decode()
    assert re.search(r"rank 1(–\d)?, n = 24", ranked)


def test_every_acronym_in_a_heading_links_to_its_glossary_entry(client, results):
    glossary = client.get("/glossary/").content.decode()
    for term in TERMS:
        assert f'id="{term.anchor}"' in glossary
    report = client.get("/reports/advgamebench/").content.decode()
    for short in ("WR", "ORR", "CSR", "OBR", "RVR", "FMA"):
        assert f'<a class="term" href="/glossary/#{short.lower()}"><abbr title="' in report, short
    board = client.get("/leaderboard/").content.decode()
    pwer = '<a class="term" href="/glossary/#pwer"><abbr title="performance-weighted Elo rating">PWER</abbr></a>'
    assert pwer in board


def test_a_correlation_on_few_agents_carries_its_n_and_is_marked_thin():
    def agent(orr: float, wr: float) -> list[Cell]:
        values = {"ORR": orr, "WR": wr, "CSR": None, "β (improvement slope)": None, "OBR": 1 - orr}
        return [Cell(values.get(heading), n=10, matches=(1,)) for heading, _, _ in TABLE_1]

    overall = {f"a{i}": agent(i / 10, 1 - i / 10) for i in range(10)}  # a perfect negative line, 10 agents
    table = correlation_table(overall)
    _, (r, p) = next(row for row in table.rows if row[0].startswith("ORR ~ WR"))
    assert r.value == pytest.approx(-1.0)
    assert (r.n, r.note, p.note) == (10, "thin: 10 agents, fewer than 20", "thin: 10 agents, fewer than 20")
    assert "marked thin" in table.note


def test_the_head_to_head_heatmap_prints_each_cells_count(client, results):
    body = client.get("/analysis/?game=tic-tac-toe").content.decode()
    chart = json.loads(re.search(r'<script id="h2h-chart" type="application/json">(.*?)</script>', body)[1])
    (trace,) = chart["data"]
    assert trace["texttemplate"] == "%{text}"  # drawn in the cell, not only on hover
    i, j = trace["y"].index("tic-tac-toe-lv4"), trace["x"].index("tic-tac-toe-lv0")
    assert trace["text"][i][j].endswith("(n = 12)")
