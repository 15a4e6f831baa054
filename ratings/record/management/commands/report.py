"""`manage.py report <paper> [--format csv|json|md] [--agent …] …`: the same report the page shows, as text."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from arena.studies.selectors import studies_shown
from ratings.record.filters import FilterError
from ratings.record.reports import PAPERS, UnknownPaper, paper
from ratings.record.reports.base import FILTER_NAMES, report_filters
from ratings.record.reports.render import FORMATS, rendered
from ratings.record.selectors import prompt_versions


class Command(BaseCommand):
    help = "Print one paper's report (tables with intervals and n) computed from the record."

    def add_arguments(self, parser) -> None:
        parser.add_argument("paper", help=f"one of {', '.join(PAPERS)}")
        parser.add_argument("--format", choices=FORMATS, default="md")
        for name in FILTER_NAMES:
            parser.add_argument(f"--{name}", default="")

    def handle(self, *args, **options) -> None:
        try:
            module = paper(options["paper"])
            filters = report_filters(
                {n: options[n] for n in FILTER_NAMES},
                prompt_versions=prompt_versions,
                studies=lambda: [s.slug for s in studies_shown(staff=True)],  # the operator may use any study
            )
        except (UnknownPaper, FilterError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(rendered(module.build(filters), options["format"]), ending="")
