"""The game contract every Arena game implements (docs/architecture.md, The game contract).

Games are pure Python: no Django, no I/O. States are immutable and carry their
`seed` and `ply`; all randomness comes from `Game.rng(state)`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar


class IllegalAction(ValueError):
    """An action that the rules do not allow; the message tells a person what to do instead."""


@dataclass(frozen=True)
class Outcome:
    """Final result: one score per seat (1 win, 0.5 draw, 0 loss) and why the game ended."""

    scores: tuple[float, ...]
    reason: str

    @property
    def winner(self) -> int | None:
        """The seat with the unique best score, or None for a draw."""
        best = max(self.scores)
        leaders = [seat for seat, score in enumerate(self.scores) if score == best]
        return leaders[0] if len(leaders) == 1 else None

    def to_json(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "reason": self.reason}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        return cls(scores=tuple(float(s) for s in data["scores"]), reason=str(data["reason"]))

    @classmethod
    def win(cls, winner: int, reason: str, num_players: int = 2) -> Outcome:
        return cls(tuple(1.0 if seat == winner else 0.0 for seat in range(num_players)), reason)

    @classmethod
    def draw(cls, reason: str, num_players: int = 2) -> Outcome:
        return cls(tuple(0.5 for _ in range(num_players)), reason)


def to_jsonable(value: Any) -> Any:
    """Tuples become lists, recursively, so a value can be stored as JSON."""
    if isinstance(value, (tuple, list)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: to_jsonable(v) for k, v in value.items()}
    return value


def from_jsonable(value: Any) -> Any:
    """Lists become tuples, recursively: the inverse of `to_jsonable` for tuple-built values."""
    if isinstance(value, list):
        return tuple(from_jsonable(v) for v in value)
    if isinstance(value, dict):
        return {k: from_jsonable(v) for k, v in value.items()}
    return value


class Game[S, A]:
    """Rules of one game. Subclasses are stateless; all state lives in `S`.

    A new game sets `slug` and `name` and writes the required methods: five for the rules (`initial_state`,
    `current_player`, `legal_actions`, `apply`, `outcome`), six for the record and for prompts (state JSON,
    action notation, rules and observation texts). Every other hook has a default that suits a two-player,
    perfect-information, turn-based game played by clicking cells; override only the groups your game needs:
    hidden information, timing, teams, documents/plans, UI. docs/architecture.md lists them with examples.
    """

    # -- identity ----------------------------------------------------------------------

    slug: ClassVar[str]
    name: ClassVar[str]
    num_players: ClassVar[int] = 2
    version: ClassVar[str] = "1"
    #: Seat names shown to people and models, e.g. ("X", "O") or ("White", "Black").
    seat_names: ClassVar[tuple[str, ...]] = ("first", "second")
    #: True when the rules draw random numbers (deals, dice) from the state's RNG.
    chance: ClassVar[bool] = False

    # -- required: the rules -----------------------------------------------------------

    def initial_state(self, *, seed: int, **options: Any) -> S:
        raise NotImplementedError

    def current_player(self, state: S) -> int | None:
        """The seat to act, or None when the game is over."""
        raise NotImplementedError

    def legal_actions(self, state: S) -> list[A]:
        """Legal actions in a deterministic order (empty when the game is over)."""
        raise NotImplementedError

    def apply(self, state: S, action: A) -> S:
        """The state after `action`; raises IllegalAction when it is not legal."""
        raise NotImplementedError

    def outcome(self, state: S) -> Outcome | None:
        """The result when the game is over, else None."""
        raise NotImplementedError

    # -- required: the record, notation and prompts ------------------------------------

    def to_json(self, state: S) -> dict[str, Any]:
        raise NotImplementedError

    def from_json(self, data: dict[str, Any]) -> S:
        raise NotImplementedError

    def action_to_text(self, state: S, action: A) -> str:
        """Canonical notation; `parse_action(state, action_to_text(state, a)) == a`."""
        raise NotImplementedError

    def parse_action(self, state: S, text: str) -> A:
        """Read an action written by a person or a model; IllegalAction when it is not one."""
        raise NotImplementedError

    def rules_text(self) -> str:
        """The rules, the board encoding and the answer format, for LLM prompts and help."""
        raise NotImplementedError

    def observation_text(self, state: S, player: int) -> str:
        """What `player` sees, as text for an LLM user prompt."""
        raise NotImplementedError

    # -- hidden information: what each viewer may see ---------------------------------

    #: True when `player_view` hides something from some viewer.
    hidden_information: ClassVar[bool] = False

    def player_view(self, state: S, player: int | None) -> dict[str, Any]:
        """What `player` (None: a spectator) may see. Perfect-information games show all."""
        return self.to_json(state)

    def full_view(self, state: S) -> dict[str, Any]:
        """Everything, hidden parts included: for replays of finished matches. Hidden-information games override."""
        return self.player_view(state, None)

    def shown_to_move(self, state: S, viewer: int | None) -> int | None:
        """Whose turn it is as `viewer` (a seat, None for spectators) may know it while the match runs.

        Games whose turn order gives secrets away (Werewolf's night: wolves, then seer, then doctor)
        answer None for viewers who must not know.
        """
        return self.current_player(state)

    def public_action_text(self, text: str) -> str:
        """How another seat's action reads to others while the match runs (a plan or a setup stays hidden)."""
        return text

    def public_history(self, state: S) -> str:
        """The public actions so far, as text for LLM prompts in hidden-information games ('' if none)."""
        return ""

    # -- timing: real-time play --------------------------------------------------------

    def clock_runs(self, state: S) -> bool:
        """True in real-time play, where thinking time changes what an action does (see `arrival`)."""
        return False

    def arrival(self, state: S, action: A, thinking_s: float) -> A:
        """The action as it takes effect after `thinking_s` of thought: real-time games stamp its arrival."""
        return action

    # -- teams -------------------------------------------------------------------------

    #: True when the deal decides the teams in secret (Werewolf, Traitor, Two Rooms): `team_of` then reads hidden
    #: roles, so nothing public (who sits where) may be derived from it. False: sides follow from seats and options.
    hidden_teams: ClassVar[bool] = False

    def teams_dealt(self, options: dict[str, Any]) -> bool:
        """Whether the deal picks the teams in secret under these options (`hidden_teams`, unless an option seats
        them: Werewolf's `teams="seated"`)."""
        return self.hidden_teams

    def team_of(self, state: S, seat: int) -> int:
        """The side (0 or 1) a seat plays for: the seat itself in two-player games; teams in Codenames, Werewolf."""
        return seat

    # -- ladders ----------------------------------------------------------------------

    def ladder_scores(self, state: S) -> tuple[float, ...]:
        """Per-seat scores a ladder step is measured on (games/bots/calibration): the outcome's, unless the game
        decides games its outcome leaves drawn (docs/games.md then says how)."""
        return self.outcome(state).scores  # type: ignore[union-attr]

    # -- documents and plans -----------------------------------------------------------

    #: True when an action is a JSON document (a plan), so a model's answer is the reply's last JSON object.
    document_actions: ClassVar[bool] = False

    def decision_info(self, state: S, action: A) -> dict[str, Any]:
        """Extra facts the record stores with a decision: plan games give `round`, `revised`, `plan_similarity`."""
        return {}

    # -- the move list: how the record reads to people ---------------------------------

    def action_label(self, state: S, action: A) -> str:
        """How `action`, played in `state`, reads in a move list: the game's own notation (SAN), a plan's summary."""
        return self.action_to_text(state, action)

    def round_label(self, state: S) -> str:
        """The hand, round or phase a move made in `state` belongs to ("Hand 2", "Night 1"); '' when the game has
        none. Public: every viewer sees it."""
        return ""

    # -- UI: how people play it in the browser -----------------------------------------

    #: True when the game ships static/games/<slug>.js for its play page (plan editors, bet controls),
    #: and templates/games/<slug>/controls.html, shown to the player to move instead of board clicks alone.
    has_controls: ClassVar[bool] = False
    #: Move lists number moves in pairs, as players count them ("12. Qa4 Qb5"), not one number a ply.
    full_move_numbers: ClassVar[bool] = False
    #: A stylesheet several games share (static/games/<name>.css), linked once before their own.
    shared_stylesheet: ClassVar[str | None] = None

    def action_cells(self, state: S, action: A) -> tuple[str, ...]:
        """The board cells a person clicks, in order, to make `action` in the browser.

        Each renderer marks clickable cells with `data-cell="<name>"`; the play page
        matches the clicked sequence against the legal actions' cells.
        """
        return (self.action_to_text(state, action),)

    # -- replays: how a recorded match steps ------------------------------------------

    def turns(self, state: S) -> list[tuple[str, int]]:
        """The turns played up to `state`, oldest first, as (name, plies taken in it), the plies summing to its
        ply: a replay steps a turn at a time (Diplomacy's phases, whose powers seal orders one after another).
        [] (the default): every ply is a step of its own."""
        return []

    # -- variants: rule options chosen per match and rated apart ------------------------

    #: Named variants: name -> `initial_state` options (the rules' defaults are the "standard" variant
    #: and need no entry), e.g. Skirmish's {"real-time": {"mode": "real-time"}}. Each is its own leaderboard.
    variants: ClassVar[dict[str, dict[str, Any]]] = {}

    def variant_of(self, options: dict[str, Any]) -> str:
        """The variant `options` select: the first whose options they all contain, "" for the standard rules."""
        for name, chosen in self.variants.items():
            if all(options.get(key) == value for key, value in chosen.items()):
                return name
        return ""

    # -- derived defaults: rarely overridden (speed, actions that are not tuples) ------

    def is_terminal(self, state: S) -> bool:
        return self.current_player(state) is None

    def is_legal(self, state: S, action: A) -> bool:
        return action in self.legal_actions(state)

    def random_action(self, state: S, rng: random.Random) -> A:
        return rng.choice(self.legal_actions(state))

    def rng(self, state: S) -> random.Random:
        """The state's own RNG: a function of its seed and ply only."""
        return random.Random(state.seed * 1_000_003 + state.ply)  # type: ignore[attr-defined]

    def action_to_json(self, action: A) -> Any:
        return to_jsonable(action)

    def action_from_json(self, data: Any) -> A:
        return from_jsonable(data)

    def require_legal(self, state: S, action: A) -> None:
        """Raise IllegalAction unless `action` is legal in `state`."""
        if self.current_player(state) is None:
            raise IllegalAction("The game is over; no more moves can be made.")
        if not self.is_legal(state, action):
            raise IllegalAction(
                f"{self.describe_action(state, action)} is not a legal move here. {self.legal_summary(state)}"
            )

    def legal_summary(self, state: S, limit: int = 24) -> str:
        """A short 'Legal moves: …' sentence for error messages."""
        texts = [self.action_to_text(state, a) for a in self.legal_actions(state)]
        shown = ", ".join(texts[:limit])
        more = f" and {len(texts) - limit} more" if len(texts) > limit else ""
        return f"Legal moves: {shown}{more}."

    def describe_action(self, state: S, action: A) -> str:
        try:
            return repr(self.action_to_text(state, action))
        except Exception:  # an action so malformed it has no text
            return repr(action)
