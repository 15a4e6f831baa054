"""Export the record as the research dataset (JSONL with a manifest), or chess matches as PGN."""

from __future__ import annotations

from datetime import date

from django.core.management.base import BaseCommand

from arena.record.dataset import export_dataset
from arena.record.pgn import export_pgn


class Command(BaseCommand):
    help = "Write matches, seats, decisions, attempts and annotations as JSONL (first line: the manifest)."

    def add_arguments(self, parser):
        parser.add_argument("--output", required=True, help="File to write ('-' for standard output).")
        parser.add_argument("--format", choices=["jsonl", "pgn"], default="jsonl", help="pgn: chess matches only.")
        parser.add_argument("--game", default="")
        parser.add_argument("--agent", default="")
        parser.add_argument("--tournament", default="")
        parser.add_argument("--since", type=date.fromisoformat, help="Finished on or after (YYYY-MM-DD).")
        parser.add_argument("--until", type=date.fromisoformat, help="Finished before (YYYY-MM-DD).")

    def handle(self, *args, output: str, format: str, game, agent, tournament, since, until, **options):
        if format == "pgn":
            query = {"agent": agent, "tournament": tournament, "since": since, "until": until}
            if output == "-":
                count = export_pgn(self.stdout, **query)
            else:
                with open(output, "w", encoding="utf-8") as out:
                    count = export_pgn(out, **query)
            self.stderr.write(f"exported {count} chess games")
            return
        filters = {k: v for k, v in {"game": game, "agent": agent, "tournament": tournament}.items() if v}
        query = {**filters, "since": since, "until": until}
        filters.update({k: str(v) for k, v in (("since", since), ("until", until)) if v})
        if output == "-":
            manifest = export_dataset(self.stdout, filters=filters, **query)
        else:
            with open(output, "w", encoding="utf-8") as out:
                manifest = export_dataset(out, filters=filters, **query)
        counts = ", ".join(f"{n} {kind}s" for kind, n in sorted(manifest["counts"].items())) or "nothing"
        self.stderr.write(f"exported {counts} (sha256 {manifest['sha256'][:12]}…)")
