"""Seed the database idempotently: every game's bot ladder, a few finished demo matches, and the first run's
queued bot-vs-bot record (played by the worker in the background, so `make run` starts at once)."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from tqdm import tqdm

from arena.agents.llm.local import local_llm_agents
from arena.models import Agent, Match
from arena.record.agents import agent_ensure, bots_ensure
from arena.record.services import match_create
from arena.runner.loop import run_match
from arena.tournaments.services import first_run_tournaments_create, seatings
from games import get_game
from games.bots import LADDER_MODULES

DEMO_SEED = 20261122


class Command(BaseCommand):
    help = "Create the bot ladders and demo matches (safe to run again)."

    def add_arguments(self, parser):
        parser.add_argument("--no-demo", action="store_true", help="Skip the demo matches.")
        parser.add_argument("--game", action="append", help="Only this game's ladder (repeatable). Default: all.")
        parser.add_argument(
            "--first-run-matches",
            type=int,
            default=None,
            help="At most this many bot-vs-bot ladder matches for the worker (default: ARENA_SEED_MATCHES, "
            "8832; 0: none).",
        )
        parser.add_argument(
            "--first-run-seed",
            type=int,
            default=None,
            help="Reproduce a first run: its matches take consecutive fixed seeds from this one (default: random).",
        )

    def handle(
        self,
        *args,
        no_demo: bool = False,
        game: list[str] | None = None,
        first_run_matches: int | None = None,
        first_run_seed: int | None = None,
        **options,
    ):
        games = game or list(LADDER_MODULES)
        before = Agent.objects.filter(kind=Agent.Kind.BOT).count()
        for game_slug in games:
            bots_ensure(game=game_slug)
        after = Agent.objects.filter(kind=Agent.Kind.BOT).count()
        self.stdout.write(f"bots: {after - before} created, {after} in all")
        for spec in local_llm_agents():
            agent_ensure(**spec)
        self.stdout.write("local models: " + ", ".join(spec["slug"] for spec in local_llm_agents()))
        if not no_demo:
            self._demo_matches(games)
            call_command("refresh_ratings", stdout=self.stdout)
        if first_run_matches is None:
            first_run_matches = settings.ARENA_SEED_MATCHES
        if first_run_matches > 0:
            queued = first_run_tournaments_create(games=games, matches=first_run_matches, first_seed=first_run_seed)
            count = sum(t.matches.count() for t in queued)
            self.stdout.write(f"first run: {count} bot matches queued for the worker ({len(queued)} ladders)")

    def _demo_matches(self, games: list[str]) -> None:
        """A few finished bot games per game (Lv0–Lv2, both seat orders; in team games Lv1 holds the first seating of
        `seatings`, its whole side or, where the deal picks teams in secret, one seat), so no page is empty on first
        visit."""
        plans = []
        for game_slug in games:
            if Match.objects.filter(game=game_slug, record__demo=True).exists():
                continue
            bots = {a.slug: a for a in Agent.objects.filter(game=game_slug, kind=Agent.Kind.BOT)}
            lv = [bots[f"{game_slug}-lv{n}"] for n in range(3) if f"{game_slug}-lv{n}" in bots]
            seats = get_game(game_slug).num_players
            if seats == 2:
                pairs = [(lv[1], lv[0]), (lv[0], lv[1])] + ([(lv[2], lv[1]), (lv[1], lv[2])] if len(lv) > 2 else [])
                plans += [(game_slug, list(pair)) for pair in pairs]
            else:
                plans.append((game_slug, seatings(game_slug, {}, lv[1], lv[0], None)[0]))
        for game_slug, agents in tqdm(plans, desc="demo matches", unit="match", disable=None):
            match = match_create(game=game_slug, agents=agents, seed=DEMO_SEED, extra_record={"demo": True})
            async_to_sync(run_match)(match.pk)
        self.stdout.write(f"demo matches: {len(plans)} played")
