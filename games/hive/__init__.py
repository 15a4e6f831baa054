"""Hive, the base game (no expansions, no pillbug), with the tournament opening and UHP notation.

Each side has a queen bee, two spiders, two beetles, three grasshoppers and three soldier ants.
White moves first. A turn places a piece from hand (touching only your own colour, except the very
first two placements) or moves one of your pieces, which is allowed once your queen is placed. The
queen may not be placed on a side's first turn and must be placed by its fourth. A piece may not
move if lifting it splits the hive (One Hive), crawlers slide through no gap narrower than a piece
(freedom to move), beetles climb. You pass only when you have no legal move. A side whose queen is
surrounded on all six sides loses; both at once is a draw, and so is reaching `MAX_PLIES` turns
(GameBench's 250-turn cap). Actions are (piece, q, r) in axial coordinates, or `PASS`.
"""

from __future__ import annotations

from typing import Any

from games.base import Game, IllegalAction, Outcome
from games.hive.board import PIECES, axial_of
from games.hive.notation import (
    PASS_TEXT,
    PIECE_NAMES,
    NotationError,
    game_string,
    move_string,
    parse_move_string,
    split_game_string,
)
from games.hive.player_views import board_view
from games.hive.state import (
    COLOURS,
    MAX_PLIES,
    PASS,
    Action,
    HiveState,
    Position,
    attach,
    board_move,
    board_of,
    position_of,
)
from games.hive.text import RULES_TEXT, observation_text


class Hive(Game[HiveState, Action]):
    slug = "hive"
    name = "Hive"
    seat_names = COLOURS

    def initial_state(self, *, seed: int, **options: Any) -> HiveState:
        if options:
            raise ValueError(f"hive takes no options, got {sorted(options)}")
        return HiveState(seed=seed, ply=0, pieces=((),) * PIECES)

    def current_player(self, state: HiveState) -> int | None:
        return None if position_of(state).outcome is not None else state.ply % 2

    def legal_actions(self, state: HiveState) -> list[Action]:
        position = position_of(state)
        return [] if position.outcome is not None else list(position.legal)

    def is_legal(self, state: HiveState, action: Action) -> bool:
        position = position_of(state)
        if position.outcome is not None or not isinstance(action, tuple):
            return False
        try:
            return action in position.legal
        except TypeError:  # an unhashable action is no action at all
            return False

    def random_action(self, state: HiveState, rng: Any) -> Action:
        position = position_of(state)
        if position.outcome is not None:
            raise IllegalAction("The game is over; no more moves can be made.")
        return position.draw(rng)

    def apply(self, state: HiveState, action: Action) -> HiveState:
        position = position_of(state)
        drawn = position.drawn
        if drawn is not None and drawn[0] == action and position.outcome is None:
            move = drawn[1]  # just drawn from the legal moves: no lookup
        else:
            self.require_legal(state, action)
            move = position.legal[action]
        board = position.board
        text = move_string(board, move)
        pieces = list(state.pieces)
        last: tuple[int, ...] = ()
        child = board.copy()
        if move is not None:
            piece, q, r = action
            last = (q, r, *pieces[piece][:2])
            pieces[piece] = (q, r, board.height(move[1]))
        child.make(move)
        after = HiveState(
            seed=state.seed, ply=state.ply + 1, pieces=tuple(pieces), moves=(*state.moves, text), last=last
        )
        return attach(after, Position(child))

    def outcome(self, state: HiveState) -> Outcome | None:
        return position_of(state).outcome

    # -- record --------------------------------------------------------------------------

    def to_json(self, state: HiveState) -> dict[str, Any]:
        return {
            "seed": state.seed,
            "ply": state.ply,
            "pieces": [list(spot) for spot in state.pieces],
            "moves": list(state.moves),
            "last": list(state.last),
        }

    def from_json(self, data: dict[str, Any]) -> HiveState:
        return HiveState(
            seed=int(data["seed"]),
            ply=int(data["ply"]),
            pieces=tuple(tuple(int(v) for v in spot) for spot in data["pieces"]),
            moves=tuple(str(m) for m in data.get("moves", ())),
            last=tuple(int(v) for v in data.get("last", ())),
        )

    # -- UHP notation --------------------------------------------------------------------

    def action_to_text(self, state: HiveState, action: Action) -> str:
        """The UHP MoveString: 'wA1' (first move), 'bG1 wA1-', 'wB1 bQ' (climbing), 'pass'."""
        return move_string(position_of(state).board, board_move(action))

    def parse_action(self, state: HiveState, text: str) -> Action:
        """Reads one UHP MoveString; any neighbouring piece may serve as the reference."""
        cleaned = text.strip().strip("`'\".").strip()
        try:
            move = parse_move_string(position_of(state).board, cleaned)
        except NotationError as error:
            raise IllegalAction(str(error)) from None
        if move is None:
            return PASS
        return (move[0], *axial_of(move[1]))

    def game_string(self, state: HiveState) -> str:
        """The UHP GameString of the game so far, e.g. 'Base;InProgress;White[2];wA1;bG1 wA1-'."""
        outcome = self.outcome(state)
        if outcome is None:
            status = "NotStarted" if state.ply == 0 else "InProgress"
        elif outcome.winner is None:
            status = "Draw"
        else:
            status = f"{COLOURS[outcome.winner]}Wins"
        return game_string(state.moves, status)

    def from_game_string(self, text: str, *, seed: int = 0) -> HiveState:
        """The state a UHP GameString (or a bare 'Base') describes; IllegalAction names the first illegal move."""
        try:
            moves = split_game_string(text)
        except NotationError as error:
            raise IllegalAction(str(error)) from None
        state = self.initial_state(seed=seed)
        for number, move in enumerate(moves, start=1):
            try:
                state = self.apply(state, self.parse_action(state, move))
            except IllegalAction as error:
                raise IllegalAction(f"Move {number} ({move!r}): {error}") from None
        return state

    # -- UI ------------------------------------------------------------------------------

    def action_cells(self, state: HiveState, action: Action) -> tuple[str, ...]:
        """Click the piece (a hand piece or a stack on the board), then where it goes; a pass is one button."""
        if action == PASS:
            return ("pass",)
        piece, q, r = action
        spot = state.pieces[piece]
        source = f"{spot[0]},{spot[1]}" if spot else f"hand-{PIECE_NAMES[piece][:2]}"
        return (source, f"{q},{r}")

    # -- text for people and models ------------------------------------------------------

    def rules_text(self) -> str:
        return RULES_TEXT

    def observation_text(self, state: HiveState, player: int) -> str:
        texts = [self.action_to_text(state, a) for a in self.legal_actions(state)]
        return observation_text(state, player, texts)

    def player_view(self, state: HiveState, player: int | None) -> dict[str, Any]:
        """Adds the hex cells (stacks and the empty cells next to the hive) with SVG centres, and both hands."""
        return {**self.to_json(state), **board_view(state, self.legal_actions(state))}


__all__ = ["MAX_PLIES", "PASS", "PASS_TEXT", "Hive", "HiveState", "board_of"]
