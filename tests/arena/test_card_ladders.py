"""BotzoneBench's ladder climb on the card games: the candidate takes every side of each deal, and is rated."""

from __future__ import annotations

from collections import defaultdict

import pytest
from asgiref.sync import async_to_sync

from arena.models import Tournament
from arena.record.agents import bots_ensure
from arena.record.selectors import ladder_records, tournament_progress
from arena.tournaments.run import run_tournament
from arena.tournaments.services import tournament_create

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(("game", "sides"), [("fight-the-landlord", 2), ("mahjong", 4)])
def test_a_ladder_climb_rotates_the_candidate_over_every_side_of_one_deal(game, sides):
    candidate = bots_ensure(game=game)[1]  # Lv1: at level 0 it meets another bot
    tournament = tournament_create(
        slug=f"climb-{game}",
        name=game,
        format="ladder",
        games=[game],
        agents=[candidate],
        games_per_seat=1,
        first_seed=0,  # fixed, for a reproducible climb
    )
    async_to_sync(run_tournament)(tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    seats_by_deal: dict[tuple[int, int], set[tuple[int, ...]]] = defaultdict(set)
    for match in tournament.matches.prefetch_related("seats__agent_version__agent"):
        mine = tuple(s.index for s in match.seats.all() if s.agent_version.agent.slug == candidate.slug)
        seats_by_deal[(match.record["ladder"]["level"], match.seed)].add(mine)
    assert any(level == 0 for level, _ in seats_by_deal)
    for (level, _seed), held in seats_by_deal.items():
        if level == 1:
            continue  # the candidate against itself
        assert len(held) == sides  # the landlord's seat and both peasants' seats; each of the four winds
    records = ladder_records(tournament, game, candidate.slug)
    assert [r.games for r in records] == [sides] * len(records)
    (standing,) = tournament_progress(tournament)["standings"]
    assert standing["summary"].startswith("Lv")
