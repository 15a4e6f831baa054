"""Every playable game, by slug."""

from __future__ import annotations

from importlib import import_module
from typing import NamedTuple

from games.base import Game


class Registered(NamedTuple):
    """Where a game lives: its class as "module:Class", and the module whose LADDER lists its bots, Lv0 first."""

    game: str
    ladder: str


# The one table of games. Modules load lazily so one broken game cannot hide the others.
REGISTRY: dict[str, Registered] = {
    "tic-tac-toe": Registered("games.tictactoe:TicTacToe", "games.bots.tictactoe"),
    "connect-four": Registered("games.connect_four:ConnectFour", "games.bots.connect_four"),
    "gomoku": Registered("games.gomoku:Gomoku", "games.bots.gomoku"),
    "reversi": Registered("games.reversi:Reversi", "games.bots.reversi"),
    "ataxx": Registered("games.ataxx:Ataxx", "games.bots.ataxx"),
    "chess": Registered("games.chess_game:Chess", "games.bots.chess_bots"),
    "santorini": Registered("games.santorini:Santorini", "games.bots.santorini"),
    "tower-defense": Registered("games.tower_defense:TowerDefense", "games.bots.tower_defense"),
    "battle-card": Registered("games.battle_card:BattleCard", "games.bots.battle_card"),
    "attribute-battle": Registered("games.attribute_battle:AttributeBattle", "games.bots.attribute_battle"),
    "kuhn-poker": Registered("games.kuhn_poker:KuhnPoker", "games.bots.kuhn_poker"),
    "leduc-holdem": Registered("games.leduc_holdem:LeducHoldem", "games.bots.leduc_holdem"),
    "holdem": Registered("games.holdem:Holdem", "games.bots.holdem"),
    "codenames": Registered("games.codenames:Codenames", "games.bots.codenames"),
    "werewolf": Registered("games.werewolf:Werewolf", "games.bots.werewolf"),
    "skirmish": Registered("games.skirmish:Skirmish", "games.bots.skirmish"),
    "stratego": Registered("games.stratego:Stratego", "games.bots.stratego"),
    "fight-the-landlord": Registered("games.fight_the_landlord:FightTheLandlord", "games.bots.fight_the_landlord"),
    "mahjong": Registered("games.mahjong:Mahjong", "games.bots.mahjong"),
    "diplomacy": Registered("games.diplomacy:Diplomacy", "games.bots.diplomacy"),
    "sea-battle": Registered("games.sea_battle:SeaBattle", "games.bots.sea_battle"),
    "hive": Registered("games.hive:Hive", "games.bots.hive"),
    "air-land-sea": Registered("games.air_land_sea:AirLandSea", "games.bots.air_land_sea"),
    "are-you-the-traitor": Registered("games.traitor:AreYouTheTraitor", "games.bots.traitor"),
    "pit": Registered("games.pit:Pit", "games.bots.pit"),
    "arctic-scavengers": Registered("games.arctic_scavengers:ArcticScavengers", "games.bots.arctic_scavengers"),
    "two-rooms-and-a-boom": Registered("games.two_rooms:TwoRoomsAndABoom", "games.bots.two_rooms"),
}

#: slug -> "module:Class", in registry order.
GAMES: dict[str, str] = {slug: entry.game for slug, entry in REGISTRY.items()}

_instances: dict[str, Game] = {}


class UnknownGame(KeyError):
    """No game is registered under that slug."""


def get_game(slug: str) -> Game:
    """The game registered under `slug`; UnknownGame otherwise."""
    if slug not in _instances:
        try:
            target = GAMES[slug]
        except KeyError:
            raise UnknownGame(f"Unknown game {slug!r}. Known games: {', '.join(sorted(GAMES))}.") from None
        module_name, class_name = target.split(":")
        _instances[slug] = getattr(import_module(module_name), class_name)()
    return _instances[slug]


def all_games() -> list[Game]:
    """Every registered game, in registry order."""
    return [get_game(slug) for slug in GAMES]
