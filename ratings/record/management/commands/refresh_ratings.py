"""Recompute leaderboard snapshots now (the worker also does this after matches finish)."""

from __future__ import annotations

from urllib.parse import parse_qsl

from django.core.management.base import BaseCommand
from tqdm import tqdm

from games import get_game
from games.registry import GAMES
from ratings.record.models import RatingSnapshot
from ratings.record.services import snapshot_refresh


class Command(BaseCommand):
    help = "Recompute the overall and per-game leaderboards, and every filtered one already cached."

    def add_arguments(self, parser):
        parser.add_argument(
            "--game", action="append", help="Only this game's (or game:variant's) leaderboard (repeatable)."
        )

    def handle(self, *args, game=None, **options):
        variants = {f"{slug}:{variant}" for slug in GAMES for variant in get_game(slug).variants}
        scopes = {("", "")} | {(key, "") for key in (game or [*GAMES, *variants])}
        if not game:
            scopes |= set(RatingSnapshot.objects.values_list("game", "filters"))
        for scope, filters in tqdm(sorted(scopes), unit="leaderboard", disable=None):
            snapshot = snapshot_refresh(game=scope, filters=dict(parse_qsl(filters)))
            tqdm.write(f"{scope or 'all games'} {filters}: {snapshot.matches} matches")
