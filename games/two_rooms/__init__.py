"""Two Rooms and a Boom as GameBench (seed 004, Appendix J/K) played it: six players, Blue against Red, two rooms.

Three Blue cards (one the President) and three Red (one the Bomber) are dealt to P1–P6, three players to a room,
and one random Leader per room. Each of three rounds, every player in turn (Room 1, then Room 2) asks a room-mate
a question or shows them their card, and the room-mate answers or shows theirs back; then every player votes for its
room's Leader (two of three votes replace it), and each Leader sends one hostage to the other room. Red wins if the
President and the Bomber end in the same room. See docs/games.md.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.base import Game, IllegalAction, Outcome
from games.two_rooms.state import (
    ANSWERS,
    CARDS,
    MAX_SAY,
    NAMES,
    NO_VOTES,
    PLAYERS,
    QUESTIONS,
    ROUNDS,
    TEAM_OF_CARD,
    Event,
    TwoRoomsState,
    phase,
    room_mates,
    seat_of,
    shown_to_act,
    speakers,
    to_act,
)
from games.two_rooms.text import RULES_TEXT, describe, observation, view

ARITY = {"ask": 3, "say": 2, "show": 2, "send": 2, "vote": 2}


class TwoRoomsAndABoom(Game[TwoRoomsState, tuple]):
    slug = "two-rooms-and-a-boom"
    name = "Two Rooms and a Boom"
    num_players = PLAYERS
    hidden_information = True
    chance = True
    seat_names = NAMES

    hidden_teams = True

    def team_of(self, state: TwoRoomsState, seat: int) -> int:
        """0 for Blue, 1 for Red (the deal lasts the game)."""
        return 0 if TEAM_OF_CARD[state.cards[seat]] == "blue" else 1

    def initial_state(self, *, seed: int, **options: Any) -> TwoRoomsState:
        if options:
            raise ValueError(f"two-rooms-and-a-boom takes no options, got {sorted(options)}")
        blank = TwoRoomsState(seed, 0, (), (-1, -1), (), 1, 0, False, NO_VOTES, (-1, -1), (), "")
        rng = self.rng(blank)
        cards, order = list(CARDS), list(range(PLAYERS))
        rng.shuffle(cards)
        rng.shuffle(order)
        rooms = [0] * PLAYERS
        for seat in order[3:]:
            rooms[seat] = 1
        leaders = (rng.choice(sorted(order[:3])), rng.choice(sorted(order[3:])))
        return replace(blank, cards=tuple(cards), leaders=leaders, room_history=(tuple(rooms),))

    def current_player(self, state: TwoRoomsState) -> int | None:
        return to_act(state)

    def legal_actions(self, state: TwoRoomsState) -> list[tuple]:
        """Representative questions and answers (any text up to 300 characters is legal), shows, votes, hostages."""
        seat, now = self.current_player(state), phase(state)
        if seat is None:
            return []
        if now == "talk":
            return [a for t in room_mates(state, seat) for a in (*(("ask", t, q) for q in QUESTIONS), ("show", t))]
        if now == "answer":
            return [*(("say", text) for text in ANSWERS), ("show", state.events[-1][3])]
        if now == "vote":
            return [("vote", c) for c in sorted((seat, *room_mates(state, seat)))]
        return [("send", h) for h in room_mates(state, seat)]

    def action_problem(self, state: TwoRoomsState, action: tuple) -> str | None:
        seat, now = self.current_player(state), phase(state)
        if seat is None:
            return "The game is over; no more moves can be made."
        verbs = {"talk": ("ask", "show"), "answer": ("say", "show"), "vote": ("vote",), "hostages": ("send",)}[now]
        if not isinstance(action, tuple) or not action or action[0] not in verbs or len(action) != ARITY[action[0]]:
            return f"{action!r} is not an action now; {self.prompt(state)}"
        if action[0] in ("ask", "say"):
            text = action[-1]
            if not isinstance(text, str) or not text.strip():
                return f"Write a message; {self.prompt(state)}"
            if text != text.strip() or len(text) > MAX_SAY:
                return f"Your message has {len(text)} characters (no outer spaces); the limit is {MAX_SAY}."
        if now == "answer":
            asker = state.events[-1][3]
            return None if action[0] == "say" or action == ("show", asker) else f"Answer {NAMES[asker]}."
        mates = room_mates(state, seat) + ([seat] if now == "vote" else [])
        if not isinstance(action[1], int) or action[1] not in mates:
            return f"Choose a player in your room: one of {', '.join(NAMES[s] for s in mates)}."
        return None

    def is_legal(self, state: TwoRoomsState, action: tuple) -> bool:
        return self.action_problem(state, action) is None

    def apply(self, state: TwoRoomsState, action: tuple) -> TwoRoomsState:
        problem = self.action_problem(state, action)
        if problem:
            raise IllegalAction(problem)
        seat = self.current_player(state)
        assert seat is not None  # action_problem refused a finished game
        room = state.rooms[seat]
        state = replace(state, ply=state.ply + 1)
        if action[0] == "send":
            picks = (action[1], state.picks[1]) if room == 0 else (state.picks[0], action[1])
            return self._exchange(state, picks) if min(picks) >= 0 else replace(state, picks=picks)
        if action[0] == "vote":
            votes = tuple(action[1] if s == seat else v for s, v in enumerate(state.votes))
            state = replace(state, turn=state.turn + 1, votes=votes)
            return self._elect(state) if min(votes) >= 0 else state
        if phase(state) == "talk":
            target, text = action[1], action[2] if action[0] == "ask" else ""
            event: Event = (action[0], state.round, room, seat, target, text)
            return replace(state, answering=True, events=(*state.events, event))
        asker = state.events[-1][3]
        event = (action[0], state.round, room, seat, asker, action[1] if action[0] == "say" else "")
        return replace(state, answering=False, turn=state.turn + 1, events=(*state.events, event))

    def _elect(self, state: TwoRoomsState) -> TwoRoomsState:
        """Each room's votes are tallied and shown: two of its three votes make a Leader, else the Leader stays."""
        leaders, events = list(state.leaders), list(state.events)
        for room in (0, 1):
            voters = [s for s in speakers(state) if state.rooms[s] == room]
            chosen = [state.votes[s] for s in voters]
            top = max(chosen, key=chosen.count)
            if chosen.count(top) >= 2:
                leaders[room] = top
            tally = ", ".join(f"{NAMES[s]} for {NAMES[state.votes[s]]}" for s in voters)
            events.append(("leader", state.round, -1, room, leaders[room], tally))
        return replace(state, leaders=(leaders[0], leaders[1]), votes=NO_VOTES, events=tuple(events))

    def _exchange(self, state: TwoRoomsState, picks: tuple[int, int]) -> TwoRoomsState:
        """Both hostages change rooms at once; after the third exchange the game is decided."""
        rooms = list(state.rooms)
        rooms[picks[0]], rooms[picks[1]] = 1, 0
        event: Event = ("exchange", state.round, -1, picks[0], picks[1], "")
        state = replace(
            state,
            room_history=(*state.room_history, tuple(rooms)),
            picks=(-1, -1),
            turn=0,
            events=(*state.events, event),
        )
        if state.round < ROUNDS:
            return replace(state, round=state.round + 1)
        president, bomber = state.cards.index("president"), state.cards.index("bomber")
        winner = "red" if rooms[president] == rooms[bomber] else "blue"
        return replace(state, result=winner, events=(*state.events, ("result", state.round, -1, -1, -1, winner)))

    def outcome(self, state: TwoRoomsState) -> Outcome | None:
        if not state.result:
            return None
        blue = state.result == "blue"
        scores = tuple(1.0 if (TEAM_OF_CARD[card] == "blue") == blue else 0.0 for card in state.cards)
        where = "different rooms" if blue else "the same room"
        return Outcome(scores, f"the President and the Bomber end in {where}: {state.result.capitalize()} wins")

    # -- JSON and notation ---------------------------------------------------------------

    def to_json(self, state: TwoRoomsState) -> dict[str, Any]:
        return {
            "seed": state.seed,
            "ply": state.ply,
            "cards": list(state.cards),
            "leaders": list(state.leaders),
            "room_history": [list(r) for r in state.room_history],
            "round": state.round,
            "turn": state.turn,
            "answering": state.answering,
            "votes": list(state.votes),
            "picks": list(state.picks),
            "events": [list(e) for e in state.events],
            "result": state.result,
        }

    def from_json(self, data: dict[str, Any]) -> TwoRoomsState:
        return TwoRoomsState(
            seed=int(data["seed"]),
            ply=int(data["ply"]),
            cards=tuple(str(c) for c in data["cards"]),
            leaders=(int(data["leaders"][0]), int(data["leaders"][1])),
            room_history=tuple(tuple(int(r) for r in rooms) for rooms in data["room_history"]),
            round=int(data["round"]),
            turn=int(data["turn"]),
            answering=bool(data["answering"]),
            votes=tuple(int(v) for v in data["votes"]),
            picks=(int(data["picks"][0]), int(data["picks"][1])),
            events=tuple((str(k), int(r), int(m), int(a), int(t), str(x)) for k, r, m, a, t, x in data["events"]),
            result=str(data["result"]),
        )

    def round_label(self, state: TwoRoomsState) -> str:
        now = phase(state)
        return f"Round {state.round}" + (f" · {now}" if now in ("vote", "hostages") else "")

    def action_to_text(self, state: TwoRoomsState, action: tuple) -> str:
        if action[0] == "ask":
            return f"ask {NAMES[action[1]]} {action[2]}"
        return f"say {action[1]}" if action[0] == "say" else f"{action[0]} {NAMES[action[1]]}"

    def parse_action(self, state: TwoRoomsState, text: str) -> tuple:
        verb, _, rest = text.strip().partition(" ")
        verb, rest = verb.lower().rstrip(":!"), rest.strip()
        if verb == "say":
            return ("say", rest)
        if verb == "show" and not rest and state.answering:
            return ("show", state.events[-1][3])  # show your card back to the asker
        if verb not in ("ask", "show", "send", "vote"):
            raise IllegalAction(f"Could not read {text.strip()[:80]!r}; {self.prompt(state)}")
        name, _, message = rest.partition(" ")
        target = seat_of(name)
        if target is None:
            raise IllegalAction(f"{name!r} is not a player; name one as P1–P6.")
        return ("ask", target, message.strip()) if verb == "ask" else (verb, target)

    def prompt(self, state: TwoRoomsState) -> str:
        """What the player to act may answer, in the notation."""
        now = phase(state)
        if now == "talk":
            return "answer 'ask P<n> <question>' or 'show P<n>' (a player in your room)."
        if now == "answer":
            return f"answer 'say <message>' or 'show' (your card, to {NAMES[state.events[-1][3]]})."
        if now == "vote":
            return "answer 'vote P<n>' (the player of your room, you included, you want as its Leader)."
        return "answer 'send P<n>' (a player in your room other than you)."

    def action_cells(self, state: TwoRoomsState, action: tuple) -> tuple[str, ...]:
        if action[0] in ("send", "vote"):
            return (NAMES[action[1]],)
        if action[0] == "show":
            return ("show",) if state.answering else ("show", NAMES[action[1]])
        return (self.action_to_text(state, action),)

    def public_action_text(self, text: str) -> str:
        """Talk is heard only in its room; votes and hostages stay secret until all are in: none is public."""
        verb = text.strip().partition(" ")[0].lower()
        return {"send": "(hostage chosen)", "vote": "(vote cast)"}.get(verb, "(talk in a room)")

    def shown_to_move(self, state: TwoRoomsState, viewer: int | None) -> int | None:
        return shown_to_act(state, viewer)

    # -- what each viewer sees, and the prompts (games/two_rooms/text.py) -------------------

    def player_view(self, state: TwoRoomsState, player: int | None) -> dict[str, Any]:
        # No seed and no card beyond what `player` has seen: the seed deals the cards.
        return view(state, player, reveal=False)

    def full_view(self, state: TwoRoomsState) -> dict[str, Any]:
        return {**view(state, None, reveal=True), "seed": state.seed}

    def public_history(self, state: TwoRoomsState) -> str:
        return "\n".join(describe(state, e, None) for e in state.events if e[2] < 0)

    def rules_text(self) -> str:
        return RULES_TEXT

    def observation_text(self, state: TwoRoomsState, player: int) -> str:
        return observation(state, player, self.prompt(state))
