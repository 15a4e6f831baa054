"""Every playable game, by slug."""

from __future__ import annotations

from importlib import import_module

from games.base import Game

# slug -> "module:Class"; modules load lazily so one broken game cannot hide the others.
GAMES: dict[str, str] = {
    "tic-tac-toe": "games.tictactoe:TicTacToe",
    "connect-four": "games.connect_four:ConnectFour",
    "gomoku": "games.gomoku:Gomoku",
    "reversi": "games.reversi:Reversi",
    "ataxx": "games.ataxx:Ataxx",
    "chess": "games.chess_game:Chess",
    "santorini": "games.santorini:Santorini",
    "tower-defense": "games.tower_defense:TowerDefense",
    "battle-card": "games.battle_card:BattleCard",
    "attribute-battle": "games.attribute_battle:AttributeBattle",
    "kuhn-poker": "games.kuhn_poker:KuhnPoker",
    "leduc-holdem": "games.leduc_holdem:LeducHoldem",
    "holdem": "games.holdem:Holdem",
    "codenames": "games.codenames:Codenames",
    "werewolf": "games.werewolf:Werewolf",
    "skirmish": "games.skirmish:Skirmish",
    "stratego": "games.stratego:Stratego",
    "fight-the-landlord": "games.fight_the_landlord:FightTheLandlord",
    "mahjong": "games.mahjong:Mahjong",
    "diplomacy": "games.diplomacy:Diplomacy",
    "sea-battle": "games.sea_battle:SeaBattle",
    "hive": "games.hive:Hive",
    "air-land-sea": "games.air_land_sea:AirLandSea",
    "are-you-the-traitor": "games.traitor:AreYouTheTraitor",
    "pit": "games.pit:Pit",
    "arctic-scavengers": "games.arctic_scavengers:ArcticScavengers",
    "two-rooms-and-a-boom": "games.two_rooms:TwoRoomsAndABoom",
}

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
