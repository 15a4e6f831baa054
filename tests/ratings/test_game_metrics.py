"""STAR's error rates and DSGBench's Werewolf measures, from real bot matches and a hand-made record."""

from __future__ import annotations

import numpy as np
import pytest
from asgiref.sync import async_to_sync

from arena.agents.base import AttemptData
from arena.record.agents import bots_ensure
from arena.record.services import attempt_record_rejected, match_create
from arena.runner.loop import run_match
from ratings.maths.leaderboard import Matches, compute
from ratings.record.game_metrics import star_error_rates, star_performance, werewolf_social

pytestmark = pytest.mark.django_db


def test_star_error_rates_count_rejected_and_failed_commands():
    bots = {a.slug: a for a in bots_ensure(game="skirmish")}
    match = match_create(game="skirmish", agents=[bots["skirmish-lv1"], bots["skirmish-lv0"]], seed=2)
    match = async_to_sync(run_match)(match.pk)
    # Two rejected commands by seat 0 at ply 0: an off-map move (spatial) and an unreadable one (not spatial).
    for text in ("move U1 to z99", "retreat!"):
        attempt_record_rejected(match=match, ply=0, seat=0, attempt=AttemptData(verdict="illegal", raw_text=text))
    rows = {r["agent"]: r for r in star_error_rates()}
    lv1 = rows["skirmish-lv1"]
    decisions = match.decisions.filter(seat=0).count()
    # Fog halts (the engine's "spatial" count) are failed commands but not spatial errors: only the off-map one is.
    failed, spatial = match.state["failed"][0] + 2, 1
    # STAR Table 3: TCE = failed / commands, SAE = spatial / failed (not / commands), actions per game.
    assert lv1["commands"] == decisions + 2
    assert lv1["actions_per_game"] == decisions + 2  # one game
    assert lv1["failed"]["n"] == decisions + 2
    assert lv1["failed"]["value"] == pytest.approx(failed / (decisions + 2))
    assert lv1["spatial"]["n"] == failed
    assert lv1["spatial"]["value"] == pytest.approx(spatial / failed)
    assert lv1["halts"] == match.state["spatial"][0]


def test_star_performance_by_hand():
    # Red (side 0) won with 3 of its 5 units left at turn 4 of 12: U = 3/5, T = 1 − 4/12.
    # Units are (uid, side, kind, col, row, count, mp, ap); only living units are in the state.
    units = [[1, 0, "infantry", 0, 0, 50, 4, 2], [3, 0, "cavalry", 1, 0, 90, 8, 2], [4, 0, "archer", 2, 0, 5, 4, 2]]
    state = {"winner": 0, "units": units, "mode": "turn-based", "turn": 4, "max_turns": 12, "clock": 0}
    assert star_performance(state) == (3, 5, 4, 12)
    # Real time: game time is the clock, 50 ticks of 12 rounds × 2 windows × 10 ticks = 240.
    realtime = {**state, "mode": "real-time", "clock": 50, "window_ticks": 10}
    assert star_performance(realtime) == (3, 5, 50, 240)
    assert star_performance({**state, "winner": 2}) is None  # a draw: M = 1


def test_leaderboard_pwer_uses_units_and_game_time():
    # One skirmish match, A (index 0) beats B keeping 3/5 units at turn 4 of 12:
    # M = 1 + 0.5·0.6 + 0.5·(1 − 4/12) = 1.6333, Δ = 32·1.6333·(1 − 0.5) = 26.1333 → PWER A 1026.1, B 973.9;
    # SER (M = 1): Δ = 16 → A 1016, B 984; one match, so every order gives the same Elo: spread 0.
    one = np.ones(1)
    matches = Matches(
        first=np.array([0]),
        second=np.array([1]),
        score_first=one,
        weight=one,
        first_mover=one,
        match=np.array([7]),
        game=np.array(["skirmish"], dtype=object),
        winner_surviving=3 * one,
        winner_total=5 * one,
        game_time=4 * one,
        game_time_max=12 * one,
    )
    result = compute(matches, n_agents=2, anchors=[1], rounds=20)
    assert result["pwer"] == [1026.1, 973.9]
    assert result["elo"] == [1016.0, 984.0]
    assert result["elo_spread"] == [0.0, 0.0]


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

    from ratings.record.services import snapshot_refresh

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


def test_star_error_rates_rows_by_given_keys_and_fog_halts_are_not_spatial():
    bots = {a.slug: a for a in bots_ensure(game="skirmish")}
    match = match_create(game="skirmish", agents=[bots["skirmish-lv1"], bots["skirmish-lv0"]], seed=2)
    match = async_to_sync(run_match)(match.pk)
    keys = {match.pk: {0: "lv1 · turn-based"}}  # seat 1 has no key: left out
    (row,) = star_error_rates(labels=keys)
    assert (row["agent"], row["games"], row["matches"]) == ("lv1 · turn-based", 1, [match.pk])
    assert row["halts"] == match.state["spatial"][0] > 0  # this game has fog halts
    # Bots send no rejected command: whatever their fog halts, none of their failures is spatial.
    assert row["spatial"]["value"] in (0.0, None)


def test_the_analysis_pages_correlations_count_models_only():
    from django.test import override_settings

    from ratings.record.services import snapshot_refresh

    bots = {a.slug: a for a in bots_ensure(game="battle-card")}
    match = match_create(game="battle-card", agents=[bots["battle-card-lv2"], bots["battle-card-lv0"]], seed=4)
    async_to_sync(run_match)(match.pk)
    with override_settings(ARENA_BOOTSTRAP_ROUNDS=20):
        data = snapshot_refresh(game="").data
    assert len(data["process"]) == 2  # both bots have process metrics …
    assert {c["n"] for c in data["correlations"]} == {0}  # … but no model: no agent counted in any correlation
