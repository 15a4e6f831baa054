"""Tournament schedules, ladder evaluation on bots of known strength, and the CLI."""

from __future__ import annotations

import json
from collections import Counter
from io import StringIO

import pytest
from asgiref.sync import async_to_sync
from django.core.management import call_command
from django.core.management.base import CommandError

from arena.models import Match, Tournament
from arena.record.agents import agent_create
from arena.record.people import guest_agent_create
from arena.record.selectors import tournament_progress
from arena.record.services import ServiceError
from arena.tournaments.run import run_tournament
from arena.tournaments.services import tournament_cancel, tournament_create

# Transactional: tournaments advance in on-commit callbacks, as they do in production.
pytestmark = pytest.mark.django_db(transaction=True)


def test_round_robin_plays_every_seed_in_both_seat_orders(ttt_bots):
    agents = [ttt_bots[f"tic-tac-toe-lv{n}"] for n in (0, 1, 2)]
    tournament = tournament_create(
        slug="rr", name="RR", format="round_robin", games=["tic-tac-toe"], agents=agents, games_per_seat=3
    )
    matches = list(tournament.matches.prefetch_related("seats__agent_version__agent"))
    assert len(matches) == 3 * 3 * 2  # pairs × seeds × seat orders
    orders = Counter()
    for match in matches:
        slugs = tuple(s.agent_version.agent.slug for s in match.seats.all())
        orders[slugs] += 1
        if match.duplicate_of_id:
            twin = match.duplicate_of
            assert twin.seed == match.seed
            assert [s.agent_version_id for s in twin.seats.all()] == [
                s.agent_version_id for s in reversed(match.seats.all())
            ]
    assert len(orders) == 6
    assert set(orders.values()) == {3}
    assert sum(1 for m in matches if m.duplicate_of_id) == 9


def _ladder(ttt_bots, candidate: str, slug: str, first_seed: int) -> dict:
    tournament = tournament_create(
        slug=slug,
        name=slug,
        format="ladder",
        games=["tic-tac-toe"],
        agents=[ttt_bots[candidate]],
        games_per_seat=8,
        first_seed=first_seed,
    )
    async_to_sync(run_tournament)(tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return tournament_progress(tournament)


def test_ladder_evaluation_tops_out_with_perfect_play(ttt_bots):
    # Fixed seeds: perfect play never loses, but Lv3 plays perfectly 70% of the time, so on some sets of random
    # seeds all 16 games against it are drawn, and a level with no decisive game is not passed.
    progress = _ladder(ttt_bots, "tic-tac-toe-lv4", "perfect", first_seed=1)
    (standing,) = progress["standings"]
    assert standing["topped"] is True
    assert standing["summary"] == "Lv5, topped"
    # Every level was played, bottom-up, 16 games each.
    assert progress["done"] == progress["total"] == 5 * 16


def test_ladder_evaluation_stops_at_the_first_level_not_beaten(ttt_bots):
    # Fixed seeds: a random player rarely gets past the win-only bot (Lv1), but on some sets of random seeds it
    # does, and stops a level later.
    progress = _ladder(ttt_bots, "tic-tac-toe-lv0", "random", first_seed=1)
    (standing,) = progress["standings"]
    assert not standing["topped"]
    assert standing["level"] <= 1
    assert progress["total"] == (standing["level"] + 1) * 16
    if standing["progress"] is not None:
        assert 0 <= standing["progress"] < 1


def test_cancel_aborts_pending_matches(ttt_bots):
    tournament = tournament_create(
        slug="c",
        name="c",
        format="round_robin",
        games=["tic-tac-toe"],
        agents=[ttt_bots["tic-tac-toe-lv0"], ttt_bots["tic-tac-toe-lv1"]],
        games_per_seat=2,
    )
    tournament_cancel(tournament=tournament)
    assert set(tournament.matches.values_list("status", flat=True)) == {Match.Status.ABORTED}
    assert tournament_progress(tournament)["aborted"] == 4


def _call(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_cli_play_match_json(ttt_bots):
    data = json.loads(
        _call(
            "play_match",
            "--game",
            "tic-tac-toe",
            "--agents",
            "tic-tac-toe-lv4",
            "tic-tac-toe-lv3",
            "--seed",
            "7",
            "--json",
        )
    )
    assert set(data) >= {"match_id", "game", "seed", "agents", "scores", "termination", "decisions"}
    assert data["seed"] == 7
    assert data["agents"] == ["tic-tac-toe-lv4", "tic-tac-toe-lv3"]
    assert sum(data["scores"]) == 1.0
    assert data["decisions"] == Match.objects.get(pk=data["match_id"]).decisions.count()
    with pytest.raises(CommandError, match="Unknown agent"):
        _call("play_match", "--game", "tic-tac-toe", "--agents", "nobody", "tic-tac-toe-lv0")


def test_cli_tournament_lifecycle(ttt_bots):
    _call(
        "tournament",
        "create",
        "--slug",
        "cli",
        "--format",
        "round_robin",
        "--games",
        "tic-tac-toe",
        "--agents",
        "tic-tac-toe-lv4",
        "tic-tac-toe-lv0",
        "--games-per-seat",
        "2",
        "--first-seed",
        "0",
    )
    status = json.loads(_call("tournament", "status", "cli", "--json"))
    assert (status["total"], status["done"], status["pending"]) == (4, 0, 4)
    assert status["fixed_seeds"] is True  # asked for, to reproduce the points below
    result = json.loads(_call("tournament", "run", "cli", "--json"))
    assert (result["done"], result["status"]) == (4, "finished")
    points = {row["agent"]: row["points"] for row in result["standings"]}
    assert points["tic-tac-toe-lv4"] >= 2 + points["tic-tac-toe-lv0"]


def _seeds(tournament: Tournament) -> list[int]:
    return list(tournament.matches.order_by("pk").values_list("seed", flat=True))


def test_seeds_are_random_and_large_unless_fixed_ones_are_asked_for(ttt_bots, client):
    agents = [ttt_bots["tic-tac-toe-lv1"], ttt_bots["tic-tac-toe-lv0"]]
    common = {"name": "t", "format": "round_robin", "games": ["tic-tac-toe"], "agents": agents, "games_per_seat": 3}
    first, second = (tournament_create(slug=slug, **common) for slug in ("r1", "r2"))
    for tournament in (first, second):
        seeds = _seeds(tournament)
        assert len(set(seeds)) == 3  # three seeds, each played from both seats
        assert min(seeds) >= 2**31  # drawn from 2**53: no small seed to match one's cards against
        assert not tournament.fixed_seeds
        assert not any("fixed_seeds" in m.record for m in tournament.matches.all())
    assert not set(_seeds(first)) & set(_seeds(second))
    assert "Fixed seeds" not in client.get(f"/tournaments/{first.slug}/").content.decode()

    fixed = tournament_create(slug="fixed", first_seed=40, **common)
    assert sorted(set(_seeds(fixed))) == [40, 41, 42]
    assert fixed.fixed_seeds
    assert tournament_progress(fixed)["fixed_seeds"] is True
    assert all(m.record["fixed_seeds"] is True for m in fixed.matches.all())  # in the dataset with each match
    assert "Fixed seeds:" in client.get(f"/tournaments/{fixed.slug}/").content.decode()
    assert client.get(f"/api/v1/tournaments/{fixed.slug}").json()["fixed_seeds"] is True


def test_fixed_seeds_are_refused_to_people_and_outside_agents(ttt_bots):
    person = guest_agent_create(nickname="Peeker")
    with pytest.raises(ServiceError, match="fresh seeds"):
        tournament_create(slug="peek", name="p", format="ladder", games=["tic-tac-toe"], agents=[person], first_seed=0)
    assert not Tournament.objects.filter(slug="peek").exists()
    with pytest.raises(ServiceError, match="whole number from 0"):
        tournament_create(
            slug="big",
            name="b",
            format="ladder",
            games=["tic-tac-toe"],
            agents=[ttt_bots["tic-tac-toe-lv1"]],
            first_seed=2**63,
        )


def test_an_outside_agent_plays_no_duplicate_twins(ttt_bots, django_user_model):
    owner = django_user_model.objects.create_user("owner", password="pw-123456")
    outside = agent_create(slug="mine", name="Mine", kind="remote", config={"transport": "websocket"}, owner=owner)
    climb = tournament_create(
        slug="climb", name="c", format="ladder", games=["tic-tac-toe"], agents=[outside], games_per_seat=2
    )
    matches = list(climb.matches.order_by("pk"))
    assert len(matches) == 4  # level 0: two games from each seat ...
    assert all(match.duplicate_of_id is None for match in matches)  # ... none the twin of another
    assert len({match.seed for match in matches}) == 4  # so none meets a deal its other seat has seen


def test_cli_agents_add_list_show(ttt_bots):
    _call(
        "agents",
        "add",
        "--slug",
        "local-llm",
        "--kind",
        "llm",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--model",
        "m",
        "--api-key-env",
        "LOCAL_KEY",
        "--temperature",
        "0.2",
    )
    listing = json.loads(_call("agents", "list", "--kind", "llm", "--json"))
    assert listing == [{"slug": "local-llm", "name": "local-llm", "kind": "llm", "game": "any"}]
    shown = _call("agents", "show", "local-llm")
    assert '"api_key_env": "LOCAL_KEY"' in shown
    assert '"temperature": 0.2' in shown
    with pytest.raises(CommandError, match="needs --base-url"):
        _call("agents", "add", "--slug", "x", "--kind", "llm", "--model", "m")


def test_adversarial_matrix_plays_each_candidate_against_each_opponent_both_ways(ttt_bots):
    tournament = tournament_create(
        slug="adv",
        name="adv",
        format="adversarial",
        games=["tic-tac-toe"],
        agents=[ttt_bots["tic-tac-toe-lv1"], ttt_bots["tic-tac-toe-lv2"]],
        opponents=[ttt_bots["tic-tac-toe-lv0"], ttt_bots["tic-tac-toe-lv4"]],
        games_per_seat=1,
    )
    pairs = Counter(
        tuple(s.agent_version.agent.slug for s in m.seats.order_by("index")) for m in tournament.matches.all()
    )
    assert len(pairs) == 8  # 2 candidates × 2 opponents × 2 seat orders
    assert set(pairs.values()) == {1}
    assert ("tic-tac-toe-lv1", "tic-tac-toe-lv2") not in pairs  # candidates do not meet each other


def test_adaptive_tournament_adds_pairs_where_intervals_are_widest_within_budget(ttt_bots):
    agents = [ttt_bots[f"tic-tac-toe-lv{n}"] for n in (0, 1, 4)]
    tournament = tournament_create(
        slug="ada", name="ada", format="adaptive", games=["tic-tac-toe"], agents=agents, budget=16, target_width=1.0
    )
    assert tournament.matches.count() == 6  # one seat-swapped pair per pairing to start
    async_to_sync(run_tournament)(tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.matches.count() == 16  # kept adding pairs (the target is unreachable) until the budget
    extra = tournament.matches.filter(record__adaptive=True)
    assert extra.count() == 10
    assert all(m.duplicate_of_id or extra.filter(duplicate_of=m).exists() for m in extra)
