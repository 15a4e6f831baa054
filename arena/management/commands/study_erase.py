"""Erase a human baseline study at the end of its retention period: its participants' records and the study."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from arena.studies.models import Study
from arena.studies.services import study_erase


class Command(BaseCommand):
    help = (
        "Delete a study's participant records (as withdrawals: the matches stay, anonymous) and then the study. "
        "Download its exports first: nothing of it can be had afterwards."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The study's slug (its share link is /studies/<slug>/).")
        parser.add_argument("--yes", action="store_true", help="Confirm: erase it now.")

    def handle(self, *args, slug: str, yes: bool, **options):
        study = Study.objects.filter(slug=slug).first()
        if study is None:
            raise CommandError(f"There is no study {slug!r}.")
        if not yes:
            count = study.participants.count()
            raise CommandError(f"This deletes {count} participant records and study {slug!r}; add --yes to do it.")
        erased = study_erase(study=study)
        self.stdout.write(f"erased study {slug}: {erased} participant records deleted; their matches stay anonymous")
