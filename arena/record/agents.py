"""The agents' writers: who may play, and their frozen versions (only services write: docs/architecture.md, The record).

The match record's writers are `arena.record.services`; these are the agents' half of the record's services.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from django.db import transaction

from arena.models import Agent, AgentVersion
from arena.record.errors import ServiceError, checked_field
from games import UnknownGame, get_game
from games.bots import ladder

#: Agents one person (not staff) may register, through the pages or the API.
MAX_OWNED_AGENTS = 20

#: Config keys whose values could be secrets: refused, so a key is never stored.
FORBIDDEN_KEYS = ("api_key", "apikey", "key", "password", "secret", "token", "authorization")


#: Marks the slugs of companion agents (an evaluated model under a protocol's settings, `companion_slug`).
COMPANION_MARK = "--"


def reserved_slug(slug: str) -> str:
    """Why nobody may register `slug` ("" when it is free to take): companion agents' slugs and the bot ladders'."""
    if COMPANION_MARK in slug:
        return f"slugs with {COMPANION_MARK!r} are reserved for the site's evaluation agents"
    ladder_game = re.fullmatch(r"(.+)-lv\d+", slug)
    if ladder_game:
        try:
            get_game(ladder_game.group(1))
        except UnknownGame:
            return ""
        return f"slugs like {ladder_game.group(1)}-lv<N> are reserved for that game's bot ladder"
    return ""


def secret_keys_in(config: dict) -> list[str]:
    """Keys of `config` that look like they hold a secret (`api_key_env`, a variable name, is fine)."""
    return [k for k in config if k.lower() in FORBIDDEN_KEYS]


def public_config(config: dict[str, Any]) -> dict[str, Any]:
    """`config` as pages and exports show it: without the id a remote agent's signing secret is derived from."""
    return {key: value for key, value in config.items() if key != "secret_id"}


def _refuse_secrets(config: dict[str, Any]) -> None:
    if found := secret_keys_in(config):
        raise ServiceError(
            f"Config field(s) {', '.join(found)} look like secrets; store the key in an environment "
            "variable and give its name as api_key_env."
        )


@transaction.atomic
def agent_create(
    *,
    slug: str,
    name: str,
    kind: str,
    config: dict[str, Any],
    game: str = "",
    description: str = "",
    user=None,
    owner=None,
    is_active: bool = True,
    site_slug: bool = False,
) -> Agent:
    """A new agent with its first version (`user`: the person it seats; `owner`: who registered it; an inactive
    agent is nobody's opponent and is not listed among the site's agents). Every way of registering an agent (pages,
    API, commands) comes here, so none may take a reserved slug (`reserved_slug`); only the site's own agents
    (`site_slug`, from `agent_ensure`) do."""
    if not site_slug and (reason := reserved_slug(slug)):
        raise ServiceError(f"{slug[:80]!r} cannot be registered: {reason}; choose another slug.")
    if kind not in Agent.Kind.values:
        raise ServiceError(f"Unknown agent kind {kind!r}; use one of {', '.join(Agent.Kind.values)}.")
    slug, name = checked_field(Agent, "slug", slug), checked_field(Agent, "name", name)
    if game:
        try:
            get_game(game)
        except UnknownGame:
            raise ServiceError(f"game {game[:40]!r} is not a game here; leave it empty for any game.") from None
    if Agent.objects.filter(slug=slug).exists():
        raise ServiceError(f"An agent called {slug!r} already exists.")
    if owner is not None and not owner.is_staff and Agent.objects.filter(owner=owner).count() >= MAX_OWNED_AGENTS:
        raise ServiceError(f"At most {MAX_OWNED_AGENTS} agents per person.")
    _refuse_secrets(config)
    agent = Agent.objects.create(
        slug=slug,
        name=name,
        kind=kind,
        game=game,
        description=description,
        user=user,
        owner=owner,
        is_active=is_active,
        approved=owner is None or owner.is_staff,  # the operator's and staff's own; others wait for staff
    )
    AgentVersion.objects.create(agent=agent, number=1, config=config)
    return agent


@transaction.atomic
def agent_update(*, agent: Agent, config: dict[str, Any], name: str | None = None) -> AgentVersion:
    """Change an agent's config. A version that has played is frozen, so this makes a new one."""
    _refuse_secrets(config)
    agent = Agent.objects.select_for_update().get(pk=agent.pk)
    if name is not None and name != agent.name:
        agent.name = name
        agent.save(update_fields=["name"])
    current = agent.current_version()
    if current.config == config:
        return current
    if current.seats.exists():
        return AgentVersion.objects.create(agent=agent, number=current.number + 1, config=config)
    current.config = config
    current.save(update_fields=["config"])
    return current


@transaction.atomic
def agent_ensure(
    *,
    slug: str,
    name: str,
    kind: str,
    config: dict[str, Any],
    game: str = "",
    description: str = "",
    owner=None,
) -> Agent:
    """Create the site's agent `slug`, or bring it up to `config` (idempotent; used by `seed`, the bot ladders and
    evaluations, `owner` theirs). An existing agent of another kind or another owner is never taken over:
    ServiceError. The site's own agents (no owner) are staff's to bring up to date."""
    agent = Agent.objects.filter(slug=slug).first()
    if agent is None:
        return agent_create(
            slug=slug, name=name, kind=kind, config=config, game=game, description=description, owner=owner,
            site_slug=True,
        )  # fmt: skip
    owner_id = owner.pk if owner is not None else None
    sites_for_staff = agent.owner_id is None and owner is not None and owner.is_staff
    if agent.kind != kind or (agent.owner_id != owner_id and not sites_for_staff):
        holder = agent.owner.get_username() if agent.owner is not None else "the site"
        raise ServiceError(
            f"An agent called {slug!r} already exists ({agent.get_kind_display()} of {holder}) and is not this "
            "one; it is left as it is. Rename or retire it (admin), then try again."
        )
    if agent.description != description:
        agent.description = description
        agent.save(update_fields=["description"])
    agent_update(agent=agent, config=config, name=name)
    return agent


def companion_slug(agent: Agent, suffix: str) -> str:
    """`<agent>--<suffix>`, in the reserved namespace (`COMPANION_MARK`); shortened with a digest past 80 characters,
    so it never loses the mark nor meets another agent's slug."""
    slug = f"{agent.slug}{COMPANION_MARK}{suffix}"
    if len(slug) <= 80:
        return slug
    digest = hashlib.sha256(slug.encode()).hexdigest()[:12]
    return f"{agent.slug[: 80 - len(COMPANION_MARK) - len(digest)]}{COMPANION_MARK}{digest}"


def bots_ensure(*, game: str) -> list[Agent]:
    """The agents of `game`'s bot ladder, created or refreshed from the code (idempotent); a level the code no
    longer has is retired (inactive: its matches and ratings stay, nobody can start a new game against it)."""
    name = get_game(game).name
    levels = {bot.slug for bot in ladder(game)}
    Agent.objects.filter(kind=Agent.Kind.BOT, game=game, is_active=True).exclude(slug__in=levels).update(
        is_active=False
    )
    return [
        agent_ensure(
            slug=bot.slug,
            name=f"{name} Lv{bot.level}",
            kind=Agent.Kind.BOT,
            game=game,
            description=bot.description,
            config={"bot": bot.slug, "level": bot.level, "description": bot.description},
        )
        for bot in ladder(game)
    ]
