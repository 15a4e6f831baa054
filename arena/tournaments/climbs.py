"""A person's ladder climb: a ladder tournament with one person as its candidate."""

from __future__ import annotations

import secrets

from arena.models import Agent, Tournament
from arena.record.errors import ServiceError
from arena.tournaments.services import tournament_create


def person_ladder_start(*, person: Agent, game: str, games_per_seat: int = 2) -> Tournament:
    """A person climbs `game`'s bot ladder bottom-up, exactly like a model's ladder evaluation, except that
    every match gets a fresh random seed of its own (`remembers_deals`), so no deal or bot setup can be learnt
    by heart, nor met again from the other seat."""
    if person.kind != Agent.Kind.HUMAN:
        raise ServiceError("Only people start a ladder climb here; models use `manage.py tournament`.")
    slug = f"climb-{person.slug[:40]}-{game}-{secrets.token_hex(3)}"  # within a slug's 80 characters
    return tournament_create(
        slug=slug,
        name=f"{person.name} climbs {game}",
        format="ladder",
        games=[game],
        agents=[person],
        games_per_seat=games_per_seat,
        first_seed=None,
    )
