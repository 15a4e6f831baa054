"""Play one match between agents from the shell."""

from __future__ import annotations

import json

from asgiref.sync import async_to_sync
from django.core.management.base import BaseCommand, CommandError

from arena.models import Agent
from arena.record.selectors import match_summary
from arena.record.services import ServiceError, match_create, variant_options
from arena.runner.loop import run_match
from games import UnknownGame


def parse_options(pairs: list[str]) -> dict:
    """`key=value` pairs as game options; a value is read as JSON when it is JSON (numbers, true), else text."""
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise CommandError(f"Options are key=value, got {pair!r}.")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return options


class Command(BaseCommand):
    help = (
        "Play a match: manage.py play_match --game reversi --agents reversi-lv2 reversi-lv0 [--seed 7] "
        "[--variant V] [--option key=value …] [--json]"
    )

    def add_arguments(self, parser):
        parser.add_argument("--game", required=True)
        parser.add_argument("--agents", nargs="+", required=True, help="Agent slugs in seat order, one per seat.")
        parser.add_argument("--seed", type=int)
        parser.add_argument("--variant", default="", help="One of the game's variants (default: the standard rules).")
        parser.add_argument(
            "--option", action="append", default=[], metavar="KEY=VALUE", help="A game option (repeatable)."
        )
        parser.add_argument(
            "--json", action="store_true", dest="as_json", help="Print one JSON object instead of text."
        )

    def handle(self, *args, game: str, agents: list[str], seed: int | None, as_json: bool, **options):
        try:
            chosen = {**variant_options(game, options["variant"]), **parse_options(options["option"])}
        except (ServiceError, UnknownGame) as error:
            raise CommandError(str(error)) from None
        found = {a.slug: a for a in Agent.objects.filter(slug__in=agents)}
        missing = [slug for slug in agents if slug not in found]
        if missing:
            raise CommandError(f"Unknown agent(s): {', '.join(missing)}. See `manage.py agents list`.")
        try:
            match = match_create(game=game, agents=[found[slug] for slug in agents], seed=seed, options=chosen)
        except (ServiceError, UnknownGame) as error:
            raise CommandError(str(error)) from None
        if not as_json:
            self.stdout.write(f"match {match.pk}: {game}, seed {match.seed}, {' vs '.join(agents)}")
        match = async_to_sync(run_match)(match.pk)
        summary = match_summary(match)
        if as_json:
            self.stdout.write(json.dumps(summary, sort_keys=True))
        else:
            scores = ", ".join(f"{slug} {score:g}" for slug, score in zip(agents, summary["scores"], strict=True))
            self.stdout.write(f"{summary['termination']} after {summary['decisions']} decisions: {scores}")
