"""Two Rooms and a Boom's state, deal constants and the facts every part reads (whose turn, who saw what)."""

from __future__ import annotations

import re
from dataclasses import dataclass

PLAYERS = 6
NAMES = tuple(f"P{n}" for n in range(1, PLAYERS + 1))
ROOMS = ("Room 1", "Room 2")
ROUNDS = 3
CARDS = ("president", "blue team", "blue team", "bomber", "red team", "red team")
TEAM_OF_CARD = {"president": "blue", "blue team": "blue", "bomber": "red", "red team": "red"}
MAX_SAY = 300
QUESTIONS = ("Which team are you on?", "Will you show me your card?")
NO_VOTES = (-1,) * PLAYERS
ANSWERS = ("I am on the Blue team.", "I am on the Red team.", "I would rather not say.")
# kind, round, room, actor, target, text. Kinds: ask, say, show (heard in `room`); public (room -1): leader (actor:
# the room, target: its Leader after the vote, text: the votes), exchange (actor left Room 1, target left Room 2),
# result (text: the winning team).
Event = tuple[str, int, int, int, int, str]


@dataclass(frozen=True)
class TwoRoomsState:
    seed: int
    ply: int
    cards: tuple[str, ...]
    leaders: tuple[int, int]
    room_history: tuple[tuple[int, ...], ...]  # each seat's room (0/1) in round 1, 2, 3, then at the end
    round: int
    turn: int  # questions answered, then votes cast this round (PLAYERS each); 2 * PLAYERS: hostages
    answering: bool  # the last event's target must answer it
    votes: tuple[int, ...]  # each seat's vote for its room's Leader this round (-1: not yet); secret until all voted
    picks: tuple[int, int]  # hostage each Leader chose this round (-1: not yet); secret until both chose
    events: tuple[Event, ...]
    result: str  # "", "blue", "red"

    @property
    def rooms(self) -> tuple[int, ...]:
        return self.room_history[-1]


def seat_of(name: str) -> int | None:
    """'P3', 'p3', '3' or 'Player 3' → seat 2; None otherwise."""
    match = re.fullmatch(r"(?:p|player\s*)?(\d+)", name.strip().lower())
    return int(match[1]) - 1 if match and 1 <= int(match[1]) <= PLAYERS else None


def room_mates(state: TwoRoomsState, seat: int) -> list[int]:
    return [s for s in range(PLAYERS) if state.rooms[s] == state.rooms[seat] and s != seat]


def speakers(state: TwoRoomsState) -> list[int]:
    """This round's talking order: Room 1's players in seat order, then Room 2's."""
    return sorted(range(PLAYERS), key=lambda s: (state.rooms[s], s))


def phase(state: TwoRoomsState) -> str:
    """'talk' (a player asks or shows), 'answer' (the one asked replies), 'vote', 'hostages' or 'over'."""
    if state.result:
        return "over"
    if state.answering:
        return "answer"
    return ("talk", "vote", "hostages")[min(state.turn // PLAYERS, 2)]


def to_act(state: TwoRoomsState) -> int | None:
    """The seat to act: the speaker, the one spoken to, or the Leader choosing a hostage (Room 1's first)."""
    now = phase(state)
    if now == "over":
        return None
    if now == "answer":
        return state.events[-1][4]
    if now in ("talk", "vote"):
        return speakers(state)[state.turn % PLAYERS]
    return state.leaders[0] if state.picks[0] < 0 else state.leaders[1]


def room_at(state: TwoRoomsState, seat: int, round_number: int) -> int:
    return state.room_history[round_number - 1][seat]


def known_cards(state: TwoRoomsState, viewer: int | None, reveal: bool = False) -> dict[int, str]:
    """The cards `viewer` has seen: its own and those shown to it (all with `reveal` or once the game is over)."""
    if reveal or state.result:
        return dict(enumerate(state.cards))
    if viewer is None:
        return {}
    shown = {e[3]: state.cards[e[3]] for e in state.events if e[0] == "show" and e[4] == viewer}
    return {**shown, viewer: state.cards[viewer]}


def heard(state: TwoRoomsState, event: Event, viewer: int | None, reveal: bool) -> bool:
    """Public events reach everyone; talk only the players in its room that round (everything with `reveal`)."""
    if reveal or event[2] < 0:
        return True
    return viewer is not None and room_at(state, viewer, event[1]) == event[2]


def shown_to_act(state: TwoRoomsState, viewer: int | None, reveal: bool = False) -> int | None:
    """Who acts, as `viewer` may know it: a talker or voter only to its room (others wait), a Leader to everyone."""
    acting = to_act(state)
    if acting is None or reveal or phase(state) == "hostages":
        return acting
    return acting if viewer is not None and state.rooms[viewer] == state.rooms[acting] else None
