"""STAR's error rates and DSGBench's Werewolf measures, from real bot matches and a hand-made record."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync

from arena.agents.base import AttemptData
from arena.record.services import attempt_record_rejected, bots_ensure, match_create
from arena.runner.loop import run_match
from ratings.game_metrics import star_error_rates, werewolf_social

pytestmark = pytest.mark.django_db


def test_star_error_rates_count_rejected_and_failed_commands():
    bots = {a.slug: a for a in bots_ensure(game="skirmish")}
    match = match_create(game="skirmish", agents=[bots["skirmish-lv1"], bots["skirmish-lv0"]], seed=2)
    match = async_to_sync(run_match)(match.pk)
    # A person-like rejected command by seat 0 at ply 0: moving into water is a spatial mistake.
    attempt_record_rejected(
        match=match, ply=0, seat=0, attempt=AttemptData(verdict="illegal", raw_text="move U1 to z99")
    )
    rows = {r["agent"]: r for r in star_error_rates()}
    lv1 = rows["skirmish-lv1"]
    decisions = match.decisions.filter(seat=0).count()
    assert lv1["commands"] == decisions + 1
    assert lv1["failed"]["n"] == decisions + 1
    failed_in_state = match.state["failed"][0]
    assert lv1["failed"]["value"] == pytest.approx((failed_in_state + 1) / (decisions + 1))
    assert lv1["spatial"]["value"] * lv1["commands"] >= 1  # the off-map move counts as spatial


def test_werewolf_measures_from_the_final_state():
    bots = {a.slug: a for a in bots_ensure(game="werewolf")}
    match = match_create(game="werewolf", agents=[bots["werewolf-lv1"]] * 8, seed=5)
    match = async_to_sync(run_match)(match.pk)
    roles, events = match.state["roles"], match.state["events"]
    village_votes = [e for e in events if e[0] == "vote" and e[3] >= 0 and roles[e[2]] != "werewolf"]
    on_wolves = sum(1 for e in village_votes if roles[e[3]] == "werewolf")
    (row,) = werewolf_social()
    assert row["agent"] == "werewolf-lv1"
    if village_votes:
        assert row["irp"]["n"] == len(village_votes)
        assert row["irp"]["value"] == pytest.approx(on_wolves / len(village_votes))
    key_alive = sum(1 for seat, role in enumerate(roles) if role in ("seer", "werewolf") and match.state["alive"][seat])
    assert row["ksr"]["n"] == 3  # one seer and two werewolves
    assert row["ksr"]["value"] == pytest.approx(key_alive / 3)


def test_plan_game_matches_feed_the_process_metrics_and_the_radar():
    from django.test import override_settings

    from ratings.services import snapshot_refresh

    bots = {a.slug: a for a in bots_ensure(game="battle-card")}
    match = match_create(game="battle-card", agents=[bots["battle-card-lv2"], bots["battle-card-lv0"]], seed=4)
    match = async_to_sync(run_match)(match.pk)
    decisions = match.decisions.order_by("ply")
    assert decisions.filter(round=2).exists()  # the record carries the revision round
    assert decisions.filter(revised__isnull=False).exists()
    with override_settings(ARENA_BOOTSTRAP_ROUNDS=20):
        data = snapshot_refresh(game="").data
    process = {row["agent"]: row for row in data["process"]}
    assert set(process) == {"battle-card-lv2", "battle-card-lv0"}
    # One record per leg the agent played: every leg of every round (two legs a round, roles swapped).
    assert process["battle-card-lv2"]["rounds"] == len(match.state["legs"])
    wr = process["battle-card-lv2"]["metrics"]["WR"]
    assert 0 <= wr["low"] <= (wr["value"] or 0) <= wr["high"] <= 1
    assert len(data["radar"]["battle-card-lv2"]) == 5
