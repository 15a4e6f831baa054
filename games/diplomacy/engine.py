"""The adjudicator: the `diplomacy` package (DATC-compliant, AGPL-3.0), wrapped so our states stay immutable data.

Our state keeps the resolved phases' orders; the package's mutable game object is rebuilt from them by replay
and cached per history; boards (what views and rules read) are cached apart as immutable data.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from diplomacy import Game as EngineGame

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
MAP_NAME = "standard"
CACHE_SIZE = 64
# One resolved phase: its name and each power's executed orders, in POWERS order.
Phase = tuple[str, tuple[tuple[str, ...], ...]]


@dataclass(frozen=True)
class Board:
    """What the board shows after a history: phase name, units and centres per power, and what each may order."""

    phase: str  # "S1901M", "F1901R", "W1901A", or "COMPLETED"
    units: tuple[tuple[str, ...], ...]  # per power: "A PAR", "F STP/SC"; a dislodged unit (retreats) "*A VEN"
    centres: tuple[tuple[str, ...], ...]
    builds: tuple[int, ...]  # adjustment phase: builds (>0) or disbands (<0) owed per power
    options: tuple[tuple[tuple[str, tuple[str, ...]], ...], ...]  # per power: (location, its possible orders)
    winner: int  # the power with 18 centres, or -1


_games: OrderedDict[tuple[Phase, ...], EngineGame] = OrderedDict()


def new_engine_game() -> EngineGame:
    """The package's game at its start. Imported here: the package takes a quarter of a second to load, which no
    process pays for until it adjudicates."""
    from diplomacy import Game

    return Game(map_name=MAP_NAME)


def engine_game(history: tuple[Phase, ...]) -> EngineGame:
    """The package's game after `history` (shared: callers must not mutate it)."""
    if history in _games:
        _games.move_to_end(history)
        return _games[history]
    # Copying a played engine game costs more than replaying it, so the longest cached prefix is taken over
    # and advanced in place (its board stays in `board`'s cache); a branch that needs it again replays.
    for cut in range(len(history) - 1, -1, -1):
        if history[:cut] in _games:
            game = _games.pop(history[:cut])
            break
    else:
        game, cut = new_engine_game(), 0
    for name, orders in history[cut:]:
        _advance(game, name, orders)
    _games[history] = game
    if len(_games) > CACHE_SIZE:
        _games.popitem(last=False)
    return game


def _advance(game: EngineGame, name: str, orders: tuple[tuple[str, ...], ...]) -> None:
    if game.get_current_phase() != name:
        raise ValueError(f"history out of step: the engine is at {game.get_current_phase()}, not {name}")
    for power, power_orders in zip(POWERS, orders, strict=True):
        game.set_orders(power, list(power_orders))
    game.process()


@lru_cache(maxsize=256)
def board(history: tuple[Phase, ...]) -> Board:
    """The board after `history`."""
    game = engine_game(history)
    state = game.get_state()
    possible = game.get_all_possible_orders() if not game.is_game_done else {}
    options = []
    for power in POWERS:
        locations = game.get_orderable_locations(power) if not game.is_game_done else []
        options.append(tuple((loc, tuple(sorted(possible.get(loc, ())))) for loc in sorted(locations)))
    winner = -1
    for index, power in enumerate(POWERS):
        if len(state["centers"][power]) >= 18:
            winner = index
    return Board(
        phase=game.get_current_phase(),
        units=tuple(tuple(sorted(state["units"][p])) for p in POWERS),
        centres=tuple(tuple(sorted(state["centers"][p])) for p in POWERS),
        builds=tuple(int(state["builds"][p]["count"]) for p in POWERS),
        options=tuple(options),
        winner=winner,
    )


def results(history: tuple[Phase, ...]) -> dict[str, list[str]]:
    """The last resolved phase's results per unit ('bounce', 'dislodged', 'cut', 'void'…), empty lists for success."""
    if not history:
        return {}
    game = engine_game(history)
    phase = game.get_phase_history()[-1]
    return {unit: [str(r) for r in found] for unit, found in phase.results.items()}


@lru_cache(maxsize=1)
def geography() -> tuple[dict[str, frozenset[str]], frozenset[str]]:
    """Province adjacency (coasts folded into their province, 'STP/SC' → 'STP') and the 34 supply centres."""
    engine_map = new_engine_game().map
    adjacent: dict[str, set[str]] = {}
    for loc, others in engine_map.loc_abut.items():
        adjacent.setdefault(loc[:3].upper(), set()).update(o[:3].upper() for o in others)
    return {k: frozenset(v - {k}) for k, v in adjacent.items()}, frozenset(engine_map.scs)
