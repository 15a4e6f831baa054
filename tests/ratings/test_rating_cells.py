"""Refits read per-cell aggregates kept as matches finish: the same Bradley–Terry numbers as a fit from the matches,
and each finished match counted into its cells exactly once."""

from __future__ import annotations

import datetime as dt
import re

import numpy as np
import pytest
from asgiref.sync import async_to_sync
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from arena.models import Agent, AgentVersion, Match, Seat, Tournament
from arena.record.agents import bots_ensure
from arena.record.services import match_create
from arena.record.signals import match_finished
from arena.runner.loop import run_match
from games import get_game
from ratings.maths import bradley_terry
from ratings.maths.leaderboard import as_cells
from ratings.record.models import CountedMatch, RatingCell, RatingCount
from ratings.record.refit import scope_cells
from ratings.record.replay import _arrays, _matches, _rated
from ratings.record.services import (
    cells_add,
    cells_add_finished,
    cells_catch_up,
    snapshot_refit,
    snapshot_replay,
)
from ratings.record.tasks import refresh_on_match_finished

DAY = dt.datetime(2026, 3, 1, 12, tzinfo=dt.UTC)
#: (game, options) of the random matches: two-seat games, a variant rated apart, an eight-seat team game.
KINDS = [("tic-tac-toe", {}), ("connect-four", {}), ("chess", {}), ("chess", {"draws": "botzone"}), ("werewolf", {})]
SCOPES = [
    ("", {}),
    ("tic-tac-toe", {}),
    ("chess:botzone", {}),
    ("werewolf", {}),
    ("", {"prompt": "1"}),
    ("", {"since": "2026-03-02", "until": "2026-03-04"}),
    ("chess", {"since": "2026-03-03"}),
]


@pytest.fixture
def synthetic():
    """Matches made up for the fit (no moves): removed before the replay check every database test ends with."""
    yield
    Match.objects.filter(termination="synthetic").delete()


def _random_record(rng: np.random.Generator, matches: int) -> list[int]:
    """Finished matches between 8 agents with random games, seats, results, prompt versions and days."""
    versions = []
    for i in range(8):
        agent = Agent.objects.create(slug=f"cell-agent-{i}" if i else "tic-tac-toe-lv0", name=f"A{i}", kind="bot")
        versions.append(AgentVersion.objects.create(agent=agent, number=1, config={}))
    werewolf = get_game("werewolf")
    ids = []
    for m in range(matches):
        game, options = KINDS[rng.integers(len(KINDS))]
        finished = DAY + dt.timedelta(days=int(rng.integers(5)), hours=int(rng.integers(12)))
        if game == "werewolf":
            state = werewolf.to_json(werewolf.initial_state(seed=m))
            sides = [werewolf.team_of(werewolf.from_json(state), seat) for seat in range(8)]
            winner = int(rng.integers(2))
            scores = [1.0 if side == winner else 0.0 for side in sides]
            seats = rng.integers(0, 8, size=8)
        else:
            state = {}
            first = float(rng.choice([1.0, 0.5, 0.0]))
            scores = [first, 1.0 - first]
            seats = rng.integers(0, 8, size=2)  # now and then an agent against itself: unrated
        record = {"prompt_version": str(rng.choice(["1", "2"]))} if rng.random() < 0.8 else {}
        match = Match.objects.create(
            game=game,
            options=options,
            seed=m,
            status=Match.Status.FINISHED,
            state=state,
            scores=scores,
            record=record,
            termination="synthetic",
            started_at=finished,
            finished_at=finished if rng.random() < 0.95 else None,  # an imported match may lack its time
        )
        Seat.objects.bulk_create(
            Seat(match=match, index=i, agent_version=versions[v], score=scores[i]) for i, v in enumerate(seats)
        )
        ids.append(match.pk)
    return ids


def _direct(game: str, filters: dict[str, str]):
    """Bradley–Terry input built from the matches themselves, as before the cells."""
    matches = _matches(game, filters)
    seat_agents: dict[int, dict[int, int]] = {}
    for match_id, index, agent_id in Seat.objects.filter(match__in=matches).values_list(
        "match_id", "index", "agent_version__agent_id"
    ):
        seat_agents.setdefault(match_id, {})[index] = agent_id
    rows, _ = _rated(game, matches, seat_agents)
    order = sorted({r.a for r in rows} | {r.b for r in rows})
    arrays = _arrays(rows, {pk: i for i, pk in enumerate(order)})
    return as_cells(arrays), order, np.unique(arrays.match).size


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_fit_from_the_cells_equals_the_fit_from_the_matches(seed, synthetic):
    rng = np.random.default_rng(seed)
    ids = _random_record(rng, 160)
    for pk in ids[:40]:  # as matches finish, one by one, as the receiver counts them …
        assert cells_add_finished(match=Match.objects.get(pk=pk))
    for pk in ids[40:80]:  # … or as one batch of the catch-up would …
        assert cells_add(match_ids=[pk]) == 1
    assert cells_catch_up() == 80  # … and the rest as a dataset import would leave them
    for game, filters in SCOPES:
        cells, order, draws = scope_cells(game=game, filters=filters)
        direct, direct_order, direct_draws = _direct(game, filters)
        assert order == direct_order, (game, filters)
        assert draws == direct_draws > 0, (game, filters)
        assert cells.first.size <= direct.first.size  # folded: at most one cell per pairwise result
        n = len(order)
        ours, theirs = (
            bradley_terry.fit(c.first, c.second, c.score_first, n_agents=n, weights=c.weight, first_mover=c.first_mover)
            for c in (cells, direct)
        )
        np.testing.assert_allclose(ours.strengths, theirs.strengths, rtol=0, atol=1e-9)
        assert ours.first_move_advantage == pytest.approx(theirs.first_move_advantage, abs=1e-9)
        boot = [
            bradley_terry.bootstrap(
                c.first,
                c.second,
                c.score_first,
                n_agents=n,
                rounds=30,
                rng=np.random.default_rng(0),
                weights=c.weight,
                first_mover=c.first_mover,
                draws=draws,
            )
            for c in (cells, direct)
        ]
        np.testing.assert_allclose(boot[0].samples, boot[1].samples, rtol=0, atol=1e-9)


@pytest.mark.django_db(transaction=True)
def test_a_finished_match_updates_its_cell_exactly_once_also_when_the_handler_runs_twice():
    bots = {a.slug: a for a in bots_ensure(game="tic-tac-toe")}
    agents = [bots["tic-tac-toe-lv2"], bots["tic-tac-toe-lv0"]]
    match = async_to_sync(run_match)(match_create(game="tic-tac-toe", agents=agents, seed=4).pk)
    assert match.status == Match.Status.FINISHED  # match_finished has run the handler once, on commit
    refresh_on_match_finished(Match, match=match)  # … and again, as a retried signal would
    assert not cells_add_finished(match=match)
    assert cells_add(match_ids=[match.pk]) == 0
    assert cells_catch_up() == 0
    (cell,) = RatingCell.objects.all()
    assert (cell.a_id, cell.b_id, cell.first_mover) == (agents[0].pk, agents[1].pk, 1.0)
    assert (cell.score, cell.weight) == (match.scores[0], 1.0)
    assert cell.day == timezone.localdate(match.finished_at)
    (count,) = RatingCount.objects.all()
    assert (count.key, count.matches) == ("tic-tac-toe", 1)
    assert CountedMatch.objects.get().match_id == match.pk


@pytest.mark.django_db(transaction=True)
def test_a_finished_match_is_counted_from_what_the_process_knows_in_one_statement_per_table():
    bots = {a.slug: a for a in bots_ensure(game="connect-four")}
    agents = [bots["connect-four-lv1"], bots["connect-four-lv0"]]
    quiet = match_finished.receivers
    match_finished.receivers = []
    match_finished.sender_receivers_cache.clear()
    try:  # the runner plays and closes the match; the cells are counted below, on their own
        match = async_to_sync(run_match)(match_create(game="connect-four", agents=agents, seed=7).pk)
    finally:
        match_finished.receivers = quiet
        match_finished.sender_receivers_cache.clear()
    with CaptureQueriesContext(connection) as statements:
        assert cells_add_finished(match=match)
    tables = [re.findall(r'"(arena_\w+|ratings_\w+)"', query["sql"])[:1] for query in statements.captured_queries]
    # One read, for twins on its deal still to play; none of the match or its seats: the closed row and the
    # runner's seat_versions say all it needs.
    assert [t for t in tables if t] == [
        ["arena_match"],
        ["ratings_countedmatch"],
        ["ratings_ratingcount"],
        ["ratings_ratingcell"],
    ]
    (cell,) = RatingCell.objects.all()
    assert (cell.a_id, cell.b_id, cell.score, cell.weight) == (agents[0].pk, agents[1].pk, match.scores[0], 1.0)
    assert not cells_add_finished(match=match)  # asked again: nothing added, nothing left half-written
    second = async_to_sync(run_match)(match_create(game="connect-four", agents=agents, seed=7).pk)
    assert second.scores == match.scores  # same seed, same bots: the same cell, now counted twice
    (cell,) = RatingCell.objects.all()
    assert cell.weight == 2.0
    assert RatingCount.objects.get().matches == 2
    assert CountedMatch.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_twin_counts_only_once_its_set_is_over_then_with_it():
    """A duplicate pair plays one deal twice: the first result, counted while its twin is still to play, would tell
    the twin's players the deal. Neither the cells nor a replay count it until the twin is over."""
    bots = {a.slug: a for a in bots_ensure(game="tic-tac-toe")}
    a, b = bots["tic-tac-toe-lv2"], bots["tic-tac-toe-lv0"]
    first = match_create(game="tic-tac-toe", agents=[a, b], seed=11)
    twin = match_create(game="tic-tac-toe", agents=[b, a], seed=11, duplicate_of=first)
    async_to_sync(run_match)(first.pk)
    assert Match.objects.get(pk=first.pk).status == Match.Status.FINISHED
    assert not CountedMatch.objects.exists()
    assert not RatingCell.objects.exists()
    assert cells_catch_up() == 0  # the catch-up holds it back too
    assert not _matches("tic-tac-toe", {}).exists()  # and so does the replay

    async_to_sync(run_match)(twin.pk)
    assert set(CountedMatch.objects.values_list("match_id", flat=True)) == {first.pk, twin.pk}
    assert RatingCount.objects.get(key="tic-tac-toe").matches == 2
    assert set(_matches("tic-tac-toe", {}).values_list("pk", flat=True)) == {first.pk, twin.pk}


@pytest.mark.django_db(transaction=True)
def test_the_last_of_a_set_leaves_a_twin_tied_to_a_deal_still_in_play_elsewhere():
    """A tournament's match on the seed that is also the duplicate of a match outside the tournament keeps its
    secrets while that one is to play: the last of the tournament's set counts itself, not it; the outside match,
    finishing, counts both."""
    bots = {a.slug: a for a in bots_ensure(game="tic-tac-toe")}
    a, b = bots["tic-tac-toe-lv2"], bots["tic-tac-toe-lv0"]
    tournament = Tournament.objects.create(slug="deal", name="deal", format="round_robin", config={})
    outside = match_create(game="tic-tac-toe", agents=[a, b], seed=11)
    tied = match_create(game="tic-tac-toe", agents=[b, a], seed=11, tournament=tournament, duplicate_of=outside)
    last = match_create(game="tic-tac-toe", agents=[a, b], seed=11, tournament=tournament)
    async_to_sync(run_match)(tied.pk)
    async_to_sync(run_match)(last.pk)
    assert set(CountedMatch.objects.values_list("match_id", flat=True)) == {last.pk}
    async_to_sync(run_match)(outside.pk)
    assert set(CountedMatch.objects.values_list("match_id", flat=True)) == {last.pk, tied.pk, outside.pk}
    assert RatingCount.objects.get(key="tic-tac-toe").matches == 3


@pytest.mark.django_db
def test_unrated_matches_are_counted_as_seen_but_add_no_cell(synthetic):
    (agent,) = bots_ensure(game="tic-tac-toe")[:1]
    version = agent.current_version()
    match = Match.objects.create(
        game="tic-tac-toe",
        seed=1,
        status=Match.Status.FINISHED,
        scores=[1.0, 0.0],
        termination="synthetic",
        finished_at=timezone.now(),
    )
    Seat.objects.bulk_create(Seat(match=match, index=i, agent_version=version) for i in (0, 1))  # self-play
    assert cells_catch_up() == 1
    assert cells_catch_up() == 0  # seen: the next refit does not look for it again
    assert not RatingCell.objects.exists()
    assert not RatingCount.objects.exists()


@pytest.mark.django_db
def test_the_refit_shows_ratings_before_any_replay_and_the_replay_adds_its_columns(client, settings):
    settings.ARENA_BOOTSTRAP_ROUNDS = 20
    bots = {a.slug: a for a in bots_ensure(game="tic-tac-toe")}
    for seed in range(3):
        agents = [bots["tic-tac-toe-lv3"], bots["tic-tac-toe-lv0"]]
        async_to_sync(run_match)(match_create(game="tic-tac-toe", agents=agents, seed=seed).pk)
    cells_catch_up()
    fitted = snapshot_refit(game="tic-tac-toe")
    rows = {r["slug"]: r for r in fitted.data["rows"]}
    assert fitted.matches == 3
    assert rows["tic-tac-toe-lv0"]["rating"] == 1000.0
    assert rows["tic-tac-toe-lv3"]["elo"] is None  # not replayed yet
    page = client.get("/leaderboard/tic-tac-toe/")
    assert page.status_code == 200
    assert "tic-tac-toe-lv3" in page.content.decode()
    assert "None" not in page.content.decode()
    replayed = snapshot_replay(game="tic-tac-toe")
    after = {r["slug"]: r for r in replayed.data["rows"]}
    assert after["tic-tac-toe-lv3"]["rating"] == rows["tic-tac-toe-lv3"]["rating"]
    assert after["tic-tac-toe-lv3"]["elo"] is not None
    assert after["tic-tac-toe-lv3"]["matches"] == 3
    assert snapshot_refit(game="tic-tac-toe").data["rows"] == replayed.data["rows"]  # a later refit keeps them
