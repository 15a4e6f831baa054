"""Stratego: 10×10, 40 pieces a side, lakes, a setup phase, hidden ranks revealed in battle.

Red (seat 0) submits its setup at ply 0 and Blue (seat 1) at ply 1 — a 40-character setup string
or `random` (a setup drawn from the state's RNG, so the same seed gives the same setup to the same
seat) — then Red moves first. The `placement` option skips that phase and places both armies before the
first move (DSGBench's two scenarios): `random` draws both setups as that answer would, `fixed` gives both
sides `FIXED_SETUP`. The game ends when a flag is captured, when the player to move has
no legal move (that player loses), or in a draw after `MAX_PLAY_PLIES` moves in all or
`MAX_QUIET_PLIES` moves in a row without an attack. Rule choices are in docs/games.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from games.base import Game, IllegalAction, Outcome
from games.stratego.pieces import (
    ATTACKER_WINS,
    BOTH_LOSE,
    CODES,
    FLAG,
    NAMES,
    UNKNOWN,
    has_moved,
    is_revealed,
    label,
    owner_of,
    rank_of,
)
from games.stratego.rules import (
    LAKES,
    Move,
    cell_index,
    cell_name,
    forbidden_move,
    moves,
    parse_setup,
    place_setup,
    random_setup,
    resolve,
)
from games.stratego.text import board_text, rules_text

SETUP_PLIES = 2
MAX_PLAY_PLIES = 2000  # 1,000 moves each
MAX_QUIET_PLIES = 300  # 150 moves each without an attack
RANDOM_SETUP = "random"
#: The setup both armies take under `placement="fixed"` (DSGBench's "fix" board layout; its layout is not
#: published, so this is Arena's: a plausible one, Flag on the back row behind Bombs).
FIXED_SETUP = "9632872643/7634S58255/3262BB4B25/3BM4BFB722"
#: `placement` option values: who sets the armies up. "chosen": each side in the setup phase (the default).
PLACEMENTS = ("chosen", "random", "fixed")
LOG_LINES = 40
SIDES = ("Red", "Blue")


@dataclass(frozen=True)
class StrategoState:
    seed: int
    ply: int
    board: tuple[int, ...]  # 100 cells, see games.stratego.pieces
    recent: tuple[tuple[Move, ...], tuple[Move, ...]]  # each seat's last three moves (two-square rule)
    quiet: int  # plies since the last attack
    captured: tuple[str, str]  # codes of the pieces each seat has lost (public: battles reveal them)
    log: tuple[str, ...]  # the last LOG_LINES public events
    last: tuple[int, ...]  # (from, to) of the last move, () before any
    flag_taken_by: int  # the seat that captured a flag, -1 while none has


Action = str | tuple[int, int]


@lru_cache(maxsize=512)
def _moves(board: tuple[int, ...], seat: int, recent: tuple[Move, ...]) -> tuple[Move, ...]:
    return tuple(moves(board, seat, recent))


class Stratego(Game[StrategoState, Action]):
    slug = "stratego"
    name = "Stratego"
    seat_names = SIDES
    hidden_information = True
    chance = True  # only the random setups

    variants = {"random-placement": {"placement": "random"}, "fixed-placement": {"placement": "fixed"}}

    def initial_state(self, *, seed: int, **options: Any) -> StrategoState:
        placement = options.pop("placement", "chosen")
        if options:
            raise ValueError(f"stratego takes only the option 'placement', got {sorted(options)}")
        if placement not in PLACEMENTS:
            raise ValueError(f"placement must be one of {', '.join(PLACEMENTS)}, got {placement!r}")
        state = StrategoState(seed, 0, (0,) * 100, ((), ()), 0, ("", ""), (), (), -1)
        if placement == "chosen":
            return state
        setup = RANDOM_SETUP if placement == "random" else FIXED_SETUP
        for _ in range(SETUP_PLIES):  # both armies placed as their setup answers would place them
            state = self.apply(state, setup)
        return replace(state, log=(f"Both armies placed ({placement} placement).",))

    def in_setup(self, state: StrategoState) -> bool:
        return state.ply < SETUP_PLIES

    def moves(self, state: StrategoState) -> tuple[Move, ...]:
        seat = state.ply % 2
        return _moves(state.board, seat, state.recent[seat])

    def _over(self, state: StrategoState) -> Outcome | None:
        if self.in_setup(state):
            return None
        if state.flag_taken_by >= 0:
            return Outcome.win(state.flag_taken_by, f"{SIDES[state.flag_taken_by]} captured the flag")
        if state.ply - SETUP_PLIES >= MAX_PLAY_PLIES:
            return Outcome.draw(f"move limit: {MAX_PLAY_PLIES // 2:,} moves each")
        if state.quiet >= MAX_QUIET_PLIES:
            return Outcome.draw(f"{MAX_QUIET_PLIES // 2} moves each without an attack")
        seat = state.ply % 2
        if not self.moves(state):
            return Outcome.win(1 - seat, f"{SIDES[seat]} cannot move")
        return None

    def current_player(self, state: StrategoState) -> int | None:
        return None if self._over(state) else state.ply % 2

    def outcome(self, state: StrategoState) -> Outcome | None:
        return self._over(state)

    def legal_actions(self, state: StrategoState) -> list[Action]:
        if self.current_player(state) is None:
            return []
        if self.in_setup(state):
            return [RANDOM_SETUP]
        return list(self.moves(state))

    def is_legal(self, state: StrategoState, action: Action) -> bool:
        if self.current_player(state) is None:
            return False
        if self.in_setup(state):
            if not isinstance(action, str):
                return False
            if action == RANDOM_SETUP:
                return True
            try:
                return parse_setup(action) == action
            except ValueError:
                return False
        return isinstance(action, tuple) and action in self.moves(state)

    def require_legal(self, state: StrategoState, action: Action) -> None:
        if self.current_player(state) is not None and not self.in_setup(state):
            seat = state.ply % 2
            if isinstance(action, tuple) and action == forbidden_move(state.recent[seat]):
                raise IllegalAction(
                    f"{self.action_to_text(state, action)} would move this piece between the same two squares a "
                    "fourth time in a row (two-square rule); move another piece or somewhere else."
                )
        super().require_legal(state, action)

    def apply(self, state: StrategoState, action: Action) -> StrategoState:
        self.require_legal(state, action)
        seat = state.ply % 2
        if self.in_setup(state):
            setup = random_setup(self.rng(state)) if action == RANDOM_SETUP else action
            board = place_setup(state.board, seat, setup)
            line = f"{SIDES[seat]} set up ({'random' if action == RANDOM_SETUP else 'own'} setup)."
            return StrategoState(state.seed, state.ply + 1, board, state.recent, 0, state.captured, (line,), (), -1)
        frm, to = action
        attacker_cell = state.board[frm]
        defender_cell = state.board[to]
        board, battle = resolve(state.board, frm, to)
        recent = list(state.recent)
        recent[seat] = (*state.recent[seat], (frm, to))[-3:]
        captured = list(state.captured)
        flag_taken_by = -1
        mover = f"{SIDES[seat]} {cell_name(frm)}{'x' if battle else '-'}{cell_name(to)}"
        if battle is None:
            line = mover
            if abs(to - frm) not in (1, 10):
                line += " (a Scout, revealed by its long move)"
        else:
            attacker, defender, result = battle
            line = f"{mover}: {SIDES[seat]} {label(attacker)} attacks {SIDES[1 - seat]} {label(defender)}"
            if result in (ATTACKER_WINS, BOTH_LOSE):
                captured[1 - seat] = "".join(sorted(captured[1 - seat] + CODES[rank_of(defender_cell)]))
            if result != ATTACKER_WINS:
                captured[seat] = "".join(sorted(captured[seat] + CODES[rank_of(attacker_cell)]))
            line += {ATTACKER_WINS: ", attacker wins", BOTH_LOSE: ", both removed"}.get(result, ", defender wins")
            if defender == FLAG:
                flag_taken_by = seat
                line += ": the flag is captured"
        move_number = (state.ply - SETUP_PLIES) // 2 + 1
        log = (*state.log, f"{move_number}. {line}")[-LOG_LINES:]
        return StrategoState(
            state.seed,
            state.ply + 1,
            board,
            (recent[0], recent[1]),
            0 if battle else state.quiet + 1,
            (captured[0], captured[1]),
            log,
            (frm, to),
            flag_taken_by,
        )

    # -- storage and notation ------------------------------------------------------------------

    def to_json(self, state: StrategoState) -> dict[str, Any]:
        return {
            "seed": state.seed,
            "ply": state.ply,
            "board": list(state.board),
            "recent": [[list(m) for m in seat] for seat in state.recent],
            "quiet": state.quiet,
            "captured": list(state.captured),
            "log": list(state.log),
            "last": list(state.last),
            "flag_taken_by": state.flag_taken_by,
        }

    def from_json(self, data: dict[str, Any]) -> StrategoState:
        recent = tuple(tuple((int(m[0]), int(m[1])) for m in seat) for seat in data["recent"])
        return StrategoState(
            seed=int(data["seed"]),
            ply=int(data["ply"]),
            board=tuple(int(c) for c in data["board"]),
            recent=(recent[0], recent[1]),
            quiet=int(data["quiet"]),
            captured=(str(data["captured"][0]), str(data["captured"][1])),
            log=tuple(str(line) for line in data["log"]),
            last=tuple(int(c) for c in data["last"]),
            flag_taken_by=int(data["flag_taken_by"]),
        )

    def public_action_text(self, text: str) -> str:
        """Moves are public; a setup names every piece's rank, so others only learn that one was made."""
        return text if re.fullmatch(r"[a-j]\d{1,2}[-x][a-j]\d{1,2}", text) else "setup (hidden)"

    def action_to_text(self, state: StrategoState, action: Action) -> str:
        if isinstance(action, str):
            return action
        frm, to = action
        return f"{cell_name(frm)}{'x' if state.board[to] else '-'}{cell_name(to)}"

    def action_from_json(self, data: Any) -> Action:
        return data if isinstance(data, str) else (int(data[0]), int(data[1]))

    def action_cells(self, state: StrategoState, action: Action) -> tuple[str, ...]:
        if isinstance(action, str):
            return ("random-setup",) if action == RANDOM_SETUP else ("setup",)
        return cell_name(action[0]), cell_name(action[1])

    def parse_action(self, state: StrategoState, text: str) -> Action:
        cleaned = text.strip().strip("`'\".")
        if cleaned.lower() in (RANDOM_SETUP, "random setup", "random-setup"):
            return RANDOM_SETUP
        match = re.fullmatch(r"\s*([a-jA-J](?:10|[1-9]))\s*(?:-|x|X|to|→|\s)\s*([a-jA-J](?:10|[1-9]))\s*", cleaned)
        if match:
            return cell_index(match[1]), cell_index(match[2])
        if len(re.sub(r"[\s/,|]", "", cleaned)) >= 30:
            try:
                return parse_setup(cleaned)
            except ValueError as error:
                raise IllegalAction(str(error)) from None
        raise IllegalAction(
            f"Could not read {text.strip()!r}; write a move as from-to squares (e.g. b4-b5, or b4xb5 to attack), "
            "or during setup a 40-character setup string or 'random'."
        )

    # -- views ---------------------------------------------------------------------------------

    def _rows(self, state: StrategoState, viewer: int | None, reveal: bool) -> list[dict[str, Any]]:
        """Board rows top to bottom as `viewer` sees them; each seat sees its own side at the bottom."""
        rows = range(10) if viewer == 1 else range(9, -1, -1)
        cols = range(9, -1, -1) if viewer == 1 else range(10)
        out = []
        for row in rows:
            cells = []
            for col in cols:
                index = row * 10 + col
                cell = state.board[index]
                info: dict[str, Any] = {"name": cell_name(index), "lake": index in LAKES, "side": "", "code": ""}
                if cell:
                    owner = owner_of(cell)
                    known = reveal or owner == viewer or is_revealed(cell)
                    info.update(
                        side=SIDES[owner].lower(),
                        code=CODES[rank_of(cell)] if known else "",
                        title=f"{SIDES[owner]} {NAMES[rank_of(cell)] if known else 'hidden piece'}",
                        revealed=is_revealed(cell),
                        moved=has_moved(cell),
                    )
                info["last"] = index in state.last
                cells.append(info)
            out.append({"rank": row + 1, "cells": cells})
        return out

    def _view(self, state: StrategoState, viewer: int | None, reveal: bool) -> dict[str, Any]:
        outcome = self._over(state)
        to_act = None if outcome else state.ply % 2
        view: dict[str, Any] = {
            "viewer": viewer,
            "sides": [s.lower() for s in SIDES],
            "phase": "over" if outcome else "setup" if self.in_setup(state) else "play",
            "to_act": to_act,
            "to_act_name": SIDES[to_act] if to_act is not None else "",
            "rows": self._rows(state, viewer, reveal),
            "files": list("abcdefghij"[::-1] if viewer == 1 else "abcdefghij"),
            "captured": [list(c) for c in state.captured],
            "move_number": max(0, (state.ply - SETUP_PLIES) // 2 + 1),
            "quiet": state.quiet,
            "log": list(state.log[-8:]),
            "last": [cell_name(c) for c in state.last],
            "result": outcome.reason if outcome else "",
        }
        if reveal:
            view["seed"] = state.seed
        return view

    def observed_board(self, state: StrategoState, seat: int) -> tuple[int, ...]:
        """The board as `seat` knows it: the other side's hidden pieces have rank UNKNOWN (their moved flag stays)."""
        return tuple(
            cell if not cell or owner_of(cell) == seat or is_revealed(cell) else (cell & ~15) | (1 + UNKNOWN)
            for cell in state.board
        )

    def player_view(self, state: StrategoState, player: int | None) -> dict[str, Any]:
        # No seed here: it determines any random setup.
        return self._view(state, player, reveal=False)

    def full_view(self, state: StrategoState) -> dict[str, Any]:
        return self._view(state, None, reveal=True)

    def public_history(self, state: StrategoState) -> str:
        return "\n".join(state.log)

    def observation_text(self, state: StrategoState, player: int) -> str:
        side = SIDES[player]
        if self.in_setup(state):
            rows = "ranks 4, 3, 2, 1" if player == 0 else "ranks 7, 8, 9, 10"
            return (
                f"You are {side}. Setup phase: submit your setup as 40 piece codes for {rows} "
                "(front row first, files a→j within a row; e.g. four groups of ten joined by '/'), or 'random'."
            )
        lines = [f"You are {side} ({'lower-case r' if player == 0 else 'lower-case b'} on the board).", ""]
        lines.append(board_text(state.board, player))
        lost = [f"{SIDES[s]} has lost: {' '.join(state.captured[s]) or 'nothing'}" for s in (0, 1)]
        lines += ["", *lost, f"Moves without an attack: {state.quiet // 2} (draw at {MAX_QUIET_PLIES // 2})."]
        if state.log:
            lines.append(f"Last event: {state.log[-1]}")
        return "\n".join(lines)

    def rules_text(self) -> str:
        return rules_text(MAX_PLAY_PLIES, MAX_QUIET_PLIES)
