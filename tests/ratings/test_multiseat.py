"""Werewolf and Codenames reach the leaderboard, first-mover and head-to-head tables through pairwise results."""

from __future__ import annotations

import random

import pytest
from asgiref.sync import async_to_sync
from django.test import override_settings

from arena.models import Agent
from arena.record.agents import bots_ensure
from arena.record.people import person_agent_for_user
from arena.record.selectors import agent_game_records
from arena.record.services import decision_record, match_create
from arena.record.turns import match_claim
from arena.runner.loop import run_match
from games import get_game
from games.bots.werewolf import LADDER
from ratings.record.selectors import first_mover_table, head_to_head
from ratings.record.services import snapshot_compute

pytestmark = pytest.mark.django_db


def _play(game: str, slugs: list[str], seed: int):
    bots = {a.slug: a for a in bots_ensure(game=game)}
    return async_to_sync(run_match)(match_create(game=game, agents=[bots[s] for s in slugs], seed=seed).pk)


def test_codenames_two_against_two_is_rated(client):
    # Red (seats 0, 1) is Lv2 on both seats, blue (2, 3) Lv0 on both: one agent per side, one pair of weight 1.
    match = _play("codenames", ["codenames-lv2", "codenames-lv2", "codenames-lv0", "codenames-lv0"], seed=3)
    red_score = match.scores[0]
    with override_settings(ARENA_BOOTSTRAP_ROUNDS=20):
        data = snapshot_compute(game="codenames")
    rows = {r["slug"]: r for r in data["rows"]}
    assert data["matches"] == 1
    assert rows["codenames-lv2"]["matches"] == rows["codenames-lv0"]["matches"] == 1
    assert rows["codenames-lv2"]["wins"] == (red_score == 1.0)
    # One decisive match, K = 32 from 1000 each: the winner's Elo is 1016.
    winner = "codenames-lv2" if red_score == 1.0 else "codenames-lv0"
    assert rows[winner]["elo"] == 1016.0
    (fm,) = [r for r in first_mover_table() if r["game"] == "codenames" and r["pairing"] == "all"]
    assert fm["n"] == 1
    assert fm["win"] == red_score
    h2h = head_to_head("codenames")
    i, j = h2h["labels"].index("codenames-lv2"), h2h["labels"].index("codenames-lv0")
    assert h2h["counts"][i][j] == 1
    assert h2h["fractions"][i][j] == red_score
    # The profile counts the match once, though Lv2 held two seats.
    (record,) = agent_game_records(Agent.objects.get(slug="codenames-lv2"))
    assert (record["game"], record["matches"], record["wins"]) == ("codenames", 1, int(red_score == 1.0))
    assert client.get("/agents/codenames-lv2/").status_code == 200


def test_werewolf_match_counts_once_whatever_its_size():
    # The deal of seed 11 decides the wolves; Lv2 and Lv0 take one wolf seat each, Lv1 all six village seats.
    # Sides: village {Lv1}, wolves {Lv2, Lv0}: pairs Lv1–Lv2 and Lv1–Lv0, weight ½ each (the match counts once).
    roles = get_game("werewolf").initial_state(seed=11).roles
    wolves = iter(["werewolf-lv2", "werewolf-lv0"])
    slugs = [next(wolves) if role == "werewolf" else "werewolf-lv1" for role in roles]
    match = _play("werewolf", slugs, seed=11)
    village_won = match.scores[roles.index("villager")] == 1.0
    with override_settings(ARENA_BOOTSTRAP_ROUNDS=20):
        data = snapshot_compute(game="werewolf")
    assert data["matches"] == 1
    rows = {r["slug"]: r for r in data["rows"]}
    assert {slug: rows[slug]["matches"] for slug in rows} == {"werewolf-lv0": 1, "werewolf-lv1": 1, "werewolf-lv2": 1}
    # Elo from 1000 each, K·weight = 32·½ = 16 per pair, E = ½: the winner side's pair gains 8.
    # Lv2 vs Lv1 first: ±8; then Lv0 vs Lv1 (1008 or 992 against 1000): E_Lv1 = 1/(1 + 10^(∓8/400)),
    # 1/(1 + 10^(−0.02)) = 0.5115103 when Lv1 leads, so Lv1's second change is 16·(1 − 0.5115103) = 7.8158 if it
    # won again: Lv1 1015.8, Lv2 992, Lv0 992.2 (mirror image when the wolves won).
    sign = 1 if village_won else -1
    assert rows["werewolf-lv1"]["elo"] == pytest.approx(1000 + sign * 15.8, abs=0.05)
    assert rows["werewolf-lv2"]["elo"] == pytest.approx(1000 - sign * 8, abs=0.05)
    assert rows["werewolf-lv0"]["elo"] == pytest.approx(1000 - sign * 7.8, abs=0.05)
    assert rows["werewolf-lv1"]["wins"] == int(village_won)


def test_a_person_among_bots_is_rated(django_user_model):
    # The lobby's Werewolf: a person in seat 0, one bot agent in the other seven seats (so on both sides).
    person = person_agent_for_user(user=django_user_model.objects.create_user("ana", password="x"))
    bot = {a.slug: a for a in bots_ensure(game="werewolf")}["werewolf-lv2"]
    created = match_create(game="werewolf", agents=[person] + [bot] * 7, seed=2)
    match = match_claim(match_id=created.pk, worker="t").match
    game, rng = get_game("werewolf"), random.Random(1)
    while game.current_player(state := game.from_json(match.state)) is not None:  # the rule bot plays every seat
        match = decision_record(match=match, ply=match.ply, action=LADDER[2].choose(game, state, rng))
    match.refresh_from_db()
    with override_settings(ARENA_BOOTSTRAP_ROUNDS=20):
        data = snapshot_compute(game="werewolf")
    # One pair, person–bot, of weight 1: the person has a rating, a result and an openskill history.
    rows = {r["slug"]: r for r in data["rows"]}
    assert rows[person.slug]["matches"] == 1
    assert rows[person.slug]["wins"] == int(match.scores[0] == 1.0)
    assert rows[bot.slug]["matches"] == 0  # it played both sides
    (entry,) = data["people"]
    assert entry["slug"] == person.slug
    assert entry["matches"] == 1
    # Openskill starts at μ = 25: a win raises it, a loss lowers it.
    assert (entry["mu"] > 25) == (match.scores[0] == 1.0)
