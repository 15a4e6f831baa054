"""The seed of a match stays hidden while it, or a match tied to it on the same seed, can still be played."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync

from arena.models import Match
from arena.record.dataset import exportable_matches
from arena.record.services import match_create
from arena.runner.loop import run_match

pytestmark = pytest.mark.django_db

SEED = 987654321


def test_the_seed_shows_once_the_match_and_its_twin_are_over(client, ttt_bots):
    a, b = ttt_bots["tic-tac-toe-lv0"], ttt_bots["tic-tac-toe-lv1"]
    first = match_create(game="tic-tac-toe", agents=[a, b], seed=SEED)
    twin = match_create(game="tic-tac-toe", agents=[b, a], seed=SEED, duplicate_of=first)
    assert str(SEED) not in client.get(f"/matches/{first.pk}/").content.decode()

    async_to_sync(run_match)(first.pk)
    assert Match.objects.get(pk=first.pk).status == Match.Status.FINISHED
    page = client.get(f"/matches/{first.pk}/").content.decode()
    assert str(SEED) not in page  # the twin, still to play, has the same deals
    assert "seed shown once this match" in page
    assert not exportable_matches().exists()

    async_to_sync(run_match)(twin.pk)
    for match in (first, twin):
        assert f"seed {SEED}" in client.get(f"/matches/{match.pk}/").content.decode()
    assert set(exportable_matches().values_list("pk", flat=True)) == {first.pk, twin.pk}


def test_a_tournament_keeps_a_seed_secret_until_its_last_match_on_it_is_over(client, ttt_bots):
    from arena.tournaments.services import tournament_create

    agents = [ttt_bots[f"tic-tac-toe-lv{level}"] for level in range(3)]
    tournament = tournament_create(
        slug="rr",
        name="RR",
        format="round_robin",
        games=["tic-tac-toe"],
        agents=agents,
        games_per_seat=1,
        first_seed=SEED,
    )
    matches = list(tournament.matches.order_by("pk"))
    assert {match.seed for match in matches} == {SEED}  # three seat-swapped pairs, one seed
    for match in matches[:2]:
        async_to_sync(run_match)(match.pk)
    assert str(SEED) not in client.get(f"/matches/{matches[0].pk}/").content.decode()  # other pairs still to play
    for match in matches[2:]:
        async_to_sync(run_match)(match.pk)
    assert f"seed {SEED}" in client.get(f"/matches/{matches[0].pk}/").content.decode()
