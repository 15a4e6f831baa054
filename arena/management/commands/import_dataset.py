"""Load a dataset exported by another Arena instance."""

from __future__ import annotations

import os

from django.core.management.base import BaseCommand, CommandError

from arena.record.dataset import MAX_IMPORT_BYTES, DatasetError, import_dataset


class Command(BaseCommand):
    help = "Import an exported JSONL dataset; idempotent; replays every match before accepting it."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file: str, **options):
        if os.path.getsize(file) > MAX_IMPORT_BYTES:
            raise CommandError(f"{file} is larger than the {MAX_IMPORT_BYTES // 2**20} MiB import limit.")
        try:
            with open(file, encoding="utf-8") as lines:
                report = import_dataset(lines)
        except DatasetError as error:
            raise CommandError(str(error)) from None
        added = ", ".join(f"{n} {kind}s" for kind, n in sorted(report.added.items())) or "nothing new"
        self.stdout.write(f"added {added}; {report.already_present} matches were already here")
        for problem in report.rejected:
            self.stdout.write(f"rejected: {problem}")
        if report.rejected:
            raise CommandError(f"{len(report.rejected)} record(s) rejected (listed above); the rest was imported.")
