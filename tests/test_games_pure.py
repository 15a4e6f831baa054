"""games/ must stay pure: importable and usable with Django unconfigured."""

from __future__ import annotations

import pkgutil

import games
from games.registry import REGISTRY
from tests.purity import import_contract, loaded_with


def test_every_games_module_imports_without_django():
    modules = sorted(m.name for m in pkgutil.walk_packages(games.__path__, "games."))
    assert "games.base" in modules
    leaked = loaded_with(modules, ("django",))
    assert leaked == [], f"games/ imported Django modules: {','.join(leaked)}"


def test_the_layers_contract_keeps_every_registered_game_apart_from_the_others():
    layers = import_contract("games-layers")["layers"]
    independent = [layer for layer in layers if "|" in layer]
    assert len(independent) == 1
    listed = sorted(name.strip() for name in independent[0].split("|"))
    registered = sorted(entry.game.split(":")[0].removeprefix("games.") for entry in REGISTRY.values())
    assert listed == registered
