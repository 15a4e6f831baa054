"""Manage agents from the shell: list, show, add."""

from __future__ import annotations

import json

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from arena.agents.outside import outside_config
from arena.agents.program import LANGUAGES, PROTOCOLS
from arena.models import Agent
from arena.record.agents import agent_create
from arena.record.services import ServiceError

LLM_FIELDS = {
    "base_url": str,
    "model": str,
    "api_key_env": str,
    "temperature": float,
    "top_p": float,
    "max_tokens": int,
    "reasoning_effort": str,
    "timeout_s": float,
    "scaffold": str,
    "retries": int,
    "price_in_per_mtok": float,
    "price_out_per_mtok": float,
    "samples": int,
    "max_concurrency": int,
    "provider_retries": int,
    "decision_budget_s": float,
    "budget_output_tokens": int,
    "context_tokens": int,
    "seed": int,
}

#: Per outside kind, the options that go into its config.
OUTSIDE_FIELDS = {
    "program": ("command", "protocol", "language", "keep_running"),
    "uci": ("command", "uci_elo", "nodes", "movetime_ms"),
    "remote": ("url", "secret_env", "timeout_s", "retries", "provider_retries"),
}
#: A program's limit options: option dest → the key in the config's `limits`.
LIMIT_OPTIONS = {"wall_time_s": "time_s", "cpu_s": "cpu_s", "memory_mb": "memory_mb", "output_bytes": "output_bytes"}


class Command(BaseCommand):
    help = "List, show or add agents (bots are seeded by `manage.py seed`)."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        listing = sub.add_parser("list", help="All agents, one per line.")
        listing.add_argument("--kind", choices=Agent.Kind.values)
        listing.add_argument("--game")
        listing.add_argument("--json", action="store_true", dest="as_json")
        show = sub.add_parser("show", help="One agent with its versions.")
        show.add_argument("slug")
        add = sub.add_parser("add", help="Create an agent.")
        add.add_argument("--slug", required=True)
        add.add_argument("--name")
        add.add_argument("--kind", required=True, choices=[k for k in Agent.Kind.values if k != Agent.Kind.HUMAN])
        add.add_argument("--game", default="", help="Restrict to one game (bots must).")
        add.add_argument("--bot", help="For --kind bot: the ladder bot slug, e.g. reversi-lv2.")
        add.add_argument("--no-legal-list", action="store_true", help="Leave the legal moves out of prompts.")
        for name, kind in LLM_FIELDS.items():
            add.add_argument(f"--{name.replace('_', '-')}", dest=name, type=kind)
        add.add_argument("--command", help="For --kind program or uci: the program to run.")
        add.add_argument("--protocol", choices=PROTOCOLS, default="botzone", help="For --kind program.")
        add.add_argument("--keep-running", action="store_true", help="For --kind program: Botzone's keep-running.")
        add.add_argument(
            "--language", choices=LANGUAGES, help="For --kind program: its language, for Botzone's time and memory."
        )
        add.add_argument("--url", help="For --kind remote: where Arena POSTs each decision.")
        add.add_argument(
            "--secret-env", help="For --kind remote: the variable holding the signing secret (else one is made)."
        )
        add.add_argument("--websocket", action="store_true", help="For --kind remote: a bot account (needs --owner).")
        add.add_argument("--owner", help="The username who owns the agent (a websocket bot plays with their tokens).")
        add.add_argument("--wall-time-s", type=float, help="For --kind program: wall time per decision (s).")
        add.add_argument("--cpu-s", type=int, help="For --kind program: CPU seconds over the program's life.")
        add.add_argument("--memory-mb", type=int, help="For --kind program: address space (MiB).")
        add.add_argument("--output-bytes", type=int, help="For --kind program: stdout per decision (bytes).")
        strength = add.add_mutually_exclusive_group()
        strength.add_argument("--uci-elo", type=int, help="For --kind uci: UCI_LimitStrength at this Elo.")
        strength.add_argument("--nodes", type=int, help="For --kind uci: nodes per move.")
        strength.add_argument("--movetime", type=int, dest="movetime_ms", help="For --kind uci: ms per move.")

    def handle(self, *args, action: str, **options):
        getattr(self, f"_{action}")(**options)

    def _list(self, kind=None, game=None, as_json=False, **_):
        agents = Agent.objects.all()
        if kind:
            agents = agents.filter(kind=kind)
        if game:
            agents = agents.filter(game__in=[game, ""])
        rows = [{"slug": a.slug, "name": a.name, "kind": a.kind, "game": a.game or "any"} for a in agents]
        if as_json:
            self.stdout.write(json.dumps(rows))
            return
        for row in rows:
            self.stdout.write(f"{row['slug']:<28} {row['kind']:<6} {row['game']:<14} {row['name']}")

    def _show(self, slug: str, **_):
        agent = Agent.objects.filter(slug=slug).first()
        if agent is None:
            raise CommandError(f"No agent {slug!r}.")
        self.stdout.write(f"{agent.slug}: {agent.name} ({agent.get_kind_display()}, game: {agent.game or 'any'})")
        for version in agent.versions.all():
            self.stdout.write(f"  v{version.number} {json.dumps(version.config, sort_keys=True)}")

    def _add(self, slug: str, kind: str, name=None, game="", bot=None, owner=None, **options):
        secret = ""
        if kind == Agent.Kind.BOT:
            if not bot:
                raise CommandError("--kind bot needs --bot <game>-lv<N>.")
            config = {"bot": bot}
        elif kind in OUTSIDE_FIELDS:
            config, secret = self._outside_config(kind, owner, options)
            if kind == Agent.Kind.UCI:
                game = game or "chess"
        else:
            config = {k: options[k] for k in LLM_FIELDS if options.get(k) is not None}
            if options.get("no_legal_list"):
                config["legal_list"] = False
            for required in ("base_url", "model"):
                if required not in config:
                    raise CommandError(f"--kind llm needs --{required.replace('_', '-')}.")
        owner_user = None
        if owner:
            owner_user = get_user_model().objects.filter(username=owner).first()
            if owner_user is None:
                raise CommandError(f"No user {owner!r}.")
        try:
            agent = agent_create(slug=slug, name=name or slug, kind=kind, game=game, config=config, owner=owner_user)
        except ServiceError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"created {agent.slug}")
        if secret:
            self.stdout.write(f"signing secret (shown once; Arena keeps only a way to recompute it): {secret}")

    def _outside_config(self, kind: str, owner: str | None, options: dict) -> tuple[dict, str]:
        """The checked config of an outside agent from the options (outside_config is the one check)."""
        fields = {k: options[k] for k in OUTSIDE_FIELDS[kind]}
        limits = {key: options[dest] for dest, key in LIMIT_OPTIONS.items() if options.get(dest) is not None}
        if limits and kind != Agent.Kind.PROGRAM:
            raise CommandError("--wall-time-s, --cpu-s, --memory-mb and --output-bytes are for --kind program.")
        fields["limits"] = limits
        if options.get("websocket"):
            if kind != Agent.Kind.REMOTE or not owner:
                raise CommandError("--websocket is for --kind remote, with --owner (whose tokens the bot uses).")
            fields = {"transport": "websocket"}
        else:
            required = "url" if kind == Agent.Kind.REMOTE else "command"
            if not fields.get(required):
                raise CommandError(f"--kind {kind} needs --{required}.")
        try:
            return outside_config(kind, fields, operator=True)
        except ServiceError as error:
            raise CommandError(str(error)) from None
