"""Pure-Python game rules and bots. Imports nothing from Django and does no I/O."""

from games.base import Game, IllegalAction, Outcome
from games.registry import UnknownGame, all_games, get_game

__all__ = ["Game", "IllegalAction", "Outcome", "UnknownGame", "all_games", "get_game"]
