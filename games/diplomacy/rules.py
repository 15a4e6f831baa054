"""Diplomacy as DSGBench plays it: seven powers, sealed simultaneous orders, private negotiation, Welfare variant.

The `diplomacy` package adjudicates (engine.py); this module adds the seats, the sealing of orders one power at a
time, the message rounds and the scoring. An action is one power's order set for the phase, plus its messages.
See docs/games.md for every rule choice.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Any

from games.base import Game, IllegalAction, Outcome
from games.diplomacy.engine import POWERS, Board, Phase, board

SEAT_NAMES = tuple(p.capitalize() for p in POWERS)
ALL = "ALL"
MAX_MESSAGE = 1000
DEFAULT_MESSAGE_ROUNDS = 2
DEFAULT_MAX_YEAR = 1910
VICTORY_CENTRES = 18
MESSAGE_TEMPLATES = (
    "I propose we do not attack each other this year.",
    "Will you support my move?",
    "I am holding my position; no threat to you.",
)
# phase, round, sender, recipient (-1: all powers), text
Message = tuple[str, int, int, int, str]
# (orders, messages): orders sorted, messages as (recipient name, text) sorted by recipient
Action = tuple[tuple[str, ...], tuple[tuple[str, str], ...]]


@dataclass(frozen=True)
class DiplomacyState:
    seed: int
    ply: int
    welfare: bool  # the Welfare Diplomacy variant: no solo victory, the most welfare points wins
    max_year: int  # the game ends after this year's Winter adjustments
    message_rounds: int  # message rounds per movement phase (0–2); the last round's orders are executed
    history: tuple[Phase, ...]  # every resolved phase: its name and each power's executed orders
    round: int  # the current round of sealing within the phase, from 0
    pending: tuple[int, ...]  # powers still to seal this round, the first acts now
    sealed: tuple[tuple[str, ...], ...]  # this round's sealed orders per power (hidden until the phase resolves)
    messages: tuple[Message, ...]  # every message; a round's messages are delivered when the round closes
    points: tuple[int, ...]  # welfare points per power: centres − units, summed at the end of each year
    over: bool


def year_of(phase: str) -> int:
    return int(phase[1:5])


def kind_of(phase: str) -> str:
    """'M' movement, 'R' retreats, 'A' adjustments."""
    return phase[-1]


def power_of(name: str) -> int | None:
    """'France', 'FRA', 'france' → seat 2; None otherwise."""
    key = name.strip().upper()
    for seat, power in enumerate(POWERS):
        if key in (power, power[:3]):
            return seat
    return None


def normalise_order(text: str) -> str:
    """'a wal-lvp' → 'A WAL - LVP': upper case, single spaces, spaces around '-'."""
    return " ".join(text.upper().replace("-", " - ").split())


class DiplomacyRules(Game[DiplomacyState, Action]):
    """The rules, the record and the notation; player_views.py adds what each viewer sees and the prompts."""

    slug = "diplomacy"
    name = "Diplomacy"
    num_players = 7
    seat_names = SEAT_NAMES
    hidden_information = True
    has_controls = True
    #: A model answers as DSGBench's agents do, with a JSON object; its reply's last one is the action.
    document_actions = True
    variants = {"welfare": {"welfare": True}}

    def initial_state(self, *, seed: int, **options: Any) -> DiplomacyState:
        welfare = options.pop("welfare", False)
        max_year = options.pop("max_year", DEFAULT_MAX_YEAR)
        rounds = options.pop("message_rounds", DEFAULT_MESSAGE_ROUNDS)
        if options:
            raise ValueError(f"diplomacy takes the options welfare, max_year, message_rounds; got {sorted(options)}")
        if not isinstance(welfare, bool):
            raise ValueError(f"welfare must be true or false, got {welfare!r}")
        if not isinstance(max_year, int) or not 1901 <= max_year <= 1950:
            raise ValueError(f"max_year must be a year from 1901 to 1950, got {max_year!r}")
        if not isinstance(rounds, int) or not 0 <= rounds <= 2:
            raise ValueError(f"message_rounds must be 0, 1 or 2, got {rounds!r}")
        empty = ((),) * len(POWERS)
        state = DiplomacyState(seed, 0, welfare, max_year, rounds, (), 0, (), empty, (), (0,) * len(POWERS), False)
        return replace(state, pending=self.actors(board(())))

    # -- phases ------------------------------------------------------------------------

    def board(self, state: DiplomacyState) -> Board:
        return board(state.history)

    def actors(self, now: Board) -> tuple[int, ...]:
        """Powers with something to order this phase: units to move or retreat, builds or disbands owed."""
        if kind_of(now.phase) == "A":
            return tuple(s for s in range(len(POWERS)) if now.builds[s] and now.options[s])
        return tuple(s for s in range(len(POWERS)) if now.options[s])

    def rounds_in(self, state: DiplomacyState, phase: str) -> int:
        return max(1, state.message_rounds) if kind_of(phase) == "M" else 1

    def talking(self, state: DiplomacyState) -> bool:
        """True when messages may be sent now: movement phases of a game with message rounds."""
        return not state.over and kind_of(self.board(state).phase) == "M" and state.message_rounds > 0

    def current_player(self, state: DiplomacyState) -> int | None:
        return None if state.over else state.pending[0]

    def turns(self, state: DiplomacyState) -> list[tuple[str, int]]:
        """One turn per phase: each acting power seals once per round."""
        turns = []
        for index, (phase, _) in enumerate(state.history):
            turns.append((phase, self.rounds_in(state, phase) * len(self.actors(board(state.history[:index])))))
        if not state.over:
            now = self.board(state)
            acting = len(self.actors(now))
            done = state.round * acting + acting - len(state.pending)
            if done:
                turns.append((now.phase, done))
        return turns

    # -- actions -----------------------------------------------------------------------

    def order_locations(self, state: DiplomacyState, seat: int) -> dict[str, str]:
        """Every order `seat` may give now → the location it orders ('' for WAIVE)."""
        allowed = {order: loc for loc, orders in self.board(state).options[seat] for order in orders}
        if kind_of(self.board(state).phase) == "A" and self.board(state).builds[seat] > 0:
            allowed["WAIVE"] = ""
        return allowed

    def legal_actions(self, state: DiplomacyState) -> list[Action]:
        """Representative order sets: none (every unit holds, builds waived), and explicit holds in movement."""
        seat = self.current_player(state)
        if seat is None:
            return []
        actions: list[Action] = [((), ())]
        holds = tuple(sorted(o for o in self.order_locations(state, seat) if o.endswith(" H")))
        if holds:
            actions.append((holds, ()))
        return actions

    def action_problem(self, state: DiplomacyState, action: Action) -> str | None:
        seat = self.current_player(state)
        if seat is None:
            return "The game is over."
        if not (isinstance(action, tuple) and len(action) == 2 and all(isinstance(part, tuple) for part in action)):
            return f"{action!r} is not an order set."
        orders, messages = action
        allowed = self.order_locations(state, seat)
        used: set[str] = set()
        for order in orders:
            if order not in allowed:
                return f"{order!r} is not an order {SEAT_NAMES[seat]} can give now. {self.options_hint(state, seat)}"
            loc = allowed[order][:3]
            if loc and loc in used:
                return f"Two orders for the unit or centre at {loc}; give one order per unit."
            used.add(loc)
        now = self.board(state)
        if kind_of(now.phase) == "A" and len(orders) > abs(now.builds[seat]):
            verb = "build" if now.builds[seat] > 0 else "disband"
            return f"{SEAT_NAMES[seat]} may {verb} {abs(now.builds[seat])} unit(s) this winter, not {len(orders)}."
        if list(orders) != sorted(set(orders)):
            return "Orders must be listed once each, in sorted order (parse_action does this)."
        if messages and not self.talking(state):
            return "No messages now: powers negotiate only in movement phases (not in retreats or adjustments)."
        recipients = [recipient for recipient, _ in messages]
        if recipients != sorted(set(recipients)):
            return "At most one message per recipient, sorted by recipient (parse_action does this)."
        for recipient, text in messages:
            if recipient != ALL and (power_of(recipient) is None or recipient not in SEAT_NAMES):
                return f"{recipient!r} is not a power; write to one of {', '.join(SEAT_NAMES)} or to ALL."
            if recipient == SEAT_NAMES[seat]:
                return "You cannot write to yourself."
            if not text or text != " ".join(text.split()) or len(text) > MAX_MESSAGE:
                return f"A message is one line of 1 to {MAX_MESSAGE} characters."
        return None

    def options_hint(self, state: DiplomacyState, seat: int) -> str:
        options = self.board(state).options[seat]
        shown = "; ".join(f"{loc}: {', '.join(orders[:4])}{' …' if len(orders) > 4 else ''}" for loc, orders in options)
        return f"Possible orders by location — {shown}."

    def legal_summary(self, state: DiplomacyState, limit: int = 24) -> str:
        """The possible orders of the power to act, by location (an order set cannot be listed whole)."""
        seat = self.current_player(state)
        return "" if seat is None else self.options_hint(state, seat)

    def is_legal(self, state: DiplomacyState, action: Action) -> bool:
        return self.action_problem(state, action) is None

    def require_legal(self, state: DiplomacyState, action: Action) -> None:
        problem = self.action_problem(state, action)
        if problem:
            raise IllegalAction("The game is over; no more moves can be made." if state.over else problem)

    def random_action(self, state: DiplomacyState, rng: Any) -> Action:
        """Uniform random orders (random builds or disbands up to the count), sometimes a templated message."""
        seat = self.current_player(state)
        if seat is None:
            raise IllegalAction("The game is over; no more moves can be made.")
        now = self.board(state)
        options = [orders for _, orders in now.options[seat]]
        if kind_of(now.phase) == "A":
            options = rng.sample(options, min(abs(now.builds[seat]), len(options)))
            orders = tuple(sorted(rng.choice([o for o in opts if o != "WAIVE"] or list(opts)) for opts in options))
        else:
            orders = tuple(sorted(rng.choice(opts) for opts in options))
        messages: tuple[tuple[str, str], ...] = ()
        if self.talking(state) and rng.random() < 0.3:
            recipient = rng.choice([n for i, n in enumerate(SEAT_NAMES) if i != seat] + [ALL])
            messages = ((recipient, rng.choice(MESSAGE_TEMPLATES)),)
        return orders, messages

    def apply(self, state: DiplomacyState, action: Action) -> DiplomacyState:
        self.require_legal(state, action)
        seat = state.pending[0]
        orders, messages = action
        now = self.board(state)
        sent = tuple(
            (now.phase, state.round, seat, -1 if to == ALL else SEAT_NAMES.index(to), text) for to, text in messages
        )
        sealed = tuple(orders if s == seat else o for s, o in enumerate(state.sealed))
        state = replace(
            state, ply=state.ply + 1, pending=state.pending[1:], sealed=sealed, messages=state.messages + sent
        )
        if state.pending:
            return state
        if state.round + 1 < self.rounds_in(state, now.phase):
            empty = ((),) * len(POWERS)
            return replace(state, round=state.round + 1, sealed=empty, pending=self.actors(now))
        return self._resolve(state, now)

    def _resolve(self, state: DiplomacyState, before: Board) -> DiplomacyState:
        history = (*state.history, (before.phase, state.sealed))
        after = board(history)
        points = state.points
        done = after.phase == "COMPLETED" or (after.winner >= 0 and not state.welfare)
        if done or year_of(after.phase) > year_of(before.phase):
            # the year is over (after the Winter adjustments, or skipped ones): each power banks centres − units
            points = tuple(p + len(c) - len(u) for p, c, u in zip(points, after.centres, after.units, strict=True))
        over = done or year_of(after.phase) > state.max_year
        empty = ((),) * len(POWERS)
        state = replace(state, history=history, round=0, sealed=empty, points=points, over=over)
        return replace(state, pending=() if over else self.actors(after))

    def outcome(self, state: DiplomacyState) -> Outcome | None:
        if not state.over:
            return None
        now = self.board(state)
        if state.welfare:
            best = max(state.points)
            leaders = [s for s, p in enumerate(state.points) if p == best]
            share = 1.0 if len(leaders) == 1 else 0.5
            scores = tuple(share if s in leaders else 0.0 for s in range(len(POWERS)))
            names = " and ".join(SEAT_NAMES[s] for s in leaders)
            return Outcome(scores, f"{names} scored the most welfare points ({best}) by the end of {state.max_year}")
        if now.winner >= 0:
            return Outcome.win(now.winner, f"{SEAT_NAMES[now.winner]} holds {VICTORY_CENTRES} supply centres", 7)
        # No solo victory by the cap: the unique centre leader wins, the other survivors draw, the eliminated lose.
        counts = [len(c) for c in now.centres]
        leaders = [s for s, n in enumerate(counts) if n == max(counts)]
        scores = tuple(1.0 if leaders == [s] else 0.5 if counts[s] else 0.0 for s in range(len(POWERS)))
        if len(leaders) == 1:
            reason = f"no solo victory by the end of {state.max_year}: {SEAT_NAMES[leaders[0]]} leads on centres"
        else:
            reason = f"no solo victory by the end of {state.max_year} and no single centre leader: survivors draw"
        return Outcome(scores, reason)

    # -- JSON and notation ---------------------------------------------------------------

    def to_json(self, state: DiplomacyState) -> dict[str, Any]:
        return {
            "seed": state.seed,
            "ply": state.ply,
            "welfare": state.welfare,
            "max_year": state.max_year,
            "message_rounds": state.message_rounds,
            "history": [[name, [list(o) for o in orders]] for name, orders in state.history],
            "round": state.round,
            "pending": list(state.pending),
            "sealed": [list(o) for o in state.sealed],
            "messages": [list(m) for m in state.messages],
            "points": list(state.points),
            "over": state.over,
        }

    def from_json(self, data: dict[str, Any]) -> DiplomacyState:
        return DiplomacyState(
            seed=int(data["seed"]),
            ply=int(data["ply"]),
            welfare=bool(data["welfare"]),
            max_year=int(data["max_year"]),
            message_rounds=int(data["message_rounds"]),
            history=tuple((str(n), tuple(tuple(str(o) for o in os) for os in orders)) for n, orders in data["history"]),
            round=int(data["round"]),
            pending=tuple(int(s) for s in data["pending"]),
            sealed=tuple(tuple(str(o) for o in orders) for orders in data["sealed"]),
            messages=tuple((str(p), int(r), int(s), int(t), str(x)) for p, r, s, t, x in data["messages"]),
            points=tuple(int(p) for p in data["points"]),
            over=bool(data["over"]),
        )

    def action_to_text(self, state: DiplomacyState, action: Action) -> str:
        orders, messages = action
        lines = ["orders: " + ("; ".join(orders) if orders else "none")]
        lines += [f"to {recipient}: {text}" for recipient, text in messages]
        return "\n".join(lines)

    def parse_action(self, state: DiplomacyState, text: str) -> Action:
        """Lines 'orders: A PAR - BUR; F BRE H' and 'to France: …' / 'to ALL: …', or DSGBench's JSON
        {"orders": [...], "messages": {"France": "...", "Global": "..."}}; bare order lines count as orders."""
        stripped = text.strip()
        if stripped.startswith("{"):
            return self._parse_json(state, stripped)
        orders: list[str] = []
        messages: dict[str, str] = {}
        for line in stripped.splitlines():
            line = line.strip().strip(",")
            if not line:
                continue
            head, colon, rest = line.partition(":")
            if colon and head.strip().lower() == "orders":
                orders += [o for o in re.split(r"[;,]", rest) if o.strip() and o.strip().lower() != "none"]
            elif colon and head.strip().lower().startswith("to "):
                messages[self._recipient(head.strip()[3:])] = rest
            elif re.fullmatch(r"(?i)([AF]\s+\S.*|WAIVE)", line):
                orders.append(line)
            else:
                raise IllegalAction(
                    f"Could not read {line[:80]!r}. Write 'orders: A PAR - BUR; F BRE H' (or one order per line) "
                    "and, in movement phases, messages as 'to France: …' or 'to ALL: …'."
                )
        return self._action(state, orders, messages)

    def _parse_json(self, state: DiplomacyState, text: str) -> Action:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise IllegalAction(f"Your answer is not valid JSON: {error}.") from None
        if not isinstance(data, dict):
            raise IllegalAction('Answer with a JSON object {"orders": [...], "messages": {...}}.')
        orders = data.get("orders", [])
        messages = data.get("messages") or {}
        if not isinstance(orders, list) or not all(isinstance(o, str) for o in orders):
            raise IllegalAction('"orders" must be a list of order strings such as "A PAR - BUR".')
        if not isinstance(messages, dict) or not all(isinstance(v, str) for v in messages.values()):
            raise IllegalAction('"messages" must map a power (or "Global") to one message text.')
        return self._action(state, orders, {self._recipient(k): v for k, v in messages.items() if v.strip()})

    def _recipient(self, name: str) -> str:
        if name.strip().upper() in (ALL, "GLOBAL", "EVERYONE"):
            return ALL
        seat = power_of(name)
        if seat is None:
            raise IllegalAction(f"{name.strip()!r} is not a power; write to one of {', '.join(SEAT_NAMES)} or ALL.")
        return SEAT_NAMES[seat]

    def _action(self, state: DiplomacyState, orders: list[str], messages: dict[str, str]) -> Action:
        seat = self.current_player(state)
        allowed = self.order_locations(state, seat) if seat is not None else {}
        canonical = []
        for order in orders:
            order = normalise_order(order)
            # a convoyed move may be written without the engine's 'VIA'
            canonical.append(order + " VIA" if order not in allowed and order + " VIA" in allowed else order)
        texts = {to: " ".join(text.split()) for to, text in messages.items()}
        return tuple(sorted(set(canonical))), tuple(sorted(texts.items()))

    def public_action_text(self, text: str) -> str:
        """Orders stay sealed until the phase resolves and messages reach only their recipients."""
        return "(orders sealed)"

    def action_cells(self, state: DiplomacyState, action: Action) -> tuple[str, ...]:
        return (self.action_to_text(state, action),)

    # -- what each viewer sees ------------------------------------------------------------

    def delivered(self, state: DiplomacyState, message: Message) -> bool:
        """A message reaches its recipients when its round closes (all powers sealed)."""
        phase, number, *_ = message
        return state.over or (phase, number) != (self.board(state).phase, state.round)

    def visible_messages(self, state: DiplomacyState, viewer: int | None, reveal: bool) -> list[Message]:
        """The sender's own messages; others' once delivered, to their recipients (everyone for ALL)."""
        return [
            m
            for m in state.messages
            if reveal or m[2] == viewer or (viewer is not None and self.delivered(state, m) and m[3] in (-1, viewer))
        ]
