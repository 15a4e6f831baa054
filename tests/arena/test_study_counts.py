"""A study's bookkeeping on the researcher's page and in the protocol export: attrition counts (joined, each status,
withdrawn) and no interval below the study's minimum n ("too few participants")."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from arena.studies.codes import withdrawal_code
from arena.studies.models import Study
from tests.arena.test_studies import join, play_next, staff, study  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


def test_no_interval_below_the_minimum_n(study, staff):  # noqa: F811
    for pid in ("a", "b"):
        client = Client()
        join(client, pid)
        play_next(client, person_wins=True)
        play_next(client, person_wins=False)
    assert study.min_n == 5  # the default

    page = staff.get("/studies/two-games/results/").content.decode()
    assert page.count("too few participants for an interval") == 3 + 2 + 2  # baselines, opponents, experience
    assert not re.search(r"\d+% \[\d+–\d+%\]", page)
    summary = staff.get("/studies/two-games/export.json").json()
    assert summary["min_n"] == 5
    assert [r["wilson_95"] for r in summary["results"]] == [None, None]
    assert {(b["too_few"], b["lower"], b["upper"]) for b in summary["baselines"]} == {(True, None, None)}
    assert all(b["rating"] is not None for b in summary["baselines"])  # the estimate itself is still shown

    Study.objects.filter(pk=study.pk).update(min_n=2)
    page = staff.get("/studies/two-games/results/").content.decode()
    assert "too few participants" not in page
    assert re.search(r"50% \[\d+–\d+%\]", page)  # each won one of two matches in each game
    summary = staff.get("/studies/two-games/export.json").json()
    assert all(r["wilson_95"] is not None for r in summary["results"])
    # One participant won and one lost each game: resampling both twice leaves a bound infinite, but it is an interval.
    assert not any(b["too_few"] for b in summary["baselines"])
    assert any(b["upper"] is not None for b in summary["baselines"])


def test_withdrawals_are_counted(study, staff):  # noqa: F811
    clients = [Client() for _ in range(3)]
    participants = [join(client, f"p{i}") for i, client in enumerate(clients)]
    play_next(clients[0], person_wins=True)
    play_next(clients[0], person_wins=True)
    clients[2].post("/studies/two-games/withdraw/", {"code": withdrawal_code(participants[2])})
    staff.post(f"/studies/two-games/participants/{participants[1].code}/exclude/", {"reason": "bot-like"})

    counts = staff.get("/studies/two-games/export.json").json()["participants"]
    assert counts == {
        "joined": 3,
        "started": 0,
        "completed": 1,
        "incomplete": 0,
        "dropped": 0,
        "excluded": 1,
        "withdrawn": 1,
    }
    page = staff.get("/studies/two-games/results/").content.decode()
    assert "joined: <strong>3</strong>" in page
    assert "withdrawn: <strong>1</strong>" in page


def test_the_slug_help_text_shows_the_placeholder(staff):  # noqa: F811
    assert "The share link is /studies/&lt;slug&gt;/." in staff.get("/studies/new/").content.decode()
