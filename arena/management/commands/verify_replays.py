"""Replay every stored match from its seed and moves; report any disagreement with the record."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from arena.models import Match
from arena.record.selectors import ReplayMismatch, match_replayed_state
from games import IllegalAction


class Command(BaseCommand):
    help = "Check that replaying each match's stored moves reproduces its stored states and result."

    def add_arguments(self, parser):
        parser.add_argument("--game", default="")

    def handle(self, *args, game: str, **options):
        matches = Match.objects.all().order_by("pk")
        if game:
            matches = matches.filter(game=game)
        problems = []
        for match in tqdm(matches.iterator(), total=matches.count(), unit="match", disable=None):
            try:
                match_replayed_state(match)
            except (ReplayMismatch, IllegalAction) as error:
                problems.append(str(error))
        for problem in problems:
            self.stdout.write(f"MISMATCH {problem}")
        if problems:
            raise CommandError(f"{len(problems)} of {matches.count()} matches do not replay.")
        self.stdout.write(f"all {matches.count()} matches replay exactly")
