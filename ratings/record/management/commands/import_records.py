"""`manage.py import_records --format gamebench|botzone [--strict] PATH…`: published results as reference rows (never
matches); `--strict` rejects a Botzone log for any difference from its judge's display, not only its moves and results.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ratings.record.reports.imports import (
    BOTZONE,
    GAMEBENCH,
    RecordRejected,
    botzone_record,
    gamebench_records,
    reference_records_import,
)


class Command(BaseCommand):
    help = "Import GameBench's matches.json or BotzoneBench logs (files or folders) as reference rows."

    def add_arguments(self, parser) -> None:
        parser.add_argument("paths", nargs="+", type=Path)
        parser.add_argument("--format", choices=("gamebench", "botzone"), required=True)
        parser.add_argument("--commit", default="", help="the source repository's commit (default: the known one)")
        parser.add_argument(
            "--strict", action="store_true", help="Botzone logs: any difference from the judge's display rejects a log"
        )

    def handle(self, *args, **options) -> None:
        fmt = options["format"]
        known = GAMEBENCH if fmt == "gamebench" else BOTZONE
        files = []
        for path in options["paths"]:
            if not path.exists():
                raise CommandError(f"{path} does not exist.")
            files += sorted(path.glob("*.json")) if path.is_dir() else [path]
        records, rejected = [], []
        for file in files:
            try:
                if fmt == "gamebench":
                    records += gamebench_records(file)
                else:
                    records.append(botzone_record(file, strict=options["strict"]))
            except (RecordRejected, ValueError, KeyError) as error:
                rejected.append(f"{file.name}: {error}")
        created = reference_records_import(
            source=fmt, records=records, repository=known["repository"], commit=options["commit"] or known["commit"]
        )
        for line in rejected:
            self.stderr.write(f"rejected {line}")
        self.stdout.write(f"{fmt}: {len(records)} records read, {created} new, {len(rejected)} rejected.")
