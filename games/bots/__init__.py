"""Bot ladders per game: `ladder("reversi")[2]` is the bot seeded as `reversi-lv2`."""

from __future__ import annotations

import re
from importlib import import_module

from games.bots.base import Bot
from games.registry import REGISTRY

#: game slug -> the module defining its LADDER: list[Bot], Lv0 first (from the registry's one table).
LADDER_MODULES: dict[str, str] = {slug: entry.ladder for slug, entry in REGISTRY.items()}

_BOT_SLUG = re.compile(r"^(?P<game>[a-z0-9-]+)-lv(?P<level>\d+)$")


class UnknownBot(KeyError):
    """No bot is registered under that slug."""


def ladder(game_slug: str) -> list[Bot]:
    """The bots of `game_slug`, weakest (Lv0, uniform random) first."""
    if game_slug not in LADDER_MODULES:
        raise UnknownBot(f"No bot ladder for game {game_slug!r}.")
    return list(import_module(LADDER_MODULES[game_slug]).LADDER)


def ladder_variant(game_slug: str) -> str:
    """The variant `game_slug`'s ladder is measured in: its module's LADDER_VARIANT, "" (the standard rules) if none."""
    return getattr(import_module(LADDER_MODULES[game_slug]), "LADDER_VARIANT", "")


def get_bot(bot_slug: str) -> Bot:
    """The bot named like `reversi-lv2`."""
    match = _BOT_SLUG.match(bot_slug)
    if not match or match["game"] not in LADDER_MODULES:
        raise UnknownBot(f"Unknown bot {bot_slug!r}; bots are named <game>-lv<N>.")
    bots = ladder(match["game"])
    level = int(match["level"])
    if level >= len(bots):
        raise UnknownBot(f"{match['game']} has levels 0–{len(bots) - 1}; there is no Lv{level}.")
    return bots[level]


__all__ = ["LADDER_MODULES", "Bot", "UnknownBot", "get_bot", "ladder", "ladder_variant"]
