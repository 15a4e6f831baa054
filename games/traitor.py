"""Are You the Traitor? as GameBench (seed 004, Appendix J/K) played it: five players, Good against Evil.

Teams are dealt once: two Evil, three Good. Each round the roles are dealt afresh within each team: Traitor and
Evil Wizard (Evil); Good Wizard, Key Holder and Guard (Good).
Players talk in turn; a player may instead shout Stop and point at someone. Pointing at your role's target wins the
round for your team, a wrong point gives it to the other team. Every member of the round's winning team draws a
Treasure card; the first round after which someone holds 10 points ends the game. See docs/games.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from games.base import Game, IllegalAction, Outcome

PLAYERS = 5
NAMES = tuple(f"P{n}" for n in range(1, PLAYERS + 1))
ROLES = ("traitor", "evil wizard", "good wizard", "key holder", "guard")
EVIL = ("traitor", "evil wizard")
# Whom each role must point at to win the round (GameBench's `target`); the Traitor cannot shout Stop.
TARGETS = {"evil wizard": "key holder", "good wizard": "traitor", "key holder": "good wizard", "guard": "traitor"}
# GameBench's deck: name -> (cards, points).
TREASURES = {
    "crown jewels": (2, 5),
    "platinum pyramid": (5, 4),
    "bag of gold": (12, 3),
    "silver goblet": (11, 2),
    "chest of copper": (5, 1),
    "magic ring": (5, 1),
    "gilded statue": (2, 0),
}
WINNING_POINTS = 10
LAPS = 3  # talking turns per player and round before the round ends with the key kept (an Evil win)
MAX_SAY = 300
TEMPLATES = ("I am on the Good team.", "I have nothing to hide.", "Who holds the key?", "I trust no one yet.")
# kind, round, actor, target, text. Kinds: say, stop (public), result (public: the round's winning team).
Event = tuple[str, int, int, int, str]


@dataclass(frozen=True)
class TraitorState:
    seed: int
    ply: int
    round: int
    roles: tuple[str, ...]  # this round's deal
    turn: int  # talking turns taken this round
    hands: tuple[tuple[str, ...], ...]
    deck: tuple[str, ...]
    events: tuple[Event, ...]
    result: str  # "", "good", "evil", "draw"


def seat_of(name: str) -> int | None:
    """'P3', 'p3', '3' or 'Player 3' → seat 2; None otherwise."""
    match = re.fullmatch(r"(?:p|player\s*)?(\d+)", name.strip().lower())
    return int(match[1]) - 1 if match and 1 <= int(match[1]) <= PLAYERS else None


def points(hand: tuple[str, ...]) -> int:
    return sum(TREASURES[card][1] for card in hand)


class AreYouTheTraitor(Game[TraitorState, tuple]):
    slug = "are-you-the-traitor"
    name = "Are You the Traitor?"
    num_players = PLAYERS
    hidden_information = True
    chance = True
    seat_names = NAMES

    hidden_teams = True

    def team_of(self, state: TraitorState, seat: int) -> int:
        """0 for Good, 1 for Evil in the current round's deal."""
        return 1 if state.roles[seat] in EVIL else 0

    def initial_state(self, *, seed: int, **options: Any) -> TraitorState:
        if options:
            raise ValueError(f"are-you-the-traitor takes no options, got {sorted(options)}")
        blank = TraitorState(seed, 0, 1, (), 0, ((),) * PLAYERS, (), (), "")
        deck = [name for name, (count, _) in TREASURES.items() for _ in range(count)]
        self.rng(blank).shuffle(deck)
        return self._deal(replace(blank, deck=tuple(deck)))

    def _deal(self, state: TraitorState) -> TraitorState:
        """Round 1 deals the teams; later rounds deal the roles again within each team (GameBench's fixed teams)."""
        rng = self.rng(replace(state, ply=state.ply + 7919 * state.round))
        if not state.roles:
            roles = list(ROLES)
            rng.shuffle(roles)
            return replace(state, roles=tuple(roles), turn=0)
        evil, good = list(EVIL), [r for r in ROLES if r not in EVIL]
        rng.shuffle(evil)
        rng.shuffle(good)
        roles = [evil.pop() if role in EVIL else good.pop() for role in state.roles]
        return replace(state, roles=tuple(roles), turn=0)

    def current_player(self, state: TraitorState) -> int | None:
        """Players talk in seat order, starting one seat later each round."""
        return None if state.result else (state.round - 1 + state.turn) % PLAYERS

    def can_stop(self, state: TraitorState, seat: int) -> bool:
        return state.roles[seat] in TARGETS

    def legal_actions(self, state: TraitorState) -> list[tuple]:
        """Representative sentences (any text up to 300 characters is legal), then Stop at each other player."""
        seat = self.current_player(state)
        if seat is None:
            return []
        actions = [("say", text) for text in TEMPLATES]
        if self.can_stop(state, seat):
            actions += [("stop", t) for t in range(PLAYERS) if t != seat]
        return actions

    def action_problem(self, state: TraitorState, action: tuple) -> str | None:
        seat = self.current_player(state)
        if seat is None:
            return "The game is over; no more moves can be made."
        if not isinstance(action, tuple) or len(action) != 2 or action[0] not in ("say", "stop"):
            return f"{action!r} is not an action; answer 'say <message>' or 'stop P<n>'."
        if action[0] == "say":
            text = action[1]
            if not isinstance(text, str) or not text or text != text.strip():
                return "Say something: 'say <your message>'."
            if len(text) > MAX_SAY:
                return f"Your message has {len(text)} characters; the limit is {MAX_SAY}."
            return None
        if not self.can_stop(state, seat):
            return "The Traitor cannot shout Stop; answer 'say <message>'."
        if not isinstance(action[1], int) or not 0 <= action[1] < PLAYERS or action[1] == seat:
            return f"Point at another player: one of {', '.join(n for s, n in enumerate(NAMES) if s != seat)}."
        return None

    def is_legal(self, state: TraitorState, action: tuple) -> bool:
        return self.action_problem(state, action) is None

    def random_action(self, state: TraitorState, rng: Any) -> tuple:
        return rng.choice(self.legal_actions(state))

    def apply(self, state: TraitorState, action: tuple) -> TraitorState:
        problem = self.action_problem(state, action)
        if problem:
            raise IllegalAction(problem)
        seat = self.current_player(state)
        assert seat is not None  # action_problem refused a finished game
        if action[0] == "say":
            event: Event = ("say", state.round, seat, -1, action[1])
            state = replace(state, ply=state.ply + 1, turn=state.turn + 1, events=(*state.events, event))
            if state.turn < LAPS * PLAYERS:
                return state
            return self._end_round(state, "evil", "no one shouted Stop: the Evil team keeps the key")
        target = action[1]
        right = state.roles[target] == TARGETS[state.roles[seat]]
        team = "evil" if state.roles[seat] in EVIL else "good"
        winner = team if right else ("good" if team == "evil" else "evil")
        state = replace(state, ply=state.ply + 1, events=(*state.events, ("stop", state.round, seat, target, "")))
        return self._end_round(state, winner, f"{NAMES[target]} was {state.roles[target]}")

    def _end_round(self, state: TraitorState, winner: str, why: str) -> TraitorState:
        """Winners draw a card each in seat order; then every magic ring steals from the other team (GameBench)."""
        hands, deck = [list(h) for h in state.hands], list(state.deck)
        winners = [s for s in range(PLAYERS) if (state.roles[s] in EVIL) == (winner == "evil")]
        for seat in winners:
            if deck:
                hands[seat].append(deck.pop(0))
        rng = self.rng(state)
        for seat in range(PLAYERS):
            if "magic ring" not in hands[seat]:
                continue
            victims = [v for v in range(PLAYERS) if hands[v] and self.team_of(state, v) != self.team_of(state, seat)]
            if not victims:
                continue
            victim = rng.choice(victims)
            card = "gilded statue" if "gilded statue" in hands[victim] else rng.choice(hands[victim])
            hands[victim].remove(card)
            hands[seat].remove("magic ring")
            hands[seat].append(card)
        event: Event = ("result", state.round, -1, -1, f"{winner}|{why}")
        state = replace(state, hands=tuple(tuple(h) for h in hands), deck=tuple(deck), events=(*state.events, event))
        scores = [points(h) for h in state.hands]
        if max(scores) >= WINNING_POINTS or len(deck) < 3:
            top = [s for s in range(PLAYERS) if scores[s] == max(scores)]
            teams = {"evil" if state.roles[s] in EVIL else "good" for s in top}
            return replace(state, result=teams.pop() if len(teams) == 1 else winner)
        return self._deal(replace(state, round=state.round + 1))

    def outcome(self, state: TraitorState) -> Outcome | None:
        if not state.result:
            return None
        scores = tuple(1.0 if (role in EVIL) == (state.result == "evil") else 0.0 for role in state.roles)
        best = max(points(h) for h in state.hands)
        return Outcome(scores, f"the {state.result.capitalize()} team of the richest player ({best} points) wins")

    # -- JSON and notation ---------------------------------------------------------------

    def to_json(self, state: TraitorState) -> dict[str, Any]:
        return {
            "seed": state.seed,
            "ply": state.ply,
            "round": state.round,
            "roles": list(state.roles),
            "turn": state.turn,
            "hands": [list(h) for h in state.hands],
            "deck": list(state.deck),
            "events": [list(e) for e in state.events],
            "result": state.result,
        }

    def from_json(self, data: dict[str, Any]) -> TraitorState:
        return TraitorState(
            seed=int(data["seed"]),
            ply=int(data["ply"]),
            round=int(data["round"]),
            roles=tuple(str(r) for r in data["roles"]),
            turn=int(data["turn"]),
            hands=tuple(tuple(str(c) for c in h) for h in data["hands"]),
            deck=tuple(str(c) for c in data["deck"]),
            events=tuple((str(k), int(r), int(a), int(t), str(x)) for k, r, a, t, x in data["events"]),
            result=str(data["result"]),
        )

    def round_label(self, state: TraitorState) -> str:
        return f"Round {state.round}"

    def action_to_text(self, state: TraitorState, action: tuple) -> str:
        return f"say {action[1]}" if action[0] == "say" else f"stop {NAMES[action[1]]}"

    def parse_action(self, state: TraitorState, text: str) -> tuple:
        verb, _, rest = text.strip().partition(" ")
        verb = verb.lower().rstrip(":!")
        if verb == "say":
            return ("say", rest.strip())
        if verb in ("stop", "point", "accuse"):
            target = seat_of(rest)
            if target is None:
                raise IllegalAction(f"{rest.strip()!r} is not a player; name one as P1–P5.")
            return ("stop", target)
        raise IllegalAction(f"Could not read {text.strip()[:80]!r}; answer 'say <message>' or 'stop P<n>'.")

    def action_cells(self, state: TraitorState, action: tuple) -> tuple[str, ...]:
        return (NAMES[action[1]],) if action[0] == "stop" else (self.action_to_text(state, action),)

    # -- what each viewer sees ------------------------------------------------------------

    def known_roles(self, state: TraitorState, viewer: int | None, reveal: bool) -> dict[int, str]:
        """This round's roles `viewer` knows: its own, and the Key Holder's if it is the Traitor (published rule)."""
        if reveal:
            return dict(enumerate(state.roles))
        if viewer is None or state.result:
            return {} if viewer is None else {viewer: state.roles[viewer]}
        known = {viewer: state.roles[viewer]}
        if state.roles[viewer] == "traitor":
            known[state.roles.index("key holder")] = "key holder"
        return known

    def describe(self, event: Event) -> str:
        kind, number, actor, target, text = event
        if kind == "say":
            return f"Round {number}: {NAMES[actor]} said: {text}"
        if kind == "stop":
            return f"Round {number}: {NAMES[actor]} shouted Stop and pointed at {NAMES[target]}."
        winner, why = text.split("|")
        return f"Round {number}: the {winner.capitalize()} team wins the round ({why})."

    def _view(self, state: TraitorState, viewer: int | None, reveal: bool) -> dict[str, Any]:
        known = self.known_roles(state, viewer, reveal)
        to_act = self.current_player(state)
        players = [
            {
                "seat": s,
                "name": NAMES[s],
                "role": known.get(s, ""),
                "you": s == viewer,
                "to_act": s == to_act,
                # Treasure is public in GameBench's scoring; the cards themselves too (they are drawn face up here).
                "treasure": list(state.hands[s]),
                "points": points(state.hands[s]),
            }
            for s in range(PLAYERS)
        ]
        log = [
            {
                "index": i,
                "kind": e[0],
                "round": e[1],
                "group": f"Round {e[1]}",
                "speaker": NAMES[e[2]] if e[2] >= 0 else "",
                "you": viewer is not None and e[2] == viewer,
                "message": e[4] if e[0] == "say" else "",
                "notice": self.describe(e).partition(": ")[2],
            }
            for i, e in enumerate(state.events)
        ]
        return {
            "game": self.slug,
            "viewer": viewer,
            "round": state.round,
            "turn": state.turn,
            "turns": LAPS * PLAYERS,
            "to_act": to_act,
            "to_act_name": NAMES[to_act] if to_act is not None else "",
            "can_stop": viewer is not None and to_act == viewer and self.can_stop(state, viewer),
            "players": players,
            "deck": len(state.deck),
            "max_say": MAX_SAY,
            "log": log,
            "result": state.result,
        }

    def player_view(self, state: TraitorState, player: int | None) -> dict[str, Any]:
        # No seed and no deal beyond what `player` knows: the seed deals roles and treasure.
        return self._view(state, player, reveal=False)

    def full_view(self, state: TraitorState) -> dict[str, Any]:
        view = self._view(state, None, reveal=True)
        view["seed"] = state.seed
        return view

    def public_history(self, state: TraitorState) -> str:
        return "\n".join(self.describe(e) for e in state.events)

    def rules_text(self) -> str:
        return (
            "Are you the traitor? The Good team wants to destroy an Evil Magic Key while the Evil team wants to "
            "keep it. The key can be destroyed by giving it to the Good Wizard, but there is an Evil Wizard who "
            "looks exactly alike. Use social deduction to find out who is who, but also know that there is a "
            "traitor among the guards who have the key.\n"
            "Five players, P1–P5, in two secret teams that last the whole game: Evil (2) and Good (3). Each round "
            "the roles are dealt afresh within each team: Traitor and Evil Wizard (Evil); Good Wizard, Key Holder "
            "and Guard (Good). Only the pointed-at player's role is revealed. You know only your own role; the Traitor "
            "also knows who the Key Holder is. Players talk in turn (P1 first in round 1, one seat later each "
            "round), at most 3 turns each. On your turn either 'say <message>' (up to 300 characters, everyone "
            "reads it) or shout Stop and point at a player: 'stop P<n>'. The Traitor cannot shout Stop. "
            "The Evil Wizard wins the round for Evil by pointing at the Key Holder; the Good Wizard and the Guard "
            "win it for Good by pointing at the Traitor; the Key Holder wins it for Good by giving the key to "
            "(pointing at) the Good Wizard. A wrong point gives the round to the other team. If no one shouts "
            "Stop, Evil keeps the key and wins the round.\n"
            "Every member of the round's winning team draws a Treasure card (crown jewels 5 points, platinum "
            "pyramid 4, bag of gold 3, silver goblet 2, chest of copper 1, magic ring 1, gilded statue 0). After "
            "the draw each magic ring is spent to steal a card from a random player of the other team (a gilded "
            "statue if that player has one). When someone holds 10 points, the game ends and the "
            "richest player's team wins."
        )

    def observation_text(self, state: TraitorState, player: int) -> str:
        view = self.player_view(state, player)
        lines = [f"You are {NAMES[player]}. Round {state.round}: you are the {state.roles[player]}."]
        for seat, role in self.known_roles(state, player, reveal=False).items():
            if seat != player:
                lines.append(f"You know {NAMES[seat]} is the {role}.")
        lines.append("Treasure: " + ", ".join(f"{p['name']} {p['points']} points" for p in view["players"]) + ".")
        if state.events:
            lines.append("What happened so far:\n" + "\n".join(f"  {self.describe(e)}" for e in state.events))
        if state.result:
            lines.append(f"Game over: the {state.result} team won.")
        else:
            left = LAPS * PLAYERS - state.turn
            can = "say <message>' or 'stop P<n>" if self.can_stop(state, player) else "say <message>"
            lines.append(f"It is your turn ({left} talking turns left this round). Answer '{can}'.")
        return "\n".join(lines)
