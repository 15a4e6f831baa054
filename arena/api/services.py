"""The API's own write: a tournament started through it, noted as its caller's."""

from __future__ import annotations

from django.db import transaction

from arena.tournaments.services import tournament_create, tournament_queue

#: Largest id or ply a caller may name: the databases' 64-bit integers (a larger one is refused, not sent to them).
MAX_ID = 2**63 - 1


@transaction.atomic
def api_tournament_start(*, user, slug: str, name: str, format: str, games: list[str], agents: list, **options):
    """A tournament started through the API, noted as `user`'s (to bound how many they run), and queued."""
    tournament = tournament_create(slug=slug, name=name, format=format, games=games, agents=agents, **options)
    tournament.config = {**tournament.config, "started_by": user.pk}
    tournament.save(update_fields=["config"])
    tournament_queue(tournament=tournament)
    return tournament
