"""A study's baseline where baselines appear: paper reports and the profile radar name the study and its n, and
leave excluded participants (and everyone outside the study) out."""

from __future__ import annotations

import io
import json
import re

import pytest
from asgiref.sync import async_to_sync
from django.core.management import call_command
from django.test import Client, override_settings

from arena.models import Agent, Match, Seat
from arena.record.agents import bots_ensure
from arena.record.services import match_create
from arena.runner.loop import run_match
from arena.studies.models import Study
from ratings.record.services import snapshot_refresh
from tests.arena.test_studies import join, play_next, staff, study  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


def consenting_person_loses_at_tic_tac_toe() -> Match:
    """A person outside any study who agreed to baseline use, seated on the losing side of a finished match."""
    bots = {a.slug: a for a in bots_ensure(game="tic-tac-toe")}
    person = Agent.objects.create(slug="someone", name="Someone", kind=Agent.Kind.HUMAN, baseline_consent=True)
    version = person.versions.create(number=1, config={})
    for seed in range(1, 20):
        match = match_create(game="tic-tac-toe", agents=[bots["tic-tac-toe-lv3"], bots["tic-tac-toe-lv0"]], seed=seed)
        match = async_to_sync(run_match)(match.pk)
        if match.scores == [1.0, 0.0]:
            Seat.objects.filter(match=match, index=1).update(agent_version=version)
            return match
    raise AssertionError("Lv3 never beat Lv0 in 19 games")


def average_scores(report: dict) -> dict[str, tuple[float, int]]:
    """GameBench Table 2's human-baseline row: per column, (average score, n)."""
    table = next(t for t in report["tables"] if t["key"] == "table-2")
    row = next(r for r in table["rows"] if r["label"] == "human-baseline")
    return {column: (cell["value"], cell["n"]) for column, cell in zip(table["columns"], row["cells"], strict=True)}


@override_settings(ARENA_BOOTSTRAP_ROUNDS=20)
def test_a_report_uses_a_chosen_studys_baseline_with_its_name_and_n(study, staff):  # noqa: F811
    first, second = Client(), Client()
    join(first, "a")
    two = join(second, "b")
    # First participant: tic-tac-toe then connect-four, both won; second: connect-four lost, tic-tac-toe won.
    for client, wins in ((first, True), (first, True), (second, False), (second, True)):
        play_next(client, person_wins=wins)
    outsider = consenting_person_loses_at_tic_tac_toe()

    pooled = staff.get("/reports/gamebench/?format=json").json()
    assert pooled["human_baseline"]["text"] == "Human baseline: pooled human play"
    assert pooled["human_baseline"]["study"] is None
    assert average_scores(pooled) == {"tic-tac-toe": (0.0, 1)}  # only the consenting outsider: one loss

    chosen = staff.get("/reports/gamebench/?format=json&study=two-games").json()
    assert chosen["filters"] == {"study": "two-games"}
    assert chosen["human_baseline"]["text"] == "Human baseline: Two games (n = 2 participants)"
    # Study only (the outsider's match is left out): tic-tac-toe 2 wins of 2; connect-four 1 of 2; no overall, which
    # pools GameBench's nine games only.
    assert average_scores(chosen) == {"connect-four": (0.5, 2), "tic-tac-toe": (1.0, 2)}
    table = next(t for t in chosen["tables"] if t["key"] == "table-2")
    ids = {m for r in table["rows"] for c in r["cells"] if isinstance(c, dict) for m in c["matches"]}
    assert outsider.pk not in ids

    page = staff.get("/reports/gamebench/?study=two-games").content.decode()
    assert re.search(r'id="report-baseline">Human baseline: Two games \(n = 2 participants\)', page)
    assert '<option value="two-games" selected>Two games</option>' in page
    assert "study=two-games" in page  # the downloads and cell links keep the choice
    markdown = staff.get("/reports/gamebench/?format=md&study=two-games").content.decode()
    assert "Human baseline: Two games (n = 2 participants)." in markdown
    out = io.StringIO()
    call_command("report", "gamebench", "--format", "md", "--study", "two-games", stdout=out)
    assert out.getvalue() == markdown

    # Excluding the second participant leaves them out at once: one participant, two wins.
    staff.post(f"/studies/two-games/participants/{two.code}/exclude/", {"reason": "played on a phone"})
    after = staff.get("/reports/gamebench/?format=json&study=two-games").json()
    assert after["human_baseline"]["text"] == "Human baseline: Two games (n = 1 participant)"
    assert average_scores(after) == {"connect-four": (1.0, 1), "tic-tac-toe": (1.0, 1)}
    for slug in ("advgamebench", "star", "dsgbench", "botzonebench"):  # every report page offers the choice
        html = staff.get(f"/reports/{slug}/?study=two-games").content.decode()
        assert 'id="report-baseline">Human baseline: Two games' in html


def test_only_published_studies_are_offered_to_visitors(study):  # noqa: F811
    visitor = Client()
    assert visitor.get("/reports/gamebench/?study=two-games").status_code == 400
    assert 'name="study"' not in visitor.get("/reports/gamebench/").content.decode()
    Study.objects.filter(pk=study.pk).update(publish_baseline=True)
    page = visitor.get("/reports/gamebench/?study=two-games").content.decode()
    assert "Human baseline: Two games (n = 0 participants)" in page
    assert visitor.get("/reports/gamebench/?study=nobody").status_code == 400


def profile_series(client: Client, url: str) -> dict[str, list]:
    """The profile's per-game chart (radar, or bars under three games): series name → values."""
    html = client.get(url).content.decode()
    figure = json.loads(re.search(r'<script id="radar-chart" type="application/json">(.*?)</script>', html, re.S)[1])
    return {trace["name"]: trace.get("y", trace.get("r")) for trace in figure["data"]}


def test_the_profile_chart_shows_a_chosen_studys_baseline_beside_the_pooled_one(study, staff):  # noqa: F811
    first, second = Client(), Client()
    join(first, "a")
    two = join(second, "b")
    # Tic-tac-toe against Lv0: the first participant wins, the second loses (connect-four is not Lv0's game).
    for client, wins in ((first, True), (first, True), (second, True), (second, False)):
        play_next(client, person_wins=wins)
    url = "/agents/tic-tac-toe-lv0/"
    assert "Two games" in staff.get(url).content.decode()  # offered as a comparison
    assert list(profile_series(staff, url)) == ["Tic-tac-toe Lv0"]
    series = profile_series(staff, f"{url}?study=two-games")
    assert series["Tic-tac-toe Lv0"] == [0.5]  # one win, one loss
    assert series["Human baseline (Two games, n = 2)"] == [0.5]
    staff.post(f"/studies/two-games/participants/{two.code}/exclude/", {"reason": "played on a phone"})
    series = profile_series(staff, f"{url}?study=two-games")
    assert series["Human baseline (Two games, n = 1)"] == [1.0]  # the excluded participant's loss is left out
    visitor = Client()  # an unpublished study is neither offered nor drawn for visitors
    assert "Two games" not in visitor.get(url).content.decode()
    assert list(profile_series(visitor, f"{url}?study=two-games")) == ["Tic-tac-toe Lv0"]


@override_settings(ARENA_BOOTSTRAP_ROUNDS=20)
def test_the_leaderboards_study_row_leaves_an_excluded_participant_out_at_once(study, staff):  # noqa: F811
    first, second = Client(), Client()
    join(first, "a")
    two = join(second, "b")
    for client, wins in ((first, True), (second, False), (second, False)):
        play_next(client, person_wins=wins)
    snapshot_refresh(game="tic-tac-toe")
    url = "/leaderboard/tic-tac-toe/?study=two-games&format=json"
    before = staff.get(url).json()["study_baseline"]
    assert (before["name"], before["participants"], before["matches"]) == ("Human baseline (Two games)", 2, 2)
    staff.post(f"/studies/two-games/participants/{two.code}/exclude/", {"reason": "played on a phone"})
    after = staff.get(url).json()["study_baseline"]  # not the cached row of two participants
    assert (after["participants"], after["matches"], after["unbounded"]) == (1, 1, True)  # one win, no loss
