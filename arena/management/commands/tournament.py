"""Create, run, watch and cancel tournaments from the shell."""

from __future__ import annotations

import json
import time

from asgiref.sync import async_to_sync
from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from arena.management.commands.play_match import parse_options
from arena.models import Agent, Tournament
from arena.record.selectors import tournament_progress
from arena.record.services import ServiceError
from arena.tournaments.run import run_tournament
from arena.tournaments.services import tournament_cancel, tournament_create, tournament_queue
from games import UnknownGame


class Command(BaseCommand):
    help = "Tournaments: create | run | status | cancel."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        create = sub.add_parser("create", help="Schedule a tournament.")
        create.add_argument("--slug", required=True)
        create.add_argument("--name")
        create.add_argument("--format", required=True, choices=Tournament.Format.values)
        create.add_argument("--games", nargs="+", required=True)
        create.add_argument("--agents", nargs="+", required=True, help="Entrants (ladder: the candidates).")
        create.add_argument("--games-per-seat", type=int, help="Seeds per pairing (ladder: per level).")
        create.add_argument(
            "--first-seed",
            type=int,
            help="Reproduce a run: consecutive fixed seeds from this one (the tournament is marked fixed-seed). "
            "Default: fresh random seeds.",
        )
        create.add_argument("--fallback", choices=["random_legal", "forfeit", "abort"], default="random_legal")
        create.add_argument("--opponents", nargs="+", default=[], help="Adversarial matrix: the fixed opponents.")
        create.add_argument("--budget", type=int, default=200, help="Adaptive: most matches to play.")
        create.add_argument(
            "--target-width", type=float, default=100.0, help="Adaptive: stop when intervals are this narrow."
        )
        create.add_argument("--variant", default="", help="Play every match under this variant (rated apart).")
        create.add_argument(
            "--option", action="append", default=[], metavar="KEY=VALUE", help="A game option (repeatable)."
        )
        create.add_argument(
            "--partner", help="Multi-seat games: the agent filling the seats of the entrant's side it does not hold."
        )
        create.add_argument("--json", action="store_true", dest="as_json")
        run = sub.add_parser("run", help="Play its matches here, or --enqueue them for db_worker processes.")
        run.add_argument("slug")
        run.add_argument("--enqueue", action="store_true")
        run.add_argument("--json", action="store_true", dest="as_json")
        status = sub.add_parser("status", help="Progress and results.")
        status.add_argument("slug")
        status.add_argument("--json", action="store_true", dest="as_json")
        status.add_argument("--watch", action="store_true", help="Follow progress until it ends.")
        cancel = sub.add_parser("cancel", help="Abort pending matches and stop scheduling.")
        cancel.add_argument("slug")

    def handle(self, *args, action: str, **options):
        getattr(self, f"_{action}")(**options)

    def _tournament(self, slug: str) -> Tournament:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"No tournament {slug!r}.")
        return tournament

    def _create(self, slug, name, format, games, agents, games_per_seat, first_seed, fallback, as_json, **options):
        opponents = options.get("opponents") or []
        partner = [options["partner"]] if options.get("partner") else []
        found = {a.slug: a for a in Agent.objects.filter(slug__in=[*agents, *opponents, *partner])}
        missing = [s for s in [*agents, *opponents, *partner] if s not in found]
        if missing:
            raise CommandError(f"Unknown agent(s): {', '.join(missing)}.")
        try:
            tournament = tournament_create(
                slug=slug,
                name=name or slug,
                format=format,
                games=games,
                agents=[found[s] for s in agents],
                games_per_seat=games_per_seat,
                first_seed=first_seed,
                policies={"fallback": fallback},
                opponents=[found[s] for s in opponents],
                budget=options.get("budget") or 200,
                target_width=options.get("target_width") or 100.0,
                variant=options.get("variant") or "",
                options=parse_options(options.get("option") or []),
                partner=found[partner[0]] if partner else None,
            )
        except (ServiceError, UnknownGame) as error:
            raise CommandError(str(error)) from None
        self._report(tournament, as_json)

    def _run(self, slug, enqueue, as_json, **_):
        tournament = self._tournament(slug)
        if enqueue:
            pending = tournament_queue(tournament=tournament)
            self.stdout.write(f"enqueued {len(pending)} matches; follow with `tournament status {slug} --watch`")
            return
        progress = tournament_progress(tournament)
        with tqdm(total=progress["total"], initial=progress["done"], unit="match", disable=as_json or None) as bar:

            def on_match(_match) -> None:
                now = tournament_progress(tournament)
                bar.total = now["total"]
                bar.n = now["done"]
                bar.set_postfix(running=now["running"], failed=now["aborted"])
                bar.refresh()

            async_to_sync(run_tournament)(tournament.pk, on_match=on_match)
        self._report(tournament, as_json)

    def _status(self, slug, as_json, watch, **_):
        tournament = self._tournament(slug)
        if watch:
            progress = tournament_progress(tournament)
            with tqdm(total=progress["total"], unit="match") as bar:
                while True:
                    tournament.refresh_from_db()
                    progress = tournament_progress(tournament)
                    bar.total, bar.n = progress["total"], progress["done"]
                    bar.set_postfix(running=progress["running"], failed=progress["aborted"])
                    bar.refresh()
                    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
                        break
                    time.sleep(1)
        self._report(tournament, as_json)

    def _cancel(self, slug, **_):
        tournament = tournament_cancel(tournament=self._tournament(slug))
        self.stdout.write(f"{tournament.slug}: cancelled")

    def _report(self, tournament: Tournament, as_json: bool) -> None:
        tournament.refresh_from_db()
        progress = tournament_progress(tournament)
        if as_json:
            self.stdout.write(json.dumps(progress, sort_keys=True))
            return
        self.stdout.write(
            f"{tournament.slug} ({tournament.get_format_display()}, {tournament.status}): "
            f"{progress['done']}/{progress['total']} matches done, {progress['running']} running, "
            f"{progress['aborted']} aborted"
            + (f", {progress['paused']} paused (a model server is not answering)" if progress["paused"] else "")
        )
        for row in progress["standings"]:
            self.stdout.write(f"  {row['game']:<14} {row['agent']:<24} {row['summary']}")
