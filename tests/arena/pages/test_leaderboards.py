"""Leaderboard and analysis pages read snapshots; downloads carry the same rows; people and baselines appear."""

from __future__ import annotations

import csv
import io
import json

import pytest
from asgiref.sync import async_to_sync

from arena.models import Agent
from arena.record.agents import agent_create, bots_ensure
from arena.record.people import guest_agent_create, person_consent_set
from arena.record.services import decision_record, match_create
from arena.record.turns import match_claim
from arena.tournaments.run import run_tournament
from arena.tournaments.services import tournament_create
from ratings.record.models import RatingSnapshot
from ratings.record.services import snapshot_refresh

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_bootstrap")]


@pytest.fixture
def results(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return _play()


def _play():
    bots = {a.slug: a for a in bots_ensure(game="tic-tac-toe")}
    agents = [bots["tic-tac-toe-lv0"], bots["tic-tac-toe-lv2"], bots["tic-tac-toe-lv4"]]
    tournament = tournament_create(
        slug="t", name="t", format="round_robin", games=["tic-tac-toe"], agents=agents, games_per_seat=6, first_seed=0
    )
    async_to_sync(run_tournament)(tournament.pk)
    person = guest_agent_create(nickname="Pia <b>")
    person_consent_set(agent=person, consent=True)
    for seed in range(3):  # the person beats Lv0 three times with the top row
        match = match_claim(
            match_id=match_create(game="tic-tac-toe", agents=[person, agents[0]], seed=seed).pk, worker="w"
        ).match
        for ply, cell in enumerate([0, 3, 1, 4, 2]):
            match = decision_record(match=match, ply=ply, action=cell)
    return bots


def test_finished_matches_queue_a_refresh_and_the_page_shows_the_snapshot(client, results):
    assert RatingSnapshot.objects.filter(game="", stale=True).exists()  # queued by the finishing matches
    snapshot_refresh(game="")
    body = client.get("/leaderboard/").content.decode()
    assert "Computing" not in body
    order = [body.index(f"Tic-tac-toe Lv{n}") for n in (4, 2, 0)]
    assert order == sorted(order), "stronger bots are listed first"
    assert "Human baseline" in body
    # One consenting person is not a population: the pooled row shows no rating, and the chart leaves it out.
    assert "thin data — unrated" in body
    assert client.get("/leaderboard/?format=json").json()["human_baseline"]["thin"] is True
    chart = json.loads(body.split('<script id="leaderboard-chart" type="application/json">')[1].split("</script>")[0])
    assert "Human baseline" not in json.dumps(chart)
    assert "Pia &lt;b&gt;" in body
    assert "Pia <b>" not in body
    assert 'data-plotly="leaderboard-chart"' in body
    # A name changed after the fit (a guest signing up takes the account's name) shows at once.
    Agent.objects.filter(name="Pia <b>").update(name="pia_signed_up")
    body = client.get("/leaderboard/").content.decode()
    assert "pia_signed_up" in body
    assert "Pia &lt;b&gt;" not in body.split("<table", 1)[1].split("</table>", 1)[0]


def test_a_missing_scope_is_computed_in_the_background_not_per_request(client, results):
    body = client.get("/leaderboard/tic-tac-toe/?since=2020-01-01").content.decode()
    assert "Computing this leaderboard" in body
    assert 'hx-trigger="every 3s"' in body
    snapshot = RatingSnapshot.objects.get(game="tic-tac-toe", filters="since=2020-01-01")
    assert snapshot.stale
    assert snapshot.data == {}
    snapshot_refresh(game="tic-tac-toe", filters={"since": "2020-01-01"})
    body = client.get("/leaderboard/tic-tac-toe/?since=2020-01-01").content.decode()
    assert "Tic-tac-toe Lv4" in body


def test_downloads_and_filters(client, results):
    snapshot_refresh(game="")
    rows = list(csv.DictReader(io.StringIO(client.get("/leaderboard/?format=csv").content.decode())))
    slugs = [r["slug"] for r in rows]
    assert slugs[:3] == ["tic-tac-toe-lv4", "tic-tac-toe-lv2", "tic-tac-toe-lv0"] or "tic-tac-toe-lv4" in slugs[:2]
    assert "human-baseline" in slugs
    anchored = next(r for r in rows if r["slug"] == "tic-tac-toe-lv0")
    assert float(anchored["rating"]) == pytest.approx(1000.0)
    data = client.get("/leaderboard/?format=json&kind=bot").json()
    assert {r["kind"] for r in data["rows"]} == {"bot"}
    assert data["human_baseline"] is None
    assert Agent.objects.filter(kind="human").count() == 1


def test_analysis_page_first_mover_and_head_to_head(client, results):
    snapshot_refresh(game="")
    data = client.get("/analysis/?format=json&game=tic-tac-toe").json()
    overall = next(r for r in data["first_mover"] if r["game"] == "tic-tac-toe" and r["pairing"] == "all")
    assert overall["n"] == 3 * 12 + 3
    assert 0 <= overall["win_low"] <= overall["win"] <= overall["win_high"] <= 1
    h2h = data["head_to_head"]
    i, j = h2h["labels"].index("tic-tac-toe-lv4"), h2h["labels"].index("tic-tac-toe-lv0")
    assert h2h["counts"][i][j] == 12
    assert h2h["fractions"][i][j] > 0.9
    assert h2h["fractions"][i][j] + h2h["fractions"][j][i] == pytest.approx(1.0)
    body = client.get("/analysis/").content.decode()
    assert 'data-plotly="first-mover-chart"' in body
    assert 'data-plotly="h2h-chart"' in body


def test_people_get_a_per_game_openskill_rating_that_follows_their_results(client, results):
    snapshot = snapshot_refresh(game="tic-tac-toe")
    (person,) = snapshot.data["people"]
    assert person["matches"] == 3
    assert person["history"] == sorted(person["history"])  # three wins in a row: only up
    assert person["mu"] > 25  # openskill starts at 25
    assert "People on this game" in client.get("/leaderboard/tic-tac-toe/").content.decode()


def test_sorting_by_a_column(client, results):
    snapshot_refresh(game="")
    ascending = [r["slug"] for r in client.get("/leaderboard/?format=json&sort=-win_rate").json()["rows"]]
    descending = [r["slug"] for r in client.get("/leaderboard/?format=json&sort=win_rate").json()["rows"]]
    assert ascending[0] == "tic-tac-toe-lv0"
    assert descending[-1] == "tic-tac-toe-lv0"
    assert 'aria-sort="descending"' in client.get("/leaderboard/?sort=elo").content.decode()


def test_analysis_tables_download_as_csv(client, results):
    rows = list(csv.DictReader(io.StringIO(client.get("/analysis/?format=csv&table=first-mover").content.decode())))
    assert {"game", "pairing", "n", "win", "win_low", "win_high"} <= set(rows[0])
    matrix = client.get("/analysis/?format=csv&table=head-to-head&game=tic-tac-toe").content.decode()
    assert matrix.splitlines()[0].startswith("agent,")
    assert client.get("/analysis/?format=csv&table=nonsense").status_code == 400


def test_the_human_baseline_carries_percentile_bands_of_individual_people(client, results):
    lv0 = Agent.objects.get(slug="tic-tac-toe-lv0")
    for n in range(4):  # four more consenting people; person n wins n + 1 times and loses once to Lv0
        person = guest_agent_create(nickname=f"P{n}")
        person_consent_set(agent=person, consent=True)
        for seed, seats in enumerate([[person, lv0]] * (n + 1) + [[lv0, person]]):
            match = match_claim(match_id=match_create(game="tic-tac-toe", agents=seats, seed=seed).pk, worker="w").match
            for ply, cell in enumerate([0, 3, 1, 4, 2]):  # the first seat takes the top row
                match = decision_record(match=match, ply=ply, action=cell)
    snapshot_refresh(game="tic-tac-toe")
    data = client.get("/leaderboard/tic-tac-toe/?format=json").json()
    bands = data["human_baseline"]["percentiles"]
    people = sorted(r["rating"] for r in data["rows"] if r["kind"] == "human")
    assert bands["people"] == len(people) == 5
    assert bands["p10"] < bands["p25"] < bands["p50"] < bands["p75"] < bands["p90"]
    assert bands["p50"] == pytest.approx(people[2])  # the middle one of five
    body = client.get("/leaderboard/tic-tac-toe/").content.decode()
    assert f"individuals P25–P75 {bands['p25']:.0f}–{bands['p75']:.0f}" in body
    chart = json.loads(body.split('<script id="leaderboard-chart" type="application/json">')[1].split("</script>")[0])
    outer = chart["layout"]["shapes"][0]
    assert (outer["name"], outer["x0"], outer["x1"]) == ("people P10–P90 (n = 5)", bands["p10"], bands["p90"])


def test_every_agent_kind_is_filterable_and_paired_on_the_leaderboard_and_analysis(client, results):
    program = agent_create(slug="prog", name="Prog", kind="program", config={"command": "/bin/true"})
    for seed in range(2):  # the program's recorded moves win the top row against Lv0
        match = match_claim(
            match_id=match_create(game="tic-tac-toe", agents=[program, results["tic-tac-toe-lv0"]], seed=seed).pk,
            worker="w",
        ).match
        for ply, cell in enumerate([0, 3, 1, 4, 2]):
            match = decision_record(match=match, ply=ply, action=cell)
    snapshot_refresh(game="")
    data = client.get("/leaderboard/?format=json&kind=program").json()
    assert [r["slug"] for r in data["rows"]] == ["prog"]
    body = client.get("/leaderboard/").content.decode()
    for kind in ("llm", "bot", "human", "program", "uci", "remote"):
        assert f'name="kind" value="{kind}" checked' in body
    pairings = client.get("/analysis/?format=json&game=tic-tac-toe").json()["first_mover"]
    ours = next(r for r in pairings if r["game"] == "tic-tac-toe" and r["pairing"] == "program vs bot")
    assert ours["n"] == 2
    assert ours["win"] == 1.0
